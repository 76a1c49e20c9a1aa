package io.xdlink.sim.wire;

import io.xdlink.rails.RailTransport;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The entries of one rail direction, the sender's TX ring and the receiver's RX ring seen as one single-producer
 * single-consumer queue: where each frame's bytes lie, how long it is, when it reaches the receiver, and the two
 * positions, {@code tail} (entries published by the sender) and {@code head} (entries the receiver consumed). Both
 * channels, {@link PlainChannel} and {@link ShapedChannel}, keep their frames here; what they decide (whether there
 * is room, when a frame arrives, whether it is lost) is theirs, and this class only lays entries out, moves them and
 * hands them over.
 *
 * <p>The sender copies a frame into a slot once; the receiver is handed a view of that same slot, so a frame costs
 * one copy between offer and poll. A data frame offered in two parts (a head and a payload in the sender's registered
 * memory) puts only its head in the ring (a {@link #HEAD_BYTES}-byte head slot) and keeps a reference to the
 * payload, as a TX descriptor pointing at DMA-mapped memory does: the payload's bytes are read where they lie when
 * the receiver takes the frame, so they cross once, into the receiver's target. Positions are published with
 * release/acquire ordering, so the two ends may run on two threads without locks.
 *
 * <p>Entries are indexed by position modulo {@link #capacity}; each index names a slot ({@link #slotOf}), its own
 * until a reordering fault swaps two entries' slots, so moving an entry behind another moves no bytes.
 */
final class EntryRing {
    static final int TRAILER_BYTES = 4;
    /**
     * Room for a small frame, or the head of a frame carried in two parts (the largest data header and the
     * trailer), in a compact area beside the 4096-byte slots: a stream of data frames and their ACKs then touches 64
     * bytes of ring memory per frame, not a line of a different 4 KiB slot each, and leaves the caches to payloads.
     */
    static final int HEAD_BYTES = 64;

    private static final int LENGTH_BITS = 13;
    private static final int LENGTH_MASK = (1 << LENGTH_BITS) - 1;
    /** The entry lies in the compact head area. */
    static final int COMPACT = 1 << (2 * LENGTH_BITS);
    /** The receiver found its ring full when the entry arrived: it is consumed without being handed over. */
    static final int DROPPED = COMPACT << 1;

    private static final VarHandle TAIL;
    private static final VarHandle HEAD;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TAIL = l.findVarHandle(EntryRing.class, "tail", long.class);
            HEAD = l.findVarHandle(EntryRing.class, "head", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int capacity;
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
    /** When each entry reaches the receiver, in clock nanoseconds; unused on a channel without pacing. */
    private final long[] arrivalOf;
    /** A frame carried in two parts: its payload where the sender keeps it (null for a frame laid out whole). */
    private final MemorySegment[] payloadOf;
    private final long[] payloadAtOf;

    // Sender's side: entries published so far, where the next one goes, and how far the receiver was last seen.
    private long tail;
    /** {@link #index} of {@code tail}, kept as entries are published rather than divided out per frame. */
    private int tailIndex;
    private long headSeen;

    // Receiver's side: entries consumed (handed over or dropped).
    private long head;

    EntryRing(int capacity) {
        this.capacity = capacity;
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

    /**
     * An entry's shape: {@code length} bytes in the ring (a whole frame, or a head), {@code payloadLength} bytes of
     * payload carried by reference beside it, both at most {@link RailTransport#MAX_FRAME_BYTES}, and whether it lies
     * in the compact head area.
     */
    static int shape(int length, int payloadLength, boolean compact) {
        return length | payloadLength << LENGTH_BITS | (compact ? COMPACT : 0);
    }

    static int lengthIn(int shape) {
        return shape & LENGTH_MASK;
    }

    static int payloadLengthIn(int shape) {
        return (shape >>> LENGTH_BITS) & LENGTH_MASK;
    }

    /** Where {@code position} lies in the entry arrays: the only division per frame sent or per poll. */
    int index(long position) {
        return (int) (position % capacity);
    }

    /** Sender's thread: entries published so far. */
    long tail() {
        return tail;
    }

    /** Sender's thread: {@link #index} of {@link #tail}. */
    int tailIndex() {
        return tailIndex;
    }

    /** Sender's thread: how many entries the receiver had consumed when the sender last looked. */
    long headSeen() {
        return headSeen;
    }

    /** Sender's thread: looks again at how far the receiver got, and remembers it. */
    long refreshHeadSeen() {
        headSeen = (long) HEAD.getAcquire(this);
        return headSeen;
    }

    /** Sender's thread: makes every entry before {@code newTail} visible to the receiver. */
    void publish(long newTail) {
        tailIndex += (int) (newTail - tail);
        if (tailIndex >= capacity) {
            tailIndex -= capacity;
        }
        TAIL.setRelease(this, newTail);
    }

    /** Receiver's thread: entries the sender has published. */
    long published() {
        return (long) TAIL.getAcquire(this);
    }

    /** Receiver's thread: entries consumed so far. */
    long head() {
        return head;
    }

    /** Receiver's thread: gives the entries before {@code newHead} back to the sender. */
    void consumed(long newHead) {
        head = newHead;
        HEAD.setRelease(this, newHead);
    }

    /** The compact head area, made on first use (sender's thread). */
    MemorySegment heads() {
        MemorySegment h = heads;
        if (h == null) {
            h = heads = MemorySegment.ofArray(new byte[capacity * HEAD_BYTES]);
        }
        return h;
    }

    /**
     * Writes the entry at index {@code p} (sender's thread): the frame whole in its slot, or, for a frame offered in
     * two parts and not {@code whole}, its head in the slot and a reference to its payload beside it. A frame that
     * fits in {@link #HEAD_BYTES} goes to the compact area.
     *
     * @return the bytes laid out in the ring
     */
    int write(int p, MemorySegment frame, RailTransport.FrameWriter writer, int headLength, MemorySegment payload,
              long payloadOffset, int payloadLength, long arrival, boolean whole) {
        boolean split = payload != null && !whole;
        int length = split || payload == null ? headLength : headLength + payloadLength;
        boolean compact = length <= HEAD_BYTES;
        MemorySegment to;
        long at;
        if (compact) {
            to = heads();
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
        shapeOf[p] = shape(length, split ? payloadLength : 0, compact);
        arrivalOf[p] = arrival;
        return length;
    }

    /**
     * Writes the head of a frame in two parts into the compact slot of index {@code p}'s own number, with a reference
     * to its payload beside it (sender's thread): the whole of laying out an entry on a channel that never moves one,
     * short enough to be compiled into its caller. The entry's arrival stays as it was: such a channel has no
     * pacing, and its receiver takes every entry whatever its arrival says.
     */
    void putHead(int p, RailTransport.FrameWriter writer, int headLength, MemorySegment payload, long payloadOffset,
                 int payloadLength) {
        writer.write(heads(), (long) p * HEAD_BYTES);
        payloadOf[p] = payload;
        payloadAtOf[p] = payloadOffset;
        shapeOf[p] = shape(headLength, payloadLength, true);
    }

    /** The shape of the entry at index {@code p}. */
    int shape(int p) {
        return shapeOf[p];
    }

    /** When the entry at index {@code p} reaches the receiver. */
    long arrival(int p) {
        return arrivalOf[p];
    }

    /** Receiver's thread: the entry at index {@code p} found the receive ring full and is not to be handed over. */
    void drop(int p) {
        shapeOf[p] |= DROPPED;
    }

    /** Receiver's thread: consumes the entry at index {@code p} without handing it over. */
    void forget(int p) {
        payloadOf[p] = null;
    }

    /** Flips bit {@code bit} of the bytes the entry at index {@code p} holds in the ring (sender's thread). */
    void flipBit(int p, long bit) {
        MemorySegment m = memoryOf(p);
        long at = offsetOf(p) + (bit >>> 3);
        byte b = m.get(ValueLayout.JAVA_BYTE, at);
        m.set(ValueLayout.JAVA_BYTE, at, (byte) (b ^ (1 << (bit & 7))));
    }

    /** Where the entry at index {@code p} lies: in the compact head area, or its own 4096-byte slot. */
    private MemorySegment memoryOf(int p) {
        return (shapeOf[p] & COMPACT) != 0 ? heads : slots.forWriting(slotOf[p]);
    }

    private long offsetOf(int p) {
        return (shapeOf[p] & COMPACT) != 0 ? (long) slotOf[p] * HEAD_BYTES : 0;
    }

    /** Copies the entry at position {@code from}, bytes included, to position {@code to} (sender's thread). */
    void copy(long from, long to) {
        int a = index(from);
        int b = index(to);
        shapeOf[b] = shapeOf[a];
        MemorySegment.copy(memoryOf(a), offsetOf(a), memoryOf(b), offsetOf(b), lengthIn(shapeOf[a]));
        arrivalOf[b] = arrivalOf[a];
        payloadOf[b] = payloadOf[a];
        payloadAtOf[b] = payloadAtOf[a];
    }

    /** Moves the entry at {@code position} behind the {@code count} entries after it (all unpublished). */
    void rotateBehind(long position, int count) {
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

    /**
     * Hands the entry at index {@code p}, of shape {@code shape}, to {@code receiver} (receiver's thread): from the
     * slot the entry names or, with {@code ownSlot}, from the slot of its own index, which on a channel that never
     * moves an entry is the same and saves reading it. The ring keeps no hold on the sender's memory once the frame
     * is gone.
     */
    void hand(int p, int shape, RailTransport.FrameReceiver receiver, boolean ownSlot) {
        MemorySegment payload = payloadOf[p];
        payloadOf[p] = null;
        int slot = ownSlot ? p : slotOf[p];
        boolean compact = (shape & COMPACT) != 0;
        MemorySegment memory = compact ? heads : slots.forReading(slot);
        long at = compact ? (long) slot * HEAD_BYTES : 0;
        if (payload == null) {
            receiver.onFrame(memory, at, lengthIn(shape), null, 0, 0);
        } else {
            receiver.onFrame(memory, at, lengthIn(shape), payload, payloadAtOf[p], payloadLengthIn(shape));
        }
    }
}
