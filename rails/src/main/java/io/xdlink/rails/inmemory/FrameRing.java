package io.xdlink.rails.inmemory;

import io.xdlink.rails.RailTransport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One direction of an in-memory rail: a single-producer single-consumer ring of frame slots, standing in for a
 * receive ring. The producer writes a frame straight into a slot; the consumer is handed a view of the slot. Its
 * memory is native and returned by the garbage collector with the ring.
 */
final class FrameRing {
    private final MemorySegment[] slots;
    private final int[] lengths;
    private final MemorySegment[] payload;
    private final long[] payloadOffset;
    private final int[] payloadLength;
    private final AtomicLong head = new AtomicLong();
    private final AtomicLong tail = new AtomicLong();
    private volatile boolean producerClosed;
    private volatile boolean consumerClosed;

    FrameRing(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a ring needs at least one slot, not " + capacity);
        }
        MemorySegment memory = Arena.ofAuto().allocate((long) capacity * RailTransport.MAX_FRAME_BYTES, 64);
        slots = new MemorySegment[capacity];
        for (int i = 0; i < capacity; i++) {
            slots[i] = memory.asSlice((long) i * RailTransport.MAX_FRAME_BYTES, RailTransport.MAX_FRAME_BYTES);
        }
        lengths = new int[capacity];
        payload = new MemorySegment[capacity];
        payloadOffset = new long[capacity];
        payloadLength = new int[capacity];
    }

    int capacity() {
        return slots.length;
    }

    /** Free slots as the producer sees them. */
    int free() {
        return (int) (slots.length - (tail.get() - head.get()));
    }

    /** The slot {@code ahead} places after the next one to publish; only while that many slots are free. */
    MemorySegment nextSlot(int ahead) {
        return slots[(int) ((tail.get() + ahead) % slots.length)];
    }

    /** Makes the frame in the next slot, {@code length} bytes, visible to the consumer. */
    void publish(int length) {
        long t = tail.get();
        lengths[(int) (t % slots.length)] = length;
        tail.set(t + 1);
    }

    /**
     * Makes a frame in two parts visible: its head ({@code headLength} bytes in the next slot) and its payload,
     * which stays where the sender keeps it.
     */
    void publish(int headLength, MemorySegment payloadSegment, long offset, int length) {
        long t = tail.get();
        int i = (int) (t % slots.length);
        lengths[i] = headLength;
        payload[i] = payloadSegment;
        payloadOffset[i] = offset;
        payloadLength[i] = length;
        tail.set(t + 1);
    }

    /** Hands up to {@code limit} frames to {@code receiver}; returns how many. */
    int drain(RailTransport.FrameReceiver receiver, int limit) {
        long h = head.get();
        long t = tail.get();
        int n = 0;
        while (h < t && n < limit) {
            int i = (int) (h % slots.length);
            MemorySegment p = payload[i];
            if (p == null) {
                receiver.onFrame(slots[i], 0, lengths[i], null, 0, 0);
            } else {
                payload[i] = null; // the ring keeps no hold on the sender's memory once the frame is read
                receiver.onFrame(slots[i], 0, lengths[i], p, payloadOffset[i], payloadLength[i]);
            }
            h++;
            head.set(h);
            n++;
        }
        return n;
    }

    boolean isEmpty() {
        return head.get() == tail.get();
    }

    void closeProducer() {
        producerClosed = true;
    }

    void closeConsumer() {
        consumerClosed = true;
    }

    boolean producerClosed() {
        return producerClosed;
    }

    boolean consumerClosed() {
        return consumerClosed;
    }
}
