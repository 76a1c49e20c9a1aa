package io.xdlink.rails;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Per-thread buffers for {@link RailTransport}'s default methods: where a frame is built before a whole-frame offer,
 * where a two-part frame's head is written, and where a two-part frame is put together for a receiver that wants it
 * whole. Each is used and released within one call.
 */
final class Scratch {
    private static final ThreadLocal<MemorySegment> FRAME =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(RailTransport.MAX_FRAME_BYTES, 8));
    private static final ThreadLocal<MemorySegment> HEAD =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(RailTransport.MAX_FRAME_BYTES, 8));
    private static final ThreadLocal<MemorySegment> RECEIVED =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(RailTransport.MAX_FRAME_BYTES, 8));

    private Scratch() {
    }

    static MemorySegment frame() {
        return FRAME.get();
    }

    static MemorySegment head() {
        return HEAD.get();
    }

    static MemorySegment received() {
        return RECEIVED.get();
    }

    /**
     * Lays a two-part frame out whole: the head's header, the payload, the head's 4-byte trailer.
     *
     * @return the frame's length in {@code into}
     */
    static int assemble(MemorySegment head, long headOffset, int headLength, MemorySegment payload,
                        long payloadOffset, int payloadLength, MemorySegment into) {
        int header = headLength - 4;
        MemorySegment.copy(head, headOffset, into, 0, header);
        if (payloadLength > 0) {
            MemorySegment.copy(payload, payloadOffset, into, header, payloadLength);
        }
        MemorySegment.copy(head, headOffset + header, into, header + payloadLength, 4);
        return headLength + payloadLength;
    }
}
