package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;

import java.lang.foreign.MemorySegment;

/** Checks that a buffer lies inside the memory registered for it. */
final class Bounds {
    private Bounds() {
    }

    /** The buffer's offset inside the registered memory, or an error naming it. */
    static long offsetIn(MemorySegment buffer, RegisteredMemory memory, String what) throws CclException {
        if (memory == null) {
            throw CclException.internal(what + " has no memory handle");
        }
        MemorySegment region = memory.segment();
        long offset = buffer.address() - region.address();
        if (offset < 0 || offset > region.byteSize() || buffer.byteSize() > region.byteSize() - offset) {
            throw CclException.internal(String.format("%s [0x%x, +%d) lies outside its registered memory [0x%x, +%d)",
                    what, buffer.address(), buffer.byteSize(), region.address(), region.byteSize()));
        }
        return offset;
    }
}
