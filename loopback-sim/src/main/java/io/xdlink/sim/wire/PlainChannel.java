package io.xdlink.sim.wire;

import io.xdlink.rails.RailTransport;

import java.lang.foreign.MemorySegment;

/**
 * A channel where nothing happens to a frame on the way: the clock does not pace, the fault plan draws nothing and
 * end-to-end flow control is on. A frame arrives the moment it is published and exactly as sent (no loss, no
 * holding, no copy, no damage, no wire time), so sending is finding room in the receiver's ring, filling the entry
 * and publishing it, and taking is handing entries over in order. Each entry keeps the slot of its own index, since
 * nothing is ever reordered.
 *
 * <p>An unpaced benchmark's every frame goes this way, so it is kept short enough to be compiled into its callers
 * and allocates nothing: a data frame's head is written into the compact head area by the engine's own writer, and
 * a run of them is placed and published at once.
 */
final class PlainChannel extends FrameChannel {
    private final int rxRingFrames;

    PlainChannel(Wire wire, Waker waker, int rxRingFrames) {
        // Two entries to spare, as the shaped channel keeps for a duplicate and a held frame: the ring is the same.
        super(wire, waker, rxRingFrames + 2);
        this.rxRingFrames = rxRingFrames;
    }

    @Override
    boolean send(int headLength, MemorySegment frame, RailTransport.FrameWriter writer, MemorySegment payload,
                 long payloadOffset, int payloadLength) {
        checkSendable();
        long reserved = ring.tail();
        if (reserved - ring.headSeen() >= rxRingFrames) {
            // Looks full from what we last saw: look again at how far the receiver got.
            if (reserved - ring.refreshHeadSeen() >= rxRingFrames) {
                wakes.senderRefused();
                return false;
            }
        }
        sent++;
        int p = ring.tailIndex();
        if (writer != null && payload != null && headLength <= EntryRing.HEAD_BYTES) {
            ring.putHead(p, writer, headLength, payload, payloadOffset, payloadLength);
        } else {
            ring.write(p, frame, writer, headLength, payload, payloadOffset, payloadLength, Long.MIN_VALUE, false);
        }
        publish(reserved + 1, true);
        return true;
    }

    @Override
    public boolean takesRuns(int headLength) {
        return headLength <= EntryRing.HEAD_BYTES;
    }

    @Override
    public int offerRun(int headLength, RailTransport.FrameRun run, MemorySegment payload, int count) {
        if (!takesRuns(headLength)) {
            return super.offerRun(headLength, run, payload, count);
        }
        checkSendable();
        long reserved = ring.tail();
        long room = rxRingFrames - (reserved - ring.headSeen());
        if (room < count) {
            room = rxRingFrames - (reserved - ring.refreshHeadSeen());
        }
        int n = (int) Math.min(count, Math.max(0, room));
        if (n < count) {
            wakes.senderRefused();
        }
        int p = ring.tailIndex();
        int taken = 0;
        while (taken < n && run.frame(taken)) {
            int payloadLength = run.payloadLength();
            if (payloadLength <= 0 || headLength + payloadLength > RailTransport.MAX_FRAME_BYTES) {
                throw new IllegalArgumentException("frame " + taken + " of a run: head " + headLength + " and payload "
                        + payloadLength + " are not a frame of 1.." + RailTransport.MAX_FRAME_BYTES + " bytes");
            }
            ring.putHead(p, run, headLength, payload, run.payloadOffset(), payloadLength);
            if (++p == ring.capacity) {
                p = 0;
            }
            taken++;
        }
        if (taken > 0) {
            sent += taken;
            publish(reserved + taken, true);
        }
        return taken;
    }

    /**
     * Every published entry has arrived (no pacing), none was dropped (end-to-end flow control) and each lies at its
     * own index's slot (nothing is held back and reordered), so only the entry's shape and payload are read.
     */
    @Override
    int take(RailTransport.FrameReceiver receiver, int limit, boolean closedBefore, long available) {
        long h = ring.head();
        int p = ring.index(h);
        int handed = 0;
        int n = (int) Math.min(limit, available - h);
        try {
            while (handed < n) {
                int at = p;
                if (++p == ring.capacity) {
                    p = 0;
                }
                h++;
                handed++;
                ring.hand(at, ring.shape(at), receiver, true);
            }
        } finally {
            delivered += handed;
            ring.consumed(h);
        }
        return handedOver(handed, closedBefore && h == available);
    }

    @Override
    public ChannelStats stats() {
        return new ChannelStats(sent, 0, 0, 0, 0, 0, delivered);
    }
}
