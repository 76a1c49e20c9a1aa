package io.xdlink.sim.wire;

/**
 * The entries of one rail's TX ring that still hold a frame: each frame stays until its last bit has left the wire,
 * so a rail can run ahead of its cable by at most the ring's size. Sender's thread only.
 */
final class TxRing {
    private final long[] leavesAt;
    private int first;
    private int queued;

    TxRing(int frames) {
        leavesAt = new long[frames];
    }

    /** Forgets frames that have left by {@code now}; true when an entry is free. */
    boolean hasRoom(long now) {
        while (queued > 0 && leavesAt[first] <= now) {
            first = first + 1 == leavesAt.length ? 0 : first + 1;
            queued--;
        }
        return queued < leavesAt.length;
    }

    /** When the oldest frame leaves, freeing an entry. */
    long nextRoomAt() {
        return leavesAt[first];
    }

    /** Entries in all. */
    int size() {
        return leavesAt.length;
    }

    /**
     * When at least {@code entries} entries will be free, if no frame is added meanwhile: {@code now} when they
     * already are. Call after {@link #hasRoom} so frames gone by {@code now} are forgotten.
     */
    long roomAt(int entries, long now) {
        int missing = entries - (leavesAt.length - queued);
        if (missing <= 0) {
            return now;
        }
        return leavesAt[(first + Math.min(missing, queued) - 1) % leavesAt.length];
    }

    /** A frame that leaves the wire at {@code leaves} takes an entry; only after {@link #hasRoom} said yes. */
    void add(long leaves) {
        leavesAt[(first + queued) % leavesAt.length] = leaves;
        queued++;
    }
}
