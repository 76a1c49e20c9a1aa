package io.xdlink.rails;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A rail's next read, left for a host's own thread to make outside Java while the engine has nothing else to do: the
 * socket's descriptor, where in the rail's buffer the bytes go and how many it takes, and until when the engine needs
 * nothing but that read. A host polling for a request that is not done then pays the system call a socket transport
 * pays, not the upcall, the engine's duty cycle and the channel around it (in the two-host lab a look that found
 * nothing cost the plugin 2.4 us against a C {@code recv}'s 1.3). What such a read brings is handed to the rail as
 * if it had read it itself, at its next poll.
 *
 * <p>The block lives in native memory so that C reads exactly what Java wrote, and in the global arena: a host may
 * look through a stale pointer after its device closed, and must then read mapped memory, never freed memory.
 * Its {@code state} word orders everything: {@link #IDLE} (Java reads the rail itself), {@link #ARMED} (the reader may
 * make the read), {@link #BUSY} (a reader is making it: Java waits, since two reads of one stream may not interleave),
 * {@link #FILLED} (a read brought bytes, or failed: Java takes them, or reads again to learn why). Only the arming
 * rail writes the other words, and only while the state is {@link #IDLE}; a reader reads them after it took the state
 * from {@link #ARMED} to {@link #BUSY}, and gives it back as {@link #ARMED} when the socket had nothing, so a rail that
 * closes first waits out a read under way ({@link #drop}) and the descriptor is never read after it was closed.
 *
 * <p>Layout (128 bytes, ccl_bridge.h's {@code xdl_park_t}), the first cache line: state (int), descriptor (int), address (long), room
 * (long), deadline on {@link System#nanoTime()}'s clock, Linux's {@code CLOCK_MONOTONIC} (long), bytes the last read
 * brought or -1 when it failed (long), two counts of the reader's own: reads that found nothing, and reads that
 * brought bytes or failed, and how long a reader's looks must have found nothing before one waits on the socket
 * until bytes come or the deadline, nanoseconds, 0 when none waits (long, written once, before the block is armed).
 *
 * <p>The second cache line is the watch of an engine that reads several rails, so parks no read: the sockets a host
 * thread whose looks found nothing may wait on, without reading them, until the engine's next timer ({@link #watch}).
 * Its words: a version (long, odd while a writer writes the others), the deadline (long, 0: no watch), how many
 * sockets (int) and their descriptors ({@link #WATCH_FDS} ints). A reader that finds the version odd, or changed
 * after it read the words, waits on nothing; since the wait only polls, a descriptor closed or reused meanwhile costs
 * at most a wake-up too early or a wait until the deadline, never a byte.
 */
public final class ParkedRead {
    /** Bytes of the block: the parked read's cache line, then the watch's. */
    public static final long BYTES = 128;
    /** Offsets of the block's words, as ccl_bridge.h's {@code xdl_park_t} lays them out. */
    public static final long STATE = 0;
    public static final long DESCRIPTOR = 4;
    public static final long ADDRESS = 8;
    public static final long ROOM = 16;
    public static final long DEADLINE = 24;
    public static final long FILLED_BYTES = 32;
    public static final long EMPTY_READS = 40;
    public static final long FILLING_READS = 48;
    public static final long WAIT_AFTER = 56;
    public static final long WATCH_VERSION = 64;
    public static final long WATCH_DEADLINE = 72;
    public static final long WATCH_COUNT = 80;
    public static final long WATCH_DESCRIPTORS = 84;
    /** The most sockets a watch names. */
    public static final int WATCH_FDS = 8;
    /** Values of the state word. */
    public static final int IDLE = 0;
    public static final int ARMED = 1;
    public static final int BUSY = 2;
    public static final int FILLED = 3;
    /** What {@link #claim} returns when nothing was read for the rail since it armed the block. */
    public static final int NOTHING = 0;
    /** What {@link #claim} returns when the reader's read failed or found the stream's end: read again to learn. */
    public static final int FAILED = -1;

    private static final VarHandle INT = JAVA_INT.varHandle();
    private static final VarHandle LONG = JAVA_LONG.varHandle();
    /** Spins on a read under way before yielding: a read that finds its bytes waiting takes a few microseconds. */
    private static final int SPINS = 1_000;

    private final MemorySegment block = Arena.global().allocate(BYTES, 64);
    /** The rail that armed the block last, or null; only its claims and drops touch the state. */
    private volatile Object owner;

    /** A block whose readers never wait on the socket. */
    public ParkedRead() {
        this(0);
    }

    /**
     * A block whose readers wait on the socket, up to its deadline, once their looks have found nothing for
     * {@code waitAfterNanos} (0: never): a thread that waits gives its processor back, as a blocking socket does.
     */
    public ParkedRead(long waitAfterNanos) {
        if (waitAfterNanos < 0) {
            throw new IllegalArgumentException("a parked read's wait cannot begin after a negative time: "
                    + waitAfterNanos);
        }
        LONG.setRelease(block, WAIT_AFTER, waitAfterNanos);
    }

    /** Where the block is, for native readers. */
    public long address() {
        return block.address();
    }

    /**
     * Arms the block for {@code rail}: the next read of descriptor {@code fd} goes to {@code address}, at most
     * {@code room} bytes, and may be made until {@code deadline} ({@link System#nanoTime()}). Only while the block is
     * {@link #IDLE}: a rail claims or drops it before it reads or closes.
     *
     * @return whether the block is now armed
     */
    public boolean arm(Object rail, int fd, long address, int room, long deadline) {
        if (room <= 0 || fd < 0 || (int) INT.getVolatile(block, STATE) != IDLE) {
            return false;
        }
        owner = rail;
        INT.set(block, DESCRIPTOR, fd);
        LONG.set(block, ADDRESS, address);
        LONG.set(block, ROOM, (long) room);
        LONG.set(block, DEADLINE, deadline);
        return INT.compareAndSet(block, STATE, IDLE, ARMED);
    }

    /**
     * For {@code rail}, about to read: takes the block back, waiting out a read under way. Returns the bytes a read
     * brought into the armed place since ({@code > 0}), {@link #NOTHING}, or {@link #FAILED}. A block another rail
     * armed is left alone.
     */
    public int claim(Object rail) {
        if (owner != rail) {
            return NOTHING;
        }
        for (int spins = 0; ; spins++) {
            int s = (int) INT.getVolatile(block, STATE);
            switch (s) {
                case IDLE:
                    return NOTHING;
                case ARMED:
                    if (INT.compareAndSet(block, STATE, ARMED, IDLE)) {
                        return NOTHING;
                    }
                    break;
                case FILLED: {
                    long n = (long) LONG.getAcquire(block, FILLED_BYTES);
                    INT.setVolatile(block, STATE, IDLE);
                    return n > 0 ? (int) n : FAILED;
                }
                default:
                    pause(spins);
            }
        }
    }

    /**
     * Disarms the block so the next look runs the engine (work was posted that only a duty cycle sends), waiting out
     * a read under way; bytes a read brought stay for the rail's next claim. Any thread.
     */
    public void revoke() {
        for (int spins = 0; ; spins++) {
            int s = (int) INT.getVolatile(block, STATE);
            if (s == ARMED) {
                if (INT.compareAndSet(block, STATE, ARMED, IDLE)) {
                    return;
                }
            } else if (s == BUSY) {
                pause(spins);
            } else {
                return;
            }
        }
    }

    /**
     * For {@code rail}, about to close its socket: disarms the block for good, waiting out a read under way, and
     * forgets what a read brought. Any thread. A block another rail armed is left alone.
     */
    public void drop(Object rail) {
        if (owner != rail) {
            return;
        }
        revoke();
        INT.compareAndSet(block, STATE, FILLED, IDLE);
        owner = null;
    }

    /**
     * Names the sockets {@code fds[0..count)} for a host thread whose looks found nothing to wait on until
     * {@code deadline} ({@link System#nanoTime()}): an engine reading several rails, with nothing to send, calls it
     * at the end of a duty cycle, and {@link #unwatch} at the end of one that cannot.
     *
     * @throws IllegalArgumentException when count is not 1..{@link #WATCH_FDS} or a descriptor is negative
     */
    public void watch(int[] fds, int count, long deadline) {
        if (count < 1 || count > WATCH_FDS || count > fds.length) {
            throw new IllegalArgumentException("a watch names 1 to " + WATCH_FDS + " sockets, not " + count);
        }
        for (int i = 0; i < count; i++) {
            if (fds[i] < 0) {
                throw new IllegalArgumentException("a watch cannot name descriptor " + fds[i]);
            }
        }
        long version = beginWatchWrite();
        LONG.set(block, WATCH_DEADLINE, deadline);
        INT.set(block, WATCH_COUNT, count);
        for (int i = 0; i < count; i++) {
            INT.set(block, WATCH_DESCRIPTORS + 4L * i, fds[i]);
        }
        LONG.setRelease(block, WATCH_VERSION, version + 2);
    }

    /** Takes the watch back: a host's look waits on no socket until the next {@link #watch}. Any thread. */
    public void unwatch() {
        if ((long) LONG.getVolatile(block, WATCH_DEADLINE) == 0) {
            return;
        }
        long version = beginWatchWrite();
        LONG.set(block, WATCH_DEADLINE, 0L);
        INT.set(block, WATCH_COUNT, 0);
        LONG.setRelease(block, WATCH_VERSION, version + 2);
    }

    /** Whether a watch is up (tests and diagnosis). */
    public boolean watching() {
        return (long) LONG.getVolatile(block, WATCH_DEADLINE) != 0;
    }

    /** Makes the watch's version odd for this writer, waiting out another's write; returns the even one it had. */
    private long beginWatchWrite() {
        for (int spins = 0; ; spins++) {
            long v = (long) LONG.getVolatile(block, WATCH_VERSION);
            if ((v & 1) == 0 && LONG.compareAndSet(block, WATCH_VERSION, v, v + 1)) {
                // The words written next must not become visible before the odd version.
                VarHandle.storeStoreFence();
                return v;
            }
            pause(spins);
        }
    }

    /** How long a reader's looks find nothing before one waits on the socket; 0 when none waits. */
    public long waitAfterNanos() {
        return (long) LONG.getAcquire(block, WAIT_AFTER);
    }

    /** The block's state word, for tests and diagnosis. */
    public int state() {
        return (int) INT.getVolatile(block, STATE);
    }

    /** Reads made outside Java that found nothing, so far. */
    public long emptyReads() {
        return (long) LONG.getVolatile(block, EMPTY_READS);
    }

    /** Reads made outside Java that brought bytes or failed, so far. */
    public long fillingReads() {
        return (long) LONG.getVolatile(block, FILLING_READS);
    }

    /** The block itself, for a reader in Java (tests). */
    public MemorySegment block() {
        return block;
    }

    private static void pause(int spins) {
        if (spins < SPINS) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }
}
