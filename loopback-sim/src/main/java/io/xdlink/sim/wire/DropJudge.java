package io.xdlink.sim.wire;

/**
 * Without end-to-end flow control the sender never waits for the receiver, and a frame that finds the receive ring
 * full when it arrives is dropped, as it is on AMD hosts. The receiver judges that when it polls: since it consumed
 * nothing between two polls, a frame that arrived in between found exactly the frames accepted before it still in
 * the ring. Receiver's thread only.
 *
 * <p>Apart from the channel because it is the receive ring's rule, not the wire's or the fault plan's, and it keeps
 * its own count of frames accepted and not yet taken.
 */
final class DropJudge {
    private final int rxRingFrames;
    /** Entries judged so far. */
    private long judged;
    /** Frames accepted into the receive ring and not yet taken. */
    private int acceptedWaiting;
    private long dropped;

    DropJudge(int rxRingFrames) {
        this.rxRingFrames = rxRingFrames;
    }

    /**
     * Judges the entries of {@code ring} from {@code head} to {@code available} that have arrived by {@code now}:
     * each one that found {@code rxRingFrames} frames waiting is marked dropped.
     */
    void judge(EntryRing ring, long head, long available, long now) {
        long j = Math.max(judged, head);
        int waiting = acceptedWaiting;
        while (j < available) {
            int p = ring.index(j);
            if (ring.arrival(p) > now) {
                break;
            }
            if (waiting >= rxRingFrames) {
                ring.drop(p);
                dropped++;
            } else {
                waiting++;
            }
            j++;
        }
        judged = j;
        acceptedWaiting = waiting;
    }

    /** An accepted frame was taken from the receive ring. */
    void taken() {
        acceptedWaiting--;
    }

    /** Frames dropped because the receive ring was full. */
    long dropped() {
        return dropped;
    }
}
