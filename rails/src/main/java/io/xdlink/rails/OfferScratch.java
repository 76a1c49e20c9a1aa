package io.xdlink.rails;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** The per-thread buffer in which {@link RailTransport#offer(int, RailTransport.FrameWriter)}'s default builds. */
final class OfferScratch {
    private static final ThreadLocal<MemorySegment> FRAME =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(RailTransport.MAX_FRAME_BYTES, 8));

    private OfferScratch() {
    }

    static MemorySegment frame() {
        return FRAME.get();
    }
}
