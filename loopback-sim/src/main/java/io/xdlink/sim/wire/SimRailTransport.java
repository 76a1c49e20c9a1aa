package io.xdlink.sim.wire;

import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;

import java.lang.foreign.MemorySegment;

/**
 * One host's end of a simulated rail: frames go out through one {@link FrameChannel} and come in through the other.
 * Neither direction blocks; a full ring refuses, a pulled cable or a crashed peer fails with
 * {@link RailClosedException}, and after the peer closes its end every frame it sent is still handed over before
 * {@code poll} reports the close.
 */
public final class SimRailTransport implements RailTransport {
    private final RailInfo info;
    private final FrameChannel out;
    private final FrameChannel in;
    private final Runnable onClose;
    private volatile boolean closed;

    SimRailTransport(RailInfo info, FrameChannel out, FrameChannel in, Runnable onClose) {
        this.info = info;
        this.out = out;
        this.in = in;
        this.onClose = onClose;
    }

    @Override
    public RailInfo info() {
        return info;
    }

    /** Builds the frame in place in the simulated TX ring slot: the only copy between the sender and the wire. */
    @Override
    public boolean offer(int length, FrameWriter writer) {
        if (closed) {
            throw new RailClosedException(info.name() + " is closed");
        }
        if (length < 1 || length > MAX_FRAME_BYTES) {
            throw new IllegalArgumentException(info.name() + ": a frame must be 1.." + MAX_FRAME_BYTES
                    + " bytes, got " + length);
        }
        return out.offer(length, writer);
    }

    /**
     * Data payloads travel by reference: the simulated TX descriptor points at the sender's registered memory, so
     * the only copy of a payload is the receiver's, into its target, as with a zero-copy send. An unpaced,
     * fault-free channel puts a run's heads into consecutive ring slots, each beside a reference to its payload, and
     * publishes them at once; any other (and a run of one) takes the run frame by frame, so each frame meets its
     * fate (pacing, faults) as a single frame.
     */
    @Override
    public int offerRun(int headLength, FrameRun run, MemorySegment payload, int count) {
        if (closed) {
            throw new RailClosedException(info.name() + " is closed");
        }
        if (headLength < 5 || headLength >= MAX_FRAME_BYTES || payload == null) {
            throw new IllegalArgumentException(info.name() + ": a run's frames need a head of 5.." + (MAX_FRAME_BYTES - 1)
                    + " bytes and a payload, got head " + headLength + (payload == null ? " and no payload" : ""));
        }
        if (count > 1 && out.takesRuns(headLength)) {
            return out.offerRun(headLength, run, payload, count);
        }
        int sent = 0;
        while (sent < count && run.frame(sent)) {
            int payloadLength = run.payloadLength();
            if (payloadLength < 1 || headLength + payloadLength > MAX_FRAME_BYTES) {
                throw new IllegalArgumentException(info.name() + ": a frame must be 1.." + MAX_FRAME_BYTES
                        + " bytes, got head " + headLength + " and payload " + payloadLength);
            }
            if (!out.offer(headLength, run, payload, run.payloadOffset(), payloadLength)) {
                break;
            }
            sent++;
        }
        return sent;
    }

    @Override
    public int poll(FrameReceiver receiver, int limit) {
        if (closed) {
            throw new RailClosedException(info.name() + " is closed");
        }
        if (limit < 0) {
            throw new IllegalArgumentException(info.name() + ": poll limit must not be negative: " + limit);
        }
        return in.poll(receiver, limit);
    }

    @Override
    public int flush() {
        if (closed) {
            return 0;
        }
        return out.flush();
    }

    /**
     * The engine that owns this end asks to be woken: when the peer publishes frames to it, and when the peer frees
     * room in its receive ring after this end was refused. Called from the peer's thread.
     */
    @Override
    public void onArrival(Runnable wake) {
        in.wakes(wake, null);
        out.wakes(null, wake);
    }

    @Override
    public boolean isOpen() {
        return !closed && out.failure() == null && !out.receiverClosed() && !in.senderClosed();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        out.closeSender();
        in.closeReceiver();
        onClose.run();
    }

    /** Frames this end sent (its outgoing direction's counters). */
    public ChannelStats sentStats() {
        return out.stats();
    }

    /** Frames this end received (its incoming direction's counters). */
    public ChannelStats receivedStats() {
        return in.stats();
    }

    @Override
    public String toString() {
        return info.name();
    }
}
