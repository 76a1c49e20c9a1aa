package io.xdlink.rails;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A per-thread buffer where {@link RailTransport.FrameReceiver}'s default puts a two-part frame together for a
 * receiver that wants it whole. It is used and released within one call.
 */
final class Scratch {
    private static final ThreadLocal<MemorySegment> RECEIVED =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(RailTransport.MAX_FRAME_BYTES, 8));

    private Scratch() {
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
