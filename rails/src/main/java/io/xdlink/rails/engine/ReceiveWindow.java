package io.xdlink.rails.engine;

/**
 * A rail's receiving side: the position (one past the highest sequence seen, gaps included, so a lost frame refunds
 * its own credit), a 64-bit map of which of the last 64 sequences arrived, and how much of that the peer has been
 * told. Frames this rail sends and ACKs on any rail carry the position; a position left untold for a while is
 * stale, and a CREDIT then carries it ({@link Rail}). Engine thread only.
 */
final class ReceiveWindow {
    /** What {@link #book} made of a sequence. */
    static final int NEW = 0;
    static final int LATE = 1;
    static final int DUPLICATE = 2;
    static final int OUT_OF_WINDOW = 3;

    /** Sequences the peer may send beyond the position: the window this rail announced in its HELLO. */
    private final int size;
    private int position;
    private long map;
    private int advertised;
    private long staleSince = Long.MAX_VALUE;

    ReceiveWindow(int size) {
        this.size = size;
    }

    int position() {
        return position;
    }

    long map() {
        return map;
    }

    /** The credit position this side grants: the peer may send below it. */
    int credit() {
        return position + size;
    }

    /** Whether {@code seq} is the very sequence expected next. */
    boolean expectsNext(int seq) {
        return seq == position && size > 0;
    }

    /** Books a sequenced frame's arrival: {@link #NEW}, {@link #LATE}, {@link #DUPLICATE} or {@link #OUT_OF_WINDOW}. */
    int book(int seq) {
        int d = seq - position;
        if (d >= 0) {
            if (d >= size) {
                return OUT_OF_WINDOW;
            }
            map = d >= 63 ? 1 : (map << (d + 1)) | 1;
            position = seq + 1;
            return NEW;
        }
        int k = -d - 1;
        if (k < 64) {
            long bit = 1L << k;
            if ((map & bit) != 0) {
                return DUPLICATE;
            }
            map |= bit;
        }
        return LATE;
    }

    /** Books {@code n} frames that came in order from the very sequence expected next, as {@code n} books would. */
    void acceptRun(int n) {
        map = n >= 64 ? -1L : (map << n) | ((1L << n) - 1);
        position += n;
    }

    /**
     * The peer's next sequence, from a CREDIT: sequences below it that never came are given up (their credit
     * refunded). Returns true when the position moved.
     */
    boolean skipTo(int next) {
        int d = next - position;
        if (d > 0 && d <= size) {
            map = d >= 64 ? 0 : map << d;
            position = next;
            return true;
        }
        return false;
    }

    /** The position moved without the peer being told; returns true when it has only just become stale. */
    boolean markStale(long now) {
        if (staleSince == Long.MAX_VALUE) {
            staleSince = now;
            return true;
        }
        return false;
    }

    /** Half the window or more is consumed and untold: worth a CREDIT of its own soon. */
    boolean halfUntold() {
        return position - advertised >= size / 2;
    }

    /** Since when the position has been stale, or {@link Long#MAX_VALUE}. */
    long staleSince() {
        return staleSince;
    }

    /** A frame carrying the position went out: the peer's view is exact again. */
    void advertised() {
        advertised = position;
        staleSince = Long.MAX_VALUE;
    }

    /** A new epoch: nothing seen yet. */
    void reset() {
        position = 0;
        map = 0;
        advertised = 0;
        staleSince = Long.MAX_VALUE;
    }
}
