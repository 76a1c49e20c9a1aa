package io.xdlink.ccl.abi;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Opaque 64-bit ids for Java objects handed to native code as {@code void*}: {@code generation << 32 | index << 3
 * | kind}. An id is never 0 or 1, so NULL keeps meaning "not yet" and NCCL's {@code (void*)0x1} is never a handle.
 * Lookups are lock-free; a stale id (its slot reused), an id of the wrong kind or garbage finds nothing, so a host's
 * mistake becomes an error code instead of a crash.
 */
final class HandleTable {
    /** What a handle stands for; the id's low three bits. */
    enum Kind { CONTEXT, LISTEN, SEND, RECV, MEMORY, REQUEST }

    private static final int PAGE_BITS = 12;
    private static final int PAGE_SIZE = 1 << PAGE_BITS;
    private static final int MAX_PAGES = 1 << 14;
    /** At most this many handles live at once (2^26). */
    static final int CAPACITY = PAGE_SIZE * MAX_PAGES;

    private record Entry(long id, Object value) {
    }

    private final AtomicReferenceArray<AtomicReferenceArray<Entry>> pages = new AtomicReferenceArray<>(MAX_PAGES);
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
            if (nextIndex >= CAPACITY) {
                throw new IllegalStateException("more than " + CAPACITY + " live handles");
            }
            index = nextIndex++;
            if (index >= slotGeneration.length) {
                slotGeneration = java.util.Arrays.copyOf(slotGeneration, Math.min(CAPACITY, slotGeneration.length * 2));
            }
        }
        int generation = ++slotGeneration[index] & 0x7FFF_FFFF;
        if (generation == 0) {
            generation = slotGeneration[index] = 1;
        }
        long id = ((long) generation << 32) | ((long) index << 3) | (kind.ordinal() + 1);
        page(index).set(index & (PAGE_SIZE - 1), new Entry(id, value));
        return id;
    }

    /** The value of a live id of this kind, or null. */
    Object get(long id, Kind kind) {
        if ((id & 7) != kind.ordinal() + 1) {
            return null;
        }
        long index = (id >>> 3) & 0x1FFF_FFFFL;
        if (index == 0 || index >= CAPACITY) {
            return null;
        }
        AtomicReferenceArray<Entry> page = pages.get((int) (index >>> PAGE_BITS));
        if (page == null) {
            return null;
        }
        Entry e = page.get((int) (index & (PAGE_SIZE - 1)));
        return e != null && e.id == id ? e.value : null;
    }

    /** Removes a live id of this kind; returns its value, or null when it was not live. */
    synchronized Object remove(long id, Kind kind) {
        Object value = get(id, kind);
        if (value == null) {
            return null;
        }
        int index = (int) ((id >>> 3) & 0x1FFF_FFFFL);
        pages.get(index >>> PAGE_BITS).set(index & (PAGE_SIZE - 1), null);
        if (freeCount == free.length) {
            free = java.util.Arrays.copyOf(free, free.length * 2);
        }
        free[freeCount++] = index;
        return value;
    }

    private AtomicReferenceArray<Entry> page(int index) {
        int p = index >>> PAGE_BITS;
        AtomicReferenceArray<Entry> page = pages.get(p);
        if (page == null) {
            page = new AtomicReferenceArray<>(PAGE_SIZE);
            pages.set(p, page);
        }
        return page;
    }
}
