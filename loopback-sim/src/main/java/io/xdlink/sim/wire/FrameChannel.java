package io.xdlink.sim.wire;

import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailTransport;
import io.xdlink.sim.fault.FrameFaults;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One direction of one rail: the sender's TX ring, the wire, and the receiver's RX ring, as one single-producer
 * single-consumer queue of frames, each stamped with the moment it reaches the receiver.
 *
 * <p>The sender copies a frame into a slot once; the receiver is handed a view of that same slot, so a frame costs
 * one copy between {@code offer} and {@code poll}. A data frame offered in two parts (a head and a payload in the
 * sender's registered memory) puts only its head in the ring (a 64-byte head slot) and keeps a reference to the
 * payload, as a TX
 * descriptor pointing at DMA-mapped memory does: the payload's bytes are read where they lie when the receiver takes
 * the frame, so they cross once, into the receiver's target. Positions are published with release/acquire
 * ordering, so the two ends may run on two threads without locks.
 *
 * <p>What the sender may do depends on the ring's flow control:
 * <ul>
 *   <li>End-to-end flow control on: a frame is sent only when the receiver's ring has a free entry for it, so
 *   nothing is ever dropped; {@code offer} refuses instead.</li>
 *   <li>Off: the sender never waits for the receiver. A frame that finds the receive ring full when it arrives is
 *   dropped, as it is on AMD hosts. The receiver judges that when it polls: since it consumed nothing between two
 *   polls, a frame that arrived in between found exactly the frames accepted before it still in the ring.</li>
 * </ul>
 * Either way a TX ring is finite: a rail holds at most {@code txRingFrames} frames that have not yet left the
 * wire, and the wire serves the rails' frames first come first served, so rails on one cable take turns.
 *
 * <p>Faults are drawn by the sender: a lost frame takes its wire time and never arrives; a held frame is swapped
 * behind the next one, or let go by {@link #flush} once it has waited {@link #HOLD_NANOS} for one; a duplicate
 * takes a second slot; a corrupt frame has one bit flipped in the slot, never in the sender's memory.
 */
public final class FrameChannel {
    /** How long a frame held back for reordering waits for a frame to overtake it. */
    public static final long HOLD_NANOS = 10_000;

    private static final int TRAILER_BYTES = 4;
    /**
     * Room for a small frame, or the head of a frame carried in two parts (the largest data header and the
     * trailer), in a compact area beside the 4096-byte slots: a stream of data frames and their ACKs then touches 64
     * bytes of ring memory per frame, not a line of a different 4 KiB slot each, and leaves the caches to payloads.
     */
    static final int HEAD_BYTES = 64;
    private static final VarHandle TAIL;
    private static final VarHandle HEAD;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TAIL = l.findVarHandle(FrameChannel.class, "tail", long.class);
            HEAD = l.findVarHandle(FrameChannel.class, "head", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Wire wire;
    private final TokenBucket bucket;
    private final Waker waker;
    private final FrameFaults faults;
    private final boolean e2e;
    private final int rxRingFrames;
    private final TxRing txRing;
    private final int capacity;
    private final SlotMemory slots;
    /** Frames of at most {@link #HEAD_BYTES} and heads of frames in two parts, by slot number; made on first use. */
    private MemorySegment heads;
    private final int[] slotOf;
    /**
     * Each entry's shape in one word (see {@link #shape}): its length in the ring, the length of a payload carried
     * by reference, whether it lies in the compact head area, and whether it was dropped. One array written per
     * frame sent and read per frame taken, where separate arrays would cost a store and a load each.
     */
    private final int[] shapeOf;
    private final long[] arrivalOf;
    /** A frame carried in two parts: its payload where the sender keeps it (null for a frame laid out whole). */
    private final MemorySegment[] payloadOf;
    private final long[] payloadAtOf;

    // Sender's side. `tail` is the count of published frames; a held frame sits unpublished at position tail.
    private long tail;
    /** {@link #index} of {@code tail}, kept as frames are published rather than divided out per frame. */
    private int tailIndex;
    private boolean holding;
    private long heldSince;
    private long sent;
    private long lost;
    private long duplicated;
    private long reordered;
    private long corrupted;
    private long overflowAtSend;
    private long headSeen;

    // Receiver's side. `head` is the count of frames consumed (delivered or dropped).
    private long head;
    private long judged;
    private int acceptedWaiting;
    private long delivered;
    private long overflowAtReceive;

    private volatile Runnable receiverWake;
    private final boolean realTime;
    /**
     * Unpaced, without frame faults and with end-to-end flow control: a frame is there the moment it is published
     * and arrives exactly as sent, so {@link #offerPlain} does without the clock, the fault stream and the wire.
     */
    private final boolean plain;
    private long publishWakeCovered = Long.MIN_VALUE;
    private long roomWakeCovered = Long.MIN_VALUE;
    private long pollWakeCovered = Long.MIN_VALUE;
    private volatile Runnable senderWake;
    private volatile boolean senderWaiting;
    private volatile String failure;
    private volatile boolean senderClosed;
    private volatile boolean receiverClosed;

    /**
     * @param wire         the cable direction this rail sends over, shared with the cable's other rails
     * @param waker        where virtual time must stop for this channel
     * @param faults       this direction's fault stream
     * @param e2e          end-to-end flow control on the rings
     * @param txRingFrames entries of the sender's TX ring
     * @param rxRingFrames entries of the receiver's RX ring
     */
    public FrameChannel(Wire wire, Waker waker, FrameFaults faults, boolean e2e, int txRingFrames, int rxRingFrames) {
        if (txRingFrames < 1 || rxRingFrames < 1) {
            throw new IllegalArgumentException("ring sizes must be positive: tx " + txRingFrames + ", rx " + rxRingFrames);
        }
        this.wire = wire;
        this.bucket = wire.bucket();
        this.realTime = bucket != null && !wire.clock().isVirtual();
        this.plain = bucket == null && !faults.active() && e2e;
        this.waker = waker;
        this.faults = faults;
        this.e2e = e2e;
        this.rxRingFrames = rxRingFrames;
        this.txRing = new TxRing(txRingFrames);
        // Room for a duplicate and a held frame beyond what the rings hold. Without end-to-end flow control the
        // frames in flight are those in both rings, TX and RX.
        this.capacity = e2e ? rxRingFrames + 2 : rxRingFrames + txRingFrames + 2;
        this.slots = new SlotMemory(capacity);
        this.slotOf = new int[capacity];
        this.shapeOf = new int[capacity];
        this.arrivalOf = new long[capacity];
        this.payloadOf = new MemorySegment[capacity];
        this.payloadAtOf = new long[capacity];
        for (int i = 0; i < capacity; i++) {
            slotOf[i] = i;
        }
    }

    private static final int LENGTH_BITS = 13;
    private static final int LENGTH_MASK = (1 << LENGTH_BITS) - 1;
    private static final int COMPACT = 1 << (2 * LENGTH_BITS);
    private static final int DROPPED = COMPACT << 1;

    /**
     * An entry's shape: {@code length} bytes in the ring (a whole frame, or a head), {@code payloadLength} bytes of
     * payload carried by reference beside it, both at most {@link RailTransport#MAX_FRAME_BYTES}, and whether it lies
     * in the compact head area.
     */
    private static int shape(int length, int payloadLength, boolean compact) {
        return length | payloadLength << LENGTH_BITS | (compact ? COMPACT : 0);
    }

    private static int lengthIn(int shape) {
        return shape & LENGTH_MASK;
    }

    private static int payloadLengthIn(int shape) {
        return (shape >>> LENGTH_BITS) & LENGTH_MASK;
    }

    /**
     * Sends one frame (sender's thread).
     *
     * @return false when the TX ring (or, with end-to-end flow control, the receiver's ring) has no room
     * @throws RailClosedException when the channel failed or the receiver closed it
     */
    public boolean offer(MemorySegment frame) {
        return offer((int) frame.byteSize(), frame, null, null, 0, 0);
    }

    /**
     * Sends one frame that {@code writer} writes straight into the ring slot, so the sender builds it exactly once
     * (sender's thread). The writer runs only when the frame is taken.
     *
     * @return false when the TX ring (or, with end-to-end flow control, the receiver's ring) has no room
     * @throws RailClosedException when the channel failed or the receiver closed it
     */
    public boolean offer(int length, RailTransport.FrameWriter writer) {
        return offer(length, null, writer, null, 0, 0);
    }

    /**
     * Sends a data frame in two parts (sender's thread): {@code writer} writes its head ({@code headLength} bytes,
     * the header then the 4-byte trailer) into the ring slot, and the payload stays in {@code payload} until the
     * receiver takes the frame. The wire carries and paces the whole frame.
     *
     * @return false when the TX ring (or, with end-to-end flow control, the receiver's ring) has no room
     * @throws RailClosedException when the channel failed or the receiver closed it
     */
    public boolean offer(int headLength, RailTransport.FrameWriter writer, MemorySegment payload, long payloadOffset,
                         int payloadLength) {
        return offer(headLength, null, writer, payload, payloadOffset, payloadLength);
    }

    /**
     * Whether {@link #offerRun} takes a run of frames with heads of {@code headLength} bytes: a {@link #plain}
     * channel, where nothing happens to a frame on the way. On any other, each frame of a run is to be offered on its
     * own, so that it meets its fate (pacing, faults) as a single frame.
     */
    public boolean takesRuns(int headLength) {
        return plain && headLength <= HEAD_BYTES;
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
        if (!takesRuns(headLength)) {
            throw new IllegalStateException("a run offered to a channel that takes frames one by one");
        }
        checkSendable();
        long reserved = tail;
        long room = rxRingFrames - (reserved - headSeen);
        if (room < count) {
            headSeen = (long) HEAD.getAcquire(this);
            room = rxRingFrames - (reserved - headSeen);
        }
        int n = (int) Math.min(count, Math.max(0, room));
        if (n < count) {
            senderWaiting = true;
        }
        MemorySegment to = heads;
        if (to == null) {
            to = heads = MemorySegment.ofArray(new byte[capacity * HEAD_BYTES]);
        }
        int p = tailIndex;
        int taken = 0;
        while (taken < n && run.frame(taken)) {
            int payloadLength = run.payloadLength();
            if (payloadLength <= 0 || headLength + payloadLength > RailTransport.MAX_FRAME_BYTES) {
                throw new IllegalArgumentException("frame " + taken + " of a run: head " + headLength + " and payload "
                        + payloadLength + " are not a frame of 1.." + RailTransport.MAX_FRAME_BYTES + " bytes");
            }
            // A plain channel never reorders its entries, so each keeps the slot of its own index.
            run.write(to, (long) p * HEAD_BYTES);
            payloadOf[p] = payload;
            payloadAtOf[p] = run.payloadOffset();
            shapeOf[p] = shape(headLength, payloadLength, true);
            if (++p == capacity) {
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

    /** Sender's thread: throws when the channel failed or the receiver closed it, as every offer must. */
    private void checkSendable() {
        String f = failure;
        if (f != null) {
            throw new RailClosedException(f);
        }
        if (receiverClosed) {
            throw new RailClosedException("the peer closed the rail");
        }
    }

    private boolean offer(int headLength, MemorySegment frame, RailTransport.FrameWriter writer,
                          MemorySegment payload, long payloadOffset, int payloadLength) {
        if (plain) {
            return offerPlain(headLength, frame, writer, payload, payloadOffset, payloadLength);
        }
        int length = headLength + payloadLength;
        checkSendable();
        long reserved = tail + (holding ? 1 : 0);
        long consumed = headSeen;
        if (reserved + 2 - consumed > (e2e ? rxRingFrames : capacity)) {
            // Looks full from what we last saw: look again at how far the receiver got.
            consumed = (long) HEAD.getAcquire(this);
            headSeen = consumed;
        }
        if (e2e && reserved - consumed >= rxRingFrames) {
            senderWaiting = true;
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
                waker.wakeAt(txRing.nextRoomAt());
                refusedByTxRing(now);
                return false;
            }
            long leaves = bucket.reserve(length, now);
            txRing.add(leaves);
            arrival = leaves + wire.latencyNanos();
        }
        sent++;
        int fate = faults.next();
        if ((fate & FrameFaults.LOSE) != 0) {
            lost++;
            return true;
        }
        boolean duplicate = (fate & FrameFaults.DUPLICATE) != 0 && (fate & FrameFaults.HOLD) == 0;
        int need = duplicate ? 2 : 1;
        if (reserved + need - consumed > capacity) {
            // Only possible without end-to-end flow control: the receiver is so far behind that both rings are
            // full, so this frame would find the RX ring full too.
            overflowAtSend++;
            return true;
        }
        int at = tailIndex;
        if (holding && ++at == capacity) {
            at = 0;
        }
        write(at, frame, writer, headLength, payload, payloadOffset, payloadLength, arrival,
                (fate & FrameFaults.CORRUPT) != 0);
        if (duplicate) {
            copySlot(reserved, reserved + 1);
            duplicated++;
        }
        if (holding) {
            // The held frame at position tail goes behind the frame(s) just written.
            rotateBehind(tail, need);
            holding = false;
            publish(tail + 1 + need, true);
        } else if ((fate & FrameFaults.HOLD) != 0) {
            holding = true;
            heldSince = now;
            reordered++;
            waker.wakeAt(now + HOLD_NANOS);
        } else {
            // In real time a frame due later is the business of the wake scheduled for it below: waking the
            // receiver now would only show it a frame it cannot take yet, once per frame.
            publish(tail + need, !realTime || arrival - now < Waker.REAL_WAKE_AHEAD_NANOS);
        }
        if (arrival != Long.MIN_VALUE) {
            // Unpaced, a frame is there as soon as it is published: no time to stop at, no wake to schedule.
            waker.wakeAt(arrival);
            publishWakeCovered = waker.wakeLater(arrival, now, publishWakeCovered, receiverWake);
        }
        return true;
    }

    /**
     * {@link #offer} on a {@link #plain} channel: a frame arrives the moment it is published and nothing happens to it
     * on the way (no loss, no holding, no copy, no damage, no wire time), so all there is to do is find room in the
     * receiver's ring, fill the entry and publish it. A bulk transfer's frames go this way, and a data frame's head
     * is written by a path short enough to be compiled into it.
     */
    private boolean offerPlain(int headLength, MemorySegment frame, RailTransport.FrameWriter writer,
                               MemorySegment payload, long payloadOffset, int payloadLength) {
        checkSendable();
        long reserved = tail;
        if (reserved - headSeen >= rxRingFrames) {
            // Looks full from what we last saw: look again at how far the receiver got.
            headSeen = (long) HEAD.getAcquire(this);
            if (reserved - headSeen >= rxRingFrames) {
                senderWaiting = true;
                return false;
            }
        }
        sent++;
        int p = tailIndex;
        if (writer != null && payload != null && headLength <= HEAD_BYTES) {
            MemorySegment to = heads;
            if (to == null) {
                to = heads = MemorySegment.ofArray(new byte[capacity * HEAD_BYTES]);
            }
            // A plain channel never reorders its entries, so each keeps the slot of its own index.
            writer.write(to, (long) p * HEAD_BYTES);
            payloadOf[p] = payload;
            payloadAtOf[p] = payloadOffset;
            shapeOf[p] = shape(headLength, payloadLength, true);
            // arrivalOf stays as it was: without pacing the receiver takes every frame whatever its arrival says.
        } else {
            write(p, frame, writer, headLength, payload, payloadOffset, payloadLength, Long.MIN_VALUE, false);
        }
        publish(reserved + 1, true);
        return true;
    }

    /**
     * Lets a held frame go when no frame overtook it in time (sender's thread); returns 1 if it did. Holding is
     * timed rather than ended at every flush, since an engine that is held up by a full ring flushes after every
     * frame and would otherwise never see a frame overtaken.
     */
    public int flush() {
        if (!holding || wire.clock().now() - heldSince < HOLD_NANOS) {
            return 0;
        }
        return release();
    }

    private int release() {
        holding = false;
        publish(tail + 1, true);
        return 1;
    }

    /** Writes the entry at index {@code p} (the position one past the published and held frames). */
    private void write(int p, MemorySegment frame, RailTransport.FrameWriter writer, int headLength,
                       MemorySegment payload, long payloadOffset, int payloadLength, long arrival, boolean corrupt) {
        // Damage belongs to the frame on the wire, never to the sender's memory: a corrupt frame is laid out whole.
        boolean split = payload != null && !corrupt;
        int length = split || payload == null ? headLength : headLength + payloadLength;
        boolean compact = length <= HEAD_BYTES;
        MemorySegment to;
        long at;
        if (compact) {
            if (heads == null) {
                heads = MemorySegment.ofArray(new byte[capacity * HEAD_BYTES]);
            }
            to = heads;
            at = (long) slotOf[p] * HEAD_BYTES;
        } else {
            to = slots.forWriting(slotOf[p]);
            at = 0;
        }
        if (writer != null) {
            writer.write(to, at);
        } else {
            MemorySegment.copy(frame, 0, to, at, headLength);
        }
        if (payload != null && !split) {
            int header = headLength - TRAILER_BYTES;
            MemorySegment.copy(to, at + header, to, at + header + payloadLength, TRAILER_BYTES);
            MemorySegment.copy(payload, payloadOffset, to, at + header, payloadLength);
        }
        payloadOf[p] = split ? payload : null;
        payloadAtOf[p] = payloadOffset;
        if (corrupt) {
            long bit = faults.bitToFlip(length);
            byte b = to.get(ValueLayout.JAVA_BYTE, at + (bit >>> 3));
            to.set(ValueLayout.JAVA_BYTE, at + (bit >>> 3), (byte) (b ^ (1 << (bit & 7))));
            corrupted++;
        }
        shapeOf[p] = shape(length, split ? payloadLength : 0, compact);
        arrivalOf[p] = arrival;
    }

    /** Where the entry at index {@code p} lies: in the compact head area, or its own 4096-byte slot. */
    private MemorySegment memoryOf(int p) {
        return (shapeOf[p] & COMPACT) != 0 ? heads : slots.forWriting(slotOf[p]);
    }

    private long offsetOf(int p) {
        return (shapeOf[p] & COMPACT) != 0 ? (long) slotOf[p] * HEAD_BYTES : 0;
    }

    private void copySlot(long from, long to) {
        int a = index(from);
        int b = index(to);
        shapeOf[b] = shapeOf[a];
        MemorySegment.copy(memoryOf(a), offsetOf(a), memoryOf(b), offsetOf(b), lengthIn(shapeOf[a]));
        arrivalOf[b] = arrivalOf[a];
        payloadOf[b] = payloadOf[a];
        payloadAtOf[b] = payloadAtOf[a];
    }

    /** Moves the entry at {@code position} behind the {@code count} entries after it (all unpublished). */
    private void rotateBehind(long position, int count) {
        int first = index(position);
        int slot = slotOf[first];
        int shape = shapeOf[first];
        long arrival = arrivalOf[first];
        MemorySegment payload = payloadOf[first];
        long payloadAt = payloadAtOf[first];
        for (int i = 0; i < count; i++) {
            int to = index(position + i);
            int from = index(position + i + 1);
            slotOf[to] = slotOf[from];
            shapeOf[to] = shapeOf[from];
            arrivalOf[to] = arrivalOf[from];
            payloadOf[to] = payloadOf[from];
            payloadAtOf[to] = payloadAtOf[from];
        }
        int last = index(position + count);
        slotOf[last] = slot;
        shapeOf[last] = shape;
        arrivalOf[last] = arrival;
        payloadOf[last] = payload;
        payloadAtOf[last] = payloadAt;
    }

    private void publish(long newTail, boolean wake) {
        tailIndex += (int) (newTail - tail);
        if (tailIndex >= capacity) {
            tailIndex -= capacity;
        }
        TAIL.setRelease(this, newTail);
        Runnable w = receiverWake;
        if (wake && w != null) {
            w.run();
        }
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
                roomWakeCovered = waker.wakeLater(at, now, roomWakeCovered, senderWake);
                return;
            }
        }
        senderWaiting = true;
    }

    /**
     * Hands frames that have arrived to {@code receiver}, in ring order (receiver's thread).
     *
     * @return frames handed over
     * @throws RailClosedException when the channel failed, or the sender closed it and every frame it sent before
     *                             closing has been handed over
     */
    public int poll(RailTransport.FrameReceiver receiver, int limit) {
        String f = failure;
        if (f != null) {
            throw new RailClosedException(f);
        }
        boolean closedBefore = senderClosed;
        long available = (long) TAIL.getAcquire(this);
        if (plain) {
            return pollPlain(receiver, limit, closedBefore, available);
        }
        long now = bucket == null ? Long.MAX_VALUE : wire.clock().now();
        long h = head;
        if (!e2e) {
            judge(h, available, now);
        }
        int handed = 0;
        int p = index(h);
        try {
            while (handed < limit && h < available) {
                long arrival = arrivalOf[p];
                if (arrival > now) {
                    waker.wakeAt(arrival);
                    pollWakeCovered = waker.wakeLater(arrival, now, pollWakeCovered, receiverWake);
                    break;
                }
                int shape = shapeOf[p];
                MemorySegment payload = payloadOf[p];
                payloadOf[p] = null; // the ring keeps no hold on the sender's memory once the frame is gone
                int slot = slotOf[p];
                long payloadAt = payloadAtOf[p];
                h++;
                if (++p == capacity) {
                    p = 0;
                }
                if ((shape & DROPPED) == 0) {
                    if (!e2e) {
                        acceptedWaiting--;
                    }
                    delivered++;
                    handed++;
                    boolean compact = (shape & COMPACT) != 0;
                    MemorySegment memory = compact ? heads : slots.forReading(slot);
                    long at = compact ? (long) slot * HEAD_BYTES : 0;
                    if (payload == null) {
                        receiver.onFrame(memory, at, lengthIn(shape));
                    } else {
                        receiver.onFrame(memory, at, lengthIn(shape), payload, payloadAt, payloadLengthIn(shape));
                    }
                }
            }
        } finally {
            head = h;
            HEAD.setRelease(this, h);
        }
        return handedOver(handed, closedBefore && h == available);
    }

    /**
     * {@link #poll} on a {@link #plain} channel: every published entry has arrived (no pacing), none was dropped (end
     * to end flow control) and each lies at its own index's slot (nothing is held back and reordered), so only the
     * entry's shape and payload are read.
     */
    private int pollPlain(RailTransport.FrameReceiver receiver, int limit, boolean closedBefore, long available) {
        long h = head;
        int p = index(h);
        int handed = 0;
        int n = (int) Math.min(limit, available - h);
        try {
            while (handed < n) {
                int shape = shapeOf[p];
                MemorySegment payload = payloadOf[p];
                payloadOf[p] = null; // the ring keeps no hold on the sender's memory once the frame is gone
                long payloadAt = payloadAtOf[p];
                int at = p;
                if (++p == capacity) {
                    p = 0;
                }
                h++;
                handed++;
                if ((shape & COMPACT) == 0) {
                    receiver.onFrame(slots.forReading(at), 0, lengthIn(shape));
                } else if (payload == null) {
                    receiver.onFrame(heads, (long) at * HEAD_BYTES, lengthIn(shape));
                } else {
                    receiver.onFrame(heads, (long) at * HEAD_BYTES, lengthIn(shape), payload, payloadAt,
                            payloadLengthIn(shape));
                }
            }
        } finally {
            delivered += handed;
            head = h;
            HEAD.setRelease(this, h);
        }
        return handedOver(handed, closedBefore && h == available);
    }

    /**
     * What both polls do once frames were handed over (receiver's thread): wake a sender that found the ring full,
     * and report a closed channel once the sender closed it and everything it sent is gone.
     *
     * @param drainedAfterClose the sender had closed before this poll began and no frame is left
     */
    private int handedOver(int handed, boolean drainedAfterClose) {
        if (senderWaiting && handed > 0) {
            senderWaiting = false;
            Runnable w = senderWake;
            if (w != null) {
                w.run();
            }
        }
        if (handed == 0 && drainedAfterClose) {
            throw new RailClosedException("the peer closed the rail");
        }
        return handed;
    }

    /**
     * Without end-to-end flow control: decides which newly arrived frames found the RX ring full. Nothing was
     * consumed since the last poll, so each arrival found every frame accepted before it still waiting.
     */
    private void judge(long h, long available, long now) {
        long j = Math.max(judged, h);
        int waiting = acceptedWaiting;
        while (j < available) {
            int p = index(j);
            if (arrivalOf[p] > now) {
                break;
            }
            if (waiting >= rxRingFrames) {
                shapeOf[p] |= DROPPED;
                overflowAtReceive++;
            } else {
                waiting++;
            }
            j++;
        }
        judged = j;
        acceptedWaiting = waiting;
    }

    /** Where {@code position} lies in the entry arrays: the only division per frame sent or per poll. */
    private int index(long position) {
        return (int) (position % capacity);
    }

    /**
     * Who to wake when frames are published (the receiving engine, if its thread may park) and when the receiver
     * frees room after the sender was refused (the sending engine). Either may be null.
     */
    void wakes(Runnable whenPublished, Runnable whenRoom) {
        if (whenPublished != null) {
            receiverWake = whenPublished;
        }
        if (whenRoom != null) {
            senderWake = whenRoom;
        }
    }

    /** The sender closed its end (sender's thread): a held frame still goes out, then nothing more. */
    public void closeSender() {
        if (holding) {
            release();
        }
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
    public ChannelStats stats() {
        return new ChannelStats(sent, lost, duplicated, reordered, corrupted, overflowAtSend + overflowAtReceive,
                delivered);
    }
}
