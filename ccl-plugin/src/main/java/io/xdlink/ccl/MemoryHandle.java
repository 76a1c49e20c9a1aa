package io.xdlink.ccl;

import java.lang.foreign.MemorySegment;

/** Registered memory, from {@link CclNet#registerMemory}; passed back to sends, receives and flushes. */
public interface MemoryHandle {

    /** The registered bytes. */
    MemorySegment region();
}
