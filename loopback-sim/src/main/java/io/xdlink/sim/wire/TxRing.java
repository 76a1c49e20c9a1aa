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

    /** A frame that leaves the wire at {@code leaves} takes an entry; only after {@link #hasRoom} said yes. */
    void add(long leaves) {
        leavesAt[(first + queued) % leavesAt.length] = leaves;
        queued++;
    }
}
