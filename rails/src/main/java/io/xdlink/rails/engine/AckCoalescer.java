package io.xdlink.rails.engine;

import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.frame.FrameEncoder;
import io.xdlink.rails.frame.FrameLayout;
import io.xdlink.rails.frame.Opcode;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The one acknowledgement a pool owes its peer, coalesced: it speaks for every rail of the pool (position, credit
 * and map of each) and for every queue pair whose receiving half moved ({@link #dirty}), and travels on one rail.
 *
 * <p>When it goes, as measured and pinned by the duty-cycle tests: a frame asking for an ACK, or
 * {@code ack_every_frames} data frames since the last one, make it due at the start of the next duty cycle
 * ({@link #cycleStarted}); {@code 2 * ack_every_frames} frames make it due at once; fewer frames make it due when
 * {@code ack_delay} runs out. A NAK or a DISCONNECT waits behind an owed ACK ({@link #owed}) and makes it due at once
 * ({@link #dueBeforeControl}). Engine thread only.
 */
final class AckCoalescer {
    private final int everyFrames;
    private final long delayNanos;
    /**
     * How long frames that all said {@link io.xdlink.rails.frame.FrameFlags#ACK_LAZY} may wait: a quarter of the
     * retransmit timeout, so their sender never sends them again for want of it. An 8-byte ping-pong between two plugin
     * processes otherwise built, sent and took in an acknowledgement in every answer, for sends already reported done.
     */
    private final long lazyDelayNanos;
    private final EngineCounters counters;
    private final ArrayDeque<QpReceiver> dirty = new ArrayDeque<>();

    private int dataSinceAck;
    private long dueAt = Long.MAX_VALUE;
    private boolean now;
    /**
     * The sender asked for an ACK in this duty cycle. It goes out in the next cycle's send phase rather than at once,
     * so an answer the application posts in between (a ping-pong's reply, a receive's next send) shares its flush:
     * one system call and one wake-up for the peer instead of two on a rail such as TCP.
     */
    private boolean asked;
    /** The rail the last ACK went on: a DISCONNECT follows it there, so it cannot overtake it. */
    private Rail via;

    AckCoalescer(RailsSettings settings, EngineCounters counters) {
        this.counters = counters;
        this.everyFrames = settings.ackEveryFrames();
        this.delayNanos = settings.ackDelayNanos();
        this.lazyDelayNanos = Math.max(delayNanos, settings.retransmitNanos() / 4);
    }

    /**
     * A new duty cycle: an ACK asked for in the last one is due now (see {@link #asked}); unless {@code sendAsked} is
     * false (a cycle that only looks, see {@code DeviceEngine.doWorkStandingBy}), when it waits for a cycle that
     * sends it or for its delay, whichever comes first.
     */
    void cycleStarted(boolean sendAsked) {
        if (asked && sendAsked) {
            asked = false;
            now = true;
        }
    }

    /**
     * {@code frames} data frames arrived, one of them asking for an ACK at once if {@code ackRequest}. With
     * {@code lazy}, every one of them said its sender waits for nothing the ACK brings soon, and the ACK's delay is
     * the lazy one for them: frames that did not say so shorten it again.
     *
     * @return when the clock must next look at this ACK (it became due sooner), or {@link Long#MAX_VALUE}
     */
    long onData(int frames, boolean ackRequest, boolean lazy, long at) {
        dataSinceAck += frames;
        if (dataSinceAck >= 2 * everyFrames) {
            now = true;
            return Long.MAX_VALUE;
        }
        if (ackRequest || dataSinceAck >= everyFrames) {
            // Due at the next duty cycle's start, so it leaves in one write with whatever the host posts meanwhile
            // (a ping-pong's answer) instead of in a write of its own that wakes the peer once more per message:
            // a message of ack_every_frames and a little more would otherwise fill the count one frame before its
            // end. A stream still gets an ACK within each duty cycle or every 2 * ack_every_frames frames. The delay
            // below runs as well, for cycles that leave an asked ACK to a later one (those that only look, see
            // cycleStarted).
            asked = true;
        }
        long due = at + (lazy ? lazyDelayNanos : delayNanos);
        if (due < dueAt) {
            dueAt = due;
            return dueAt;
        }
        return Long.MAX_VALUE;
    }

    /** A queue pair's receiving half moved: the next ACK carries its completed message and expected packet. */
    void dirty(QpReceiver r) {
        dirty.add(r);
    }

    /** A NAK or a DISCONNECT was queued: what this side completed before it goes first, at once. */
    void dueBeforeControl() {
        if (!dirty.isEmpty()) {
            now = true;
        }
    }

    /** An ACK is owed that a NAK or a DISCONNECT must not overtake. */
    boolean owed() {
        return now || !dirty.isEmpty();
    }

    /** Whether the ACK goes at {@code at}: enough frames arrived, the sender asked, or the delay ran out. */
    boolean due(long at) {
        return now || ((dataSinceAck > 0 || !dirty.isEmpty()) && at >= dueAt);
    }

    /** Whether anything that arrived is unacknowledged, due or not. */
    boolean unacknowledged() {
        return now || dataSinceAck > 0 || !dirty.isEmpty();
    }

    /** The rail the last ACK went on, or null. */
    Rail via() {
        return via;
    }

    /** When the ACK next needs the clock: a delay that ran out makes it due. */
    long onTimer(long at) {
        if (dueAt != Long.MAX_VALUE && at >= dueAt) {
            now = true;
            return at + delayNanos;
        }
        return dueAt;
    }

    /**
     * Sends the ACK on the pool's control rail for the pool's rails that are up ({@code up}, in their shared order)
     * and as many dirty queue pairs as fit; returns 1 when it went.
     */
    int send(FrameOut out, long at, List<Rail> up) {
        Rail rail = ControlOutbox.controlRail(up);
        if (rail == null) {
            return 0;
        }
        int rails = Math.min(up.size(), FrameLayout.MAX_ACK_RAILS);
        int room = Math.min(FrameLayout.ackQpCapacity(FrameLayout.MAX_FRAME_BYTES, rails), out.aqQpn.length);
        int qps = 0;
        for (QpReceiver r : dirty) {
            if (qps == room) {
                break;
            }
            out.aqQpn[qps] = r.qp().peerQpn;
            out.aqMsn[qps] = r.completedMsn();
            out.aqPsn[qps] = r.expectedPsn();
            qps++;
        }
        out.begin(Opcode.ACK, 0, FrameEncoder.ackPayload(rails, qps));
        out.ackRails = rails;
        out.ackQps = qps;
        for (int i = 0; i < rails; i++) {
            up.get(i).ackEntry(out, i);
        }
        if (!rail.sendControl(out, at)) {
            return 0;
        }
        for (int i = 0; i < rails; i++) {
            up.get(i).advertisedInAck();
        }
        for (int j = 0; j < qps; j++) {
            dirty.poll().dirty = false;
        }
        counters.ackFramesSent++;
        via = rail;
        dataSinceAck = 0;
        asked = false;
        now = !dirty.isEmpty();
        dueAt = Long.MAX_VALUE;
        return 1;
    }
}
