package io.xdlink.sim.wire;

import java.lang.foreign.MemorySegment;

/**
 * The frame buffers of one rail direction: the sender's TX ring and the receiver's RX ring as one pool of
 * 4096-byte slots. Allocated a chunk at a time on first use, on the heap, so a rail that moves little costs
 * little, and the memory goes when the rail is unreachable (no arena to close while a callback may still read it).
 * What a ring costs a host's DMA memory is accounted separately, as the real allocation would be.
 */
final class SlotMemory {
    static final int SLOT_BYTES = 4096;
    private static final int CHUNK_SLOTS = 32;

    private final MemorySegment[] slots;

    SlotMemory(int count) {
        slots = new MemorySegment[count];
    }

    /** The slot, allocating its chunk first if nobody has used it yet. Called by the sending side only. */
    MemorySegment forWriting(int index) {
        MemorySegment s = slots[index];
        if (s == null) {
            int first = index - index % CHUNK_SLOTS;
            int n = Math.min(CHUNK_SLOTS, slots.length - first);
            MemorySegment chunk = MemorySegment.ofArray(new byte[n * SLOT_BYTES]);
            for (int i = 0; i < n; i++) {
                slots[first + i] = chunk.asSlice((long) i * SLOT_BYTES, SLOT_BYTES);
            }
            s = slots[index];
        }
        return s;
    }

    /**
     * The slot as the receiving side sees it. Safe without a lock: the receiver reads a slot only after the
     * sender published the position that refers to it, which happened after the slot was written.
     */
    MemorySegment forReading(int index) {
        return slots[index];
    }

    int count() {
        return slots.length;
    }
}
