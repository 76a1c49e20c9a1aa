package io.xdlink.sim.wire;

import io.xdlink.rails.RailTransport;
import io.xdlink.sim.fault.FrameFaults;

import java.lang.foreign.MemorySegment;

/**
 * A channel where something happens to a frame on the way: the wire paces it, the fault plan may lose, hold back,
 * duplicate or damage it ({@link FaultStage}), or, without end-to-end flow control, it may find the receive ring
 * full and be dropped ({@link DropJudge}). Each frame is stamped with the moment it reaches the receiver, and the
 * receiver takes it no sooner.
 *
 * <p>What the sender may do depends on the ring's flow control:
 * <ul>
 *   <li>End-to-end flow control on: a frame is sent only when the receiver's ring has a free entry for it, so
 *   nothing is ever dropped; an offer refuses instead.</li>
 *   <li>Off: the sender never waits for the receiver, and the receiver's drop judge decides, as frames arrive,
 *   which found its ring full.</li>
 * </ul>
 * Either way a TX ring is finite: a rail holds at most {@code txRingFrames} frames that have not yet left the wire,
 * and the wire serves the rails' frames first come first served, so rails on one cable take turns.
 */
final class ShapedChannel extends FrameChannel {
    private final TokenBucket bucket;
    private final TxRing txRing;
    /** Paced by the wall clock, where a wake must be scheduled rather than virtual time stopped. */
    private final boolean realTime;
    private final boolean e2e;
    private final int rxRingFrames;
    private final FaultStage faults;
    /** Null with end-to-end flow control, where nothing is dropped at the receiver. */
    private final DropJudge judge;
    private long overflowAtSend;

    ShapedChannel(Wire wire, Waker waker, FrameFaults faults, boolean e2e, int txRingFrames, int rxRingFrames) {
        // Room for a duplicate and a held frame beyond what the rings hold. Without end-to-end flow control the
        // frames in flight are those in both rings, TX and RX.
        super(wire, waker, e2e ? rxRingFrames + 2 : rxRingFrames + txRingFrames + 2);
        this.bucket = wire.bucket();
        this.realTime = bucket != null && !wire.clock().isVirtual();
        this.e2e = e2e;
        this.rxRingFrames = rxRingFrames;
        this.txRing = new TxRing(txRingFrames);
        this.faults = new FaultStage(faults, ring, wakes);
        this.judge = e2e ? null : new DropJudge(rxRingFrames);
    }

    @Override
    boolean send(int headLength, MemorySegment frame, RailTransport.FrameWriter writer, MemorySegment payload,
                 long payloadOffset, int payloadLength) {
        int length = headLength + payloadLength;
        checkSendable();
        long reserved = ring.tail() + faults.held();
        long consumed = ring.headSeen();
        if (reserved + 2 - consumed > (e2e ? rxRingFrames : ring.capacity)) {
            // Looks full from what we last saw: look again at how far the receiver got.
            consumed = ring.refreshHeadSeen();
        }
        if (e2e && reserved - consumed >= rxRingFrames) {
            wakes.senderRefused();
            return false;
        }
        // Unpaced, a frame has arrived the moment it is sent, and reading the clock (100 ns on a virtual machine)
        // would cost more than the rest of the path: only fault holding needs the time then.
        long now = bucket == null && !faults.holds() ? 0 : wire.clock().now();
        long arrival;
        if (bucket == null) {
            arrival = Long.MIN_VALUE;
        } else {
            if (!txRing.hasRoom(now)) {
                wakes.stopAt(txRing.nextRoomAt());
                refusedByTxRing(now);
                return false;
            }
            long leaves = bucket.reserve(length, now);
            txRing.add(leaves);
            arrival = leaves + wire.latencyNanos();
        }
        sent++;
        int fate = faults.draw();
        if (FaultStage.lost(fate)) {
            return true;
        }
        if (reserved + FaultStage.entries(fate) - consumed > ring.capacity) {
            // Only possible without end-to-end flow control: the receiver is so far behind that both rings are
            // full, so this frame would find the RX ring full too.
            overflowAtSend++;
            return true;
        }
        // In real time a frame due later is the business of the wake scheduled for it below: waking the receiver now
        // would only show it a frame it cannot take yet, once per frame.
        boolean wakeNow = !realTime || arrival - now < Waker.REAL_WAKE_AHEAD_NANOS;
        faults.place(fate, frame, writer, headLength, payload, payloadOffset, payloadLength, arrival, now, wakeNow);
        if (arrival != Long.MIN_VALUE) {
            // Unpaced, a frame is there as soon as it is published: no time to stop at, no wake to schedule.
            wakes.sentFrameDueAt(arrival, now);
        }
        return true;
    }

    /**
     * The TX ring is full (sender's thread). Room comes back as frames leave the wire, whatever the receiver does.
     * In real time the sender is woken once half the ring has drained, so it refills it in one go, as a driver
     * does on a moderated TX-completion interrupt, rather than once per frame that leaves; when that is too soon
     * for a scheduled wake, the receiver wakes it as it takes frames.
     */
    private void refusedByTxRing(long now) {
        if (realTime) {
            long at = txRing.roomAt(txRing.size() / 2, now);
            if (at - now >= Waker.REAL_WAKE_AHEAD_NANOS) {
                wakes.roomAt(at, now);
                return;
            }
        }
        wakes.senderRefused();
    }

    @Override
    public int flush() {
        return faults.flush(wire.clock());
    }

    @Override
    int take(RailTransport.FrameReceiver receiver, int limit, boolean closedBefore, long available) {
        long now = bucket == null ? Long.MAX_VALUE : wire.clock().now();
        long h = ring.head();
        if (judge != null) {
            judge.judge(ring, h, available, now);
        }
        int handed = 0;
        int p = ring.index(h);
        try {
            while (handed < limit && h < available) {
                long arrival = ring.arrival(p);
                if (arrival > now) {
                    wakes.nextFrameDueAt(arrival, now);
                    break;
                }
                int shape = ring.shape(p);
                int at = p;
                h++;
                if (++p == ring.capacity) {
                    p = 0;
                }
                if ((shape & EntryRing.DROPPED) == 0) {
                    if (judge != null) {
                        judge.taken();
                    }
                    delivered++;
                    handed++;
                    ring.hand(at, shape, receiver, false);
                } else {
                    ring.forget(at);
                }
            }
        } finally {
            ring.consumed(h);
        }
        return handedOver(handed, closedBefore && h == available);
    }

    @Override
    public void closeSender() {
        faults.releaseHeld();
        super.closeSender();
    }

    @Override
    public ChannelStats stats() {
        return faults.stats(sent, overflowAtSend + (judge == null ? 0 : judge.dropped()), delivered);
    }
}
