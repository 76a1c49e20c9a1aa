package io.xdlink.ccl.abi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Opaque 64-bit ids for Java objects handed to native code as {@code void*}: {@code generation << 32 | index << 3
 * | kind}. An id is never 0 or 1, so NULL keeps meaning "not yet" and NCCL's {@code (void*)0x1} is never a handle.
 * Lookups are lock-free; a stale id (its slot reused), an id of the wrong kind or garbage finds nothing, so a host's
 * mistake becomes an error code instead of a crash.
 */
final class HandleTable {
    /** What a handle stands for; the id's low three bits. */
    enum Kind {
        CONTEXT, LISTEN, SEND, RECV, MEMORY, REQUEST;

        /**
         * The id's low three bits for this kind, from 1 (so with an index from 1 no id is 0 or 1); the shim reads
         * the ones it knows as {@code XDL_KIND_*} in ccl_bridge.h.
         */
        int code() {
            return ordinal() + 1;
        }
    }

    private static final int PAGE_BITS = 12;
    private static final int PAGE_SIZE = 1 << PAGE_BITS;
    private static final int MAX_PAGES = 1 << 14;
    /** At most this many handles live at once (2^26). */
    static final int CAPACITY = PAGE_SIZE * MAX_PAGES;

    /** A live id's value, and the block it was handed out from (null for the shared slots). */
    private record Entry(long id, Object value, Block block) {
    }

    private static final VarHandle PAGE = MethodHandles.arrayElementVarHandle(Entry[][].class);
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Entry[].class);

    /**
     * Pages of slots, made on first use and published with release writes. Plain arrays rather than atomic-array
     * objects: a lookup is on the path of every upcall, and each object it passes through is one more cache line,
     * and often one more page, that a host thread coming back from {@code sched_yield} finds cold.
     */
    private final Entry[][] pages = new Entry[MAX_PAGES][];
    private int[] free = new int[1024];
    private int freeCount;
    private int nextIndex = 1;
    private int[] slotGeneration = new int[PAGE_SIZE];

    /** Stores a value and returns its id. */
    synchronized long add(Kind kind, Object value) {
        int index;
        if (freeCount > 0) {
            index = free[--freeCount];
        } else {
            index = fresh(1);
        }
        return store(index, nextGeneration(slotGeneration, index), kind, value, null);
    }

    /**
     * A run of {@link Block#SLOTS} ids for one owner (a comm's requests), handed out by {@link
     * #add(Block, Kind, Object)} and taken back by {@link #remove} under the block's own lock. A comm's host
     * thread then never takes this table's lock nor writes a cache line that another comm's thread writes: the
     * table's free list, the generations and the page entries of one block are its own, as are the mirror entries
     * of its ids ({@link RequestMirror} keeps an entry per index).
     */
    synchronized Block block() {
        int base = fresh(Block.SLOTS);
        int[] generations = new int[Block.SLOTS];
        for (int i = 0; i < Block.SLOTS; i++) {
            generations[i] = slotGeneration[base + i];
        }
        return new Block(base, generations);
    }

    /** Stores a value under one of the block's ids; falls back to the shared slots when the block is full. */
    long add(Block block, Kind kind, Object value) {
        synchronized (block) {
            if (block.freeCount > 0 && !block.closed) {
                int slot = block.free[--block.freeCount];
                block.live++;
                return store(block.base + slot, nextGeneration(block.generations, slot), kind, value, block);
            }
        }
        return add(kind, value);
    }

    /** Takes a live id of a block back into it (under the block's lock only). */
    private Object removeFromBlock(Block block, long id, Kind kind) {
        boolean drained;
        Object value;
        synchronized (block) {
            // Looked up again under the lock: another thread may have removed it in the meantime.
            Entry e = entry(id, kind);
            if (e == null) {
                return null;
            }
            int index = index(id);
            SLOT.setRelease(page(index), index & (PAGE_SIZE - 1), (Entry) null);
            block.free[block.freeCount++] = index - block.base;
            block.live--;
            drained = block.closed && block.live == 0 && !block.returned;
            block.returned |= drained;
            value = e.value;
        }
        if (drained) {
            giveBack(block);
        }
        return value;
    }

    /**
     * The block's owner is gone: its ids go back to the shared slots once the last one still live is removed (a
     * host may test a request after closing its comm).
     */
    void close(Block block) {
        boolean drained;
        synchronized (block) {
            block.closed = true;
            drained = block.live == 0 && !block.returned;
            block.returned |= drained;
        }
        if (drained) {
            giveBack(block);
        }
    }

    private synchronized void giveBack(Block block) {
        for (int i = Block.SLOTS - 1; i >= 0; i--) {
            slotGeneration[block.base + i] = block.generations[i];
            pushFree(block.base + i);
        }
    }

    /** Indices never used before: one, or an aligned run of {@code count} (skipped ones go to the free list). */
    private int fresh(int count) {
        int index = count == 1 ? nextIndex : (nextIndex + count - 1) & -count;
        if (index + count > CAPACITY) {
            throw new IllegalStateException("more than " + CAPACITY + " live handles");
        }
        for (int skipped = nextIndex; skipped < index; skipped++) {
            pushFree(skipped);
        }
        nextIndex = index + count;
        if (nextIndex > slotGeneration.length) {
            int length = slotGeneration.length;
            while (length < nextIndex) {
                length *= 2;
            }
            slotGeneration = Arrays.copyOf(slotGeneration, Math.min(CAPACITY, length));
        }
        return index;
    }

    private void pushFree(int index) {
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, free.length * 2);
        }
        free[freeCount++] = index;
    }

    private static int nextGeneration(int[] generations, int i) {
        int generation = ++generations[i] & 0x7FFF_FFFF;
        if (generation == 0) {
            generation = generations[i] = 1;
        }
        return generation;
    }

    private long store(int index, int generation, Kind kind, Object value, Block block) {
        long id = ((long) generation << 32) | ((long) index << 3) | kind.code();
        SLOT.setRelease(page(index), index & (PAGE_SIZE - 1), new Entry(id, value, block));
        return id;
    }

    private static int index(long id) {
        return (int) ((id >>> 3) & 0x1FFF_FFFFL);
    }

    /** The value of a live id of this kind, or null. */
    Object get(long id, Kind kind) {
        Entry e = entry(id, kind);
        return e == null ? null : e.value;
    }

    private Entry entry(long id, Kind kind) {
        if ((id & 7) != kind.code()) {
            return null;
        }
        long index = (id >>> 3) & 0x1FFF_FFFFL;
        if (index == 0 || index >= CAPACITY) {
            return null;
        }
        Entry[] page = (Entry[]) PAGE.getAcquire(pages, (int) (index >>> PAGE_BITS));
        if (page == null) {
            return null;
        }
        Entry e = (Entry) SLOT.getAcquire(page, (int) (index & (PAGE_SIZE - 1)));
        return e != null && e.id == id ? e : null;
    }

    /** Removes a live id of this kind (into its block, if it came from one); returns its value, or null. */
    Object remove(long id, Kind kind) {
        Entry e = entry(id, kind);
        if (e == null) {
            return null;
        }
        return e.block == null ? removeShared(id, kind) : removeFromBlock(e.block, id, kind);
    }

    private synchronized Object removeShared(long id, Kind kind) {
        Entry e = entry(id, kind);
        if (e == null) {
            return null;
        }
        int index = index(id);
        SLOT.setRelease(page(index), index & (PAGE_SIZE - 1), (Entry) null);
        pushFree(index);
        return e.value;
    }

    private Entry[] page(int index) {
        int p = index >>> PAGE_BITS;
        Entry[] page = (Entry[]) PAGE.getAcquire(pages, p);
        if (page != null) {
            return page;
        }
        // A block's first add runs under the block's lock only: pages are made under the table's.
        synchronized (this) {
            page = (Entry[]) PAGE.getAcquire(pages, p);
            if (page == null) {
                page = new Entry[PAGE_SIZE];
                PAGE.setRelease(pages, p, page);
            }
            return page;
        }
    }

    /** One owner's run of ids; see {@link #block()}. Its fields are guarded by its own monitor. */
    static final class Block {
        /** Ids per block: the 32 requests a comm may have in flight, and as many reported but not yet swept. */
        static final int SLOTS = 64;
        private final int base;
        private final int[] generations;
        private final int[] free = new int[SLOTS];
        private int freeCount;
        private int live;
        private boolean closed;
        private boolean returned;

        private Block(int base, int[] generations) {
            this.base = base;
            this.generations = generations;
            // Lowest slot first: a comm with few requests keeps reusing the same few mirror entries.
            for (int i = SLOTS - 1; i >= 0; i--) {
                free[freeCount++] = i;
            }
        }

        /** Ids of this block now live, for tests. */
        synchronized int live() {
            return live;
        }
    }
}
