package io.xdlink.rails.verbs;

/**
 * When a device's rails keeper ({@link FabricRails}) reads its fabric again. Reading a real host's fabric lists the
 * thunderbolt links under sysfs, reads their attributes and reconciles the host's listeners; in the two-host lab that
 * took 0.2-1.4 ms of a processor, woke a thread that preempted the host thread moving the data (on two processors
 * the bench's sending thread then waited up to 10 ms for one), and kept the compilers busy with the reading code
 * seconds into a run. So a read that finds every rail open doubles the wait before the next, up to
 * {@link #MAX_NANOS}, and one that finds a rail missing goes back to {@link #FIRST_NANOS}. A rail whose transport
 * closed needs no read to be noticed (the keeper looks at its open rails every {@link #FIRST_NANOS}) and makes the
 * next read due at once, so only a link that appears while everything is up waits for the longer interval.
 */
final class ScanCadence {
    /** The wait after a read that found a rail to open, and the keeper's look at its open rails. */
    static final long FIRST_NANOS = 200_000_000L;
    /** The longest wait between two reads while every rail stays open. */
    static final long MAX_NANOS = 3_200_000_000L;

    private long interval = FIRST_NANOS;
    private long next;
    private boolean read;

    /** Whether a read is due at {@code now}: the first, one whose wait ran out, or any after a rail closed. */
    boolean due(long now, boolean railClosed) {
        return !read || railClosed || now - next >= 0;
    }

    /** A read ended at {@code now}; {@code settled} when every rail it listed was open. */
    void read(long now, boolean settled) {
        interval = settled ? Math.min(interval * 2, MAX_NANOS) : FIRST_NANOS;
        next = now + interval;
        read = true;
    }

    /** The wait before the next read, as the last one set it. */
    long interval() {
        return interval;
    }
}
