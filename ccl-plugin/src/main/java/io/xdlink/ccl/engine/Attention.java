package io.xdlink.ccl.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Whether a connection end has anything new for its owner to look at: completions its queue pair produced since
 * the end last drained them, or work only the end's own progress moves (sends waiting for queue room, buffers to
 * post again). While it has none, a request of that end that was not done at the last look is still not done, and
 * {@code test()} can say so without taking the end's lock or polling its completion queues.
 *
 * <p>The state is five 64-bit words in native memory, so the plugin's C trampolines read exactly what Java reads:
 * {@code arrivals} (completions produced, counted by the producing thread after each is pollable), {@code seen}
 * (the arrivals the end had counted before its last drain), {@code drive} (non-zero while the end must run
 * whatever happens: {@link #DRIVE_PROGRESS} for its own progress, {@link #DRIVE_HOST_POLLS} while the host's calls
 * step the engine), {@code starved} (non-zero while a send end had no advertised receive left at its last look, so
 * a new send can only be told "retry") and {@code park} (the address of the engine's {@link
 * io.xdlink.rails.ParkedRead}, or 0). Quiet means {@code arrivals == seen && drive == 0}; a quiet, starved end stays
 * starved, since an advertisement reaches it only as a completion. Blocks come from a pool in the global arena and
 * are reused, never unmapped, so a host that tests a request after closing its comm reads stale words, never freed
 * memory.
 */
public final class Attention {
    /** Bytes of one block: arrivals, seen, drive, starved, park. */
    public static final long BYTES = 5 * JAVA_LONG.byteSize();
    /** Offsets of the words in a block, as ccl_bridge.h's {@code xdl_attention_t} lays them out. */
    public static final long ARRIVALS = 0;
    public static final long SEEN = 8;
    public static final long DRIVE = 16;
    public static final long STARVED = 24;
    public static final long PARK = 32;
    /** Bits of the drive word: the end's own progress needs its owner; the host's calls step the engine. */
    public static final long DRIVE_PROGRESS = 1;
    public static final long DRIVE_HOST_POLLS = 2;
    private static final int SLAB_BLOCKS = 256;
    private static final VarHandle WORD = JAVA_LONG.varHandle();
    private static final ConcurrentLinkedQueue<MemorySegment> FREE = new ConcurrentLinkedQueue<>();

    private final MemorySegment words;
    private volatile boolean released;

    /** A block for one end, not quiet until the end's first look is settled. */
    Attention() {
        MemorySegment block = FREE.poll();
        this.words = block != null ? block : allocateSlab();
        long now = (long) WORD.getVolatile(words, ARRIVALS);
        WORD.setVolatile(words, DRIVE, 0L);
        WORD.setVolatile(words, STARVED, 0L);
        WORD.setVolatile(words, PARK, 0L);
        WORD.setVolatile(words, SEEN, now - 1);
    }

    /**
     * Where the end's engine leaves its rail's next read for a host's look ({@link io.xdlink.rails.ParkedRead}), or 0:
     * while the end is driven only because the host polls and nothing arrived since its last look, a host's
     * {@code test()} may make that read itself and answer "not done" when it finds nothing.
     */
    void park(long address) {
        WORD.setRelease(words, PARK, address);
    }

    private static MemorySegment allocateSlab() {
        MemorySegment slab = Arena.global().allocate(BYTES * SLAB_BLOCKS, 64);
        for (int i = 1; i < SLAB_BLOCKS; i++) {
            FREE.add(slab.asSlice(i * BYTES, BYTES));
        }
        return slab.asSlice(0, BYTES);
    }

    /** Counts one completion that has become pollable; any thread, lock-free. */
    void arrived() {
        WORD.getAndAdd(words, ARRIVALS, 1L);
    }

    /**
     * Counts one completion that the end drained before counting it: called under the end's lock, right after a
     * drain that the completion's own listener ran (so the completion was pollable, and taken, by then). If nothing
     * else was counted since that drain's look, the completion was part of it and the end stays quiet; otherwise the
     * end is left not quiet, as {@link #arrived()} leaves it. A reader never sees the end not quiet for a completion
     * that is already taken in, so a host polling test() meanwhile is answered without Java.
     */
    void arrivedDrained() {
        long seen = (long) WORD.getAcquire(words, SEEN);
        long before = (long) WORD.getAndAdd(words, ARRIVALS, 1L);
        if (before == seen && !released) {
            WORD.compareAndSet(words, SEEN, seen, before + 1);
        }
    }

    /** The arrivals so far: read before draining, then handed to {@link #settle}. */
    long arrivals() {
        return (long) WORD.getVolatile(words, ARRIVALS);
    }

    /**
     * Records that every completion up to {@code arrivals} was drained and whether the end must still be driven: for
     * its own progress ({@code progress}), or because the host's calls step the engine ({@code hostPolls}), which a
     * host's look outside Java may stand in for. Called under the end's lock, after the requests those completions
     * finished were marked finished.
     */
    void settle(long arrivals, boolean progress, boolean hostPolls) {
        if (released) {
            return;
        }
        WORD.setRelease(words, DRIVE, (progress ? DRIVE_PROGRESS : 0L) | (hostPolls ? DRIVE_HOST_POLLS : 0L));
        WORD.setRelease(words, SEEN, arrivals);
    }

    /**
     * Marks the end as one that must be driven for its own progress until its next {@link #settle}: a host's look
     * then enters Java instead of being answered outside it. Called under the end's lock.
     */
    void drive() {
        if (released) {
            return;
        }
        WORD.getAndBitwiseOrRelease(words, DRIVE, DRIVE_PROGRESS);
    }

    /**
     * Says whether the end had nothing for a new post at its look that is being settled. Called under the end's
     * lock, before {@link #settle} publishes that look (so a reader that sees the new {@code seen} sees this too),
     * or after a post used up the last thing a settled look found: a completion since then makes the end not quiet.
     */
    void starved(boolean starved) {
        if (released) {
            return;
        }
        WORD.setRelease(words, STARVED, starved ? 1L : 0L);
    }

    /** True while the end is quiet and was starved at its last look: a new send would be told to retry. */
    boolean surelyStarved() {
        return quiet() && (long) WORD.getAcquire(words, STARVED) != 0L;
    }

    /** True while nothing new can have happened to the end's requests since its last look. */
    boolean quiet() {
        return (long) WORD.getAcquire(words, ARRIVALS) == (long) WORD.getAcquire(words, SEEN)
                && (long) WORD.getAcquire(words, DRIVE) == 0L;
    }

    /** Where the words are, for native readers. */
    public long address() {
        return words.address();
    }

    /** Hands the block back to the pool, made non-quiet so a stale reader drives the end instead of trusting it. */
    void release() {
        if (released) {
            return;
        }
        released = true;
        WORD.setRelease(words, DRIVE, DRIVE_PROGRESS);
        WORD.setRelease(words, STARVED, 0L);
        WORD.setRelease(words, PARK, 0L);
        FREE.add(words);
    }
}
