package io.xdlink.sim.wire;

import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailTransport;
import io.xdlink.sim.fault.FrameFaults;

import java.lang.foreign.MemorySegment;

/**
 * One direction of one rail: the sender's TX ring, the wire, and the receiver's RX ring, as one single-producer
 * single-consumer queue of frames kept in an {@link EntryRing}. This class is what the two ends see (offer, poll,
 * close, fail, counters); what happens to a frame on the way depends on which of two channels carries it:
 * <ul>
 *   <li>a {@link PlainChannel} when nothing does: no pacing, no faults, end-to-end flow control. A frame is there
 *   the moment it is published and arrives exactly as sent, so the channel does without the clock, the fault stream
 *   and the wire, and takes a bulk transfer's run of frames at once;</li>
 *   <li>a {@link ShapedChannel} otherwise: it paces frames by the wire's rate and latency, puts them through a
 *   {@link FaultStage}, and without end-to-end flow control lets a {@link DropJudge} drop what finds the receive
 *   ring full.</li>
 * </ul>
 * Two classes rather than one with a flag so that the plain path, which carries every frame of an unpaced
 * benchmark, is short enough to compile into its callers and reads nothing it does not need.
 *
 * <p>Closing: after the sender closes, every frame it sent is still handed over before {@link #poll} reports the
 * close; after the receiver closes, the sender's next offer fails; a failure (a pulled cable, a crashed host) ends
 * both at once.
 */
public abstract sealed class FrameChannel permits PlainChannel, ShapedChannel {
    /** How long a frame held back for reordering waits for a frame to overtake it. */
    public static final long HOLD_NANOS = FaultStage.HOLD_NANOS;

    final Wire wire;
    final EntryRing ring;
    final ChannelWakes wakes;
    /** Sender's thread: frames that took wire time (every accepted offer). */
    long sent;
    /** Receiver's thread: frames handed over. */
    long delivered;
    private volatile String failure;
    private volatile boolean senderClosed;
    private volatile boolean receiverClosed;

    FrameChannel(Wire wire, Waker waker, int capacity) {
        this.wire = wire;
        this.ring = new EntryRing(capacity);
        this.wakes = new ChannelWakes(waker);
    }

    /**
     * The channel for one direction of a rail: plain when the wire does not pace, the fault stream draws nothing and
     * end-to-end flow control is on, shaped otherwise.
     *
     * @param wire         the cable direction this rail sends over, shared with the cable's other rails
     * @param waker        where virtual time must stop for this channel
     * @param faults       this direction's fault stream
     * @param e2e          end-to-end flow control on the rings
     * @param txRingFrames entries of the sender's TX ring
     * @param rxRingFrames entries of the receiver's RX ring
     */
    public static FrameChannel of(Wire wire, Waker waker, FrameFaults faults, boolean e2e, int txRingFrames,
                                  int rxRingFrames) {
        if (txRingFrames < 1 || rxRingFrames < 1) {
            throw new IllegalArgumentException("ring sizes must be positive: tx " + txRingFrames + ", rx "
                    + rxRingFrames);
        }
        if (wire.bucket() == null && !faults.active() && e2e) {
            return new PlainChannel(wire, waker, rxRingFrames);
        }
        return new ShapedChannel(wire, waker, faults, e2e, txRingFrames, rxRingFrames);
    }

    /**
     * Sends one frame (sender's thread).
     *
     * @return false when the TX ring (or, with end-to-end flow control, the receiver's ring) has no room
     * @throws RailClosedException when the channel failed or the receiver closed it
     */
    public final boolean offer(MemorySegment frame) {
        return send((int) frame.byteSize(), frame, null, null, 0, 0);
    }

    /**
     * Sends one frame that {@code writer} writes straight into the ring slot, so the sender builds it exactly once
     * (sender's thread). The writer runs only when the frame is taken.
     *
     * @return false when the TX ring (or, with end-to-end flow control, the receiver's ring) has no room
     * @throws RailClosedException when the channel failed or the receiver closed it
     */
    public final boolean offer(int length, RailTransport.FrameWriter writer) {
        return send(length, null, writer, null, 0, 0);
    }

    /**
     * Sends a data frame in two parts (sender's thread): {@code writer} writes its head ({@code headLength} bytes,
     * the header then the 4-byte trailer) into the ring slot, and the payload stays in {@code payload} until the
     * receiver takes the frame. The wire carries and paces the whole frame.
     *
     * @return false when the TX ring (or, with end-to-end flow control, the receiver's ring) has no room
     * @throws RailClosedException when the channel failed or the receiver closed it
     */
    public final boolean offer(int headLength, RailTransport.FrameWriter writer, MemorySegment payload,
                               long payloadOffset, int payloadLength) {
        return send(headLength, null, writer, payload, payloadOffset, payloadLength);
    }

    /**
     * One frame, given whole ({@code frame}), written in place ({@code writer}), or in two parts ({@code writer} for
     * the head and a {@code payload} by reference), as the three offers give it.
     */
    abstract boolean send(int headLength, MemorySegment frame, RailTransport.FrameWriter writer,
                          MemorySegment payload, long payloadOffset, int payloadLength);

    /**
     * Whether {@link #offerRun} takes a run of frames with heads of {@code headLength} bytes: only a plain channel,
     * where nothing happens to a frame on the way. On any other, each frame of a run is to be offered on its own, so
     * that it meets its fate (pacing, faults) as a single frame.
     */
    public boolean takesRuns(int headLength) {
        return false;
    }

    /**
     * Sends up to {@code count} frames of a run in two parts (sender's thread) on a channel that
     * {@link #takesRuns takes runs}, frame {@code i} as {@link #offer(int, RailTransport.FrameWriter, MemorySegment,
     * long, int)} sends one once {@code run} is at frame {@code i}: it looks once for room in the receiver's ring,
     * fills the entries and publishes them together.
     *
     * @return frames sent, from the first
     */
    public int offerRun(int headLength, RailTransport.FrameRun run, MemorySegment payload, int count) {
        throw new IllegalStateException("a run offered to a channel that takes frames one by one");
    }

    /**
     * Lets a frame held back for reordering go when no frame overtook it in time (sender's thread); returns 1 if it
     * did, 0 on a channel that holds nothing back.
     */
    public int flush() {
        return 0;
    }

    /**
     * Hands frames that have arrived to {@code receiver}, in ring order (receiver's thread).
     *
     * @return frames handed over
     * @throws RailClosedException when the channel failed, or the sender closed it and every frame it sent before
     *                             closing has been handed over
     */
    public final int poll(RailTransport.FrameReceiver receiver, int limit) {
        String f = failure;
        if (f != null) {
            throw new RailClosedException(f);
        }
        boolean closedBefore = senderClosed;
        long available = ring.published();
        return take(receiver, limit, closedBefore, available);
    }

    /**
     * {@link #poll} once the channel is known not to have failed: hands over entries up to {@code available} and
     * ends with {@link #handedOver}.
     */
    abstract int take(RailTransport.FrameReceiver receiver, int limit, boolean closedBefore, long available);

    /** Sender's thread: throws when the channel failed or the receiver closed it, as every offer must. */
    final void checkSendable() {
        String f = failure;
        if (f != null) {
            throw new RailClosedException(f);
        }
        if (receiverClosed) {
            throw new RailClosedException("the peer closed the rail");
        }
    }

    /** Sender's thread: makes entries up to {@code newTail} visible, then wakes the receiver if {@code wake}. */
    final void publish(long newTail, boolean wake) {
        ring.publish(newTail);
        wakes.published(wake);
    }

    /**
     * What every poll does once frames were handed over (receiver's thread): wake a sender that found the ring full,
     * and report a closed channel once the sender closed it and everything it sent is gone.
     *
     * @param drainedAfterClose the sender had closed before this poll began and no frame is left
     */
    final int handedOver(int handed, boolean drainedAfterClose) {
        if (handed > 0) {
            wakes.roomFreed();
        }
        if (handed == 0 && drainedAfterClose) {
            throw new RailClosedException("the peer closed the rail");
        }
        return handed;
    }

    /**
     * Who to wake when frames are published (the receiving engine, if its thread may park) and when the receiver
     * frees room after the sender was refused (the sending engine). Either may be null.
     */
    void wakes(Runnable whenPublished, Runnable whenRoom) {
        wakes.set(whenPublished, whenRoom);
    }

    /** The sender closed its end (sender's thread): anything it holds back still goes out, then nothing more. */
    public void closeSender() {
        senderClosed = true;
    }

    /** The receiver closed its end: the sender's next offer fails. */
    public void closeReceiver() {
        receiverClosed = true;
    }

    /** The cable was pulled or a host crashed: everything in flight is lost and both ends fail with this reason. */
    public void fail(String reason) {
        if (failure == null) {
            failure = reason;
        }
    }

    /** Why the channel failed, or null. */
    public String failure() {
        return failure;
    }

    public boolean senderClosed() {
        return senderClosed;
    }

    public boolean receiverClosed() {
        return receiverClosed;
    }

    public Wire wire() {
        return wire;
    }

    /** Counters so far; each side's counts are exact on its own thread and a snapshot from elsewhere. */
    public abstract ChannelStats stats();
}
