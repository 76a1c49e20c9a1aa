package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;
import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.QueuePair;

import java.lang.foreign.MemorySegment;

/** Registration of the memory an end reads and writes, and the check that a buffer lies inside its region. */
final class Regions {
    private Regions() {
    }

    /**
     * Registers {@code region} on the protection domain of {@code qp}, for local writes (receives land there) and
     * for the peer's writes. Deregistered by the caller.
     */
    static MemoryRegion register(QueuePair qp, MemorySegment region) throws CclException {
        try {
            return qp.pd().register(region, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
        } catch (RuntimeException e) {
            throw CclException.system("cannot register " + region.byteSize() + " bytes: " + e.getMessage(), e);
        }
    }

    /** The buffer's offset inside the registered memory, or an error naming it. */
    static long offsetIn(MemorySegment buffer, MemoryRegion memory, String what) throws CclException {
        return offsetIn(buffer, memory, what, -1);
    }

    /**
     * As {@link #offsetIn(MemorySegment, MemoryRegion, String)} for buffer {@code index} of several (none when
     * negative): the name is put together only for an error, since a receive checks each buffer every message.
     */
    static long offsetIn(MemorySegment buffer, MemoryRegion memory, String what, int index) throws CclException {
        if (memory == null) {
            throw CclException.internal(name(what, index) + " has no memory handle");
        }
        long offset = buffer.address() - memory.address();
        if (offset < 0 || offset > memory.length() || buffer.byteSize() > memory.length() - offset) {
            throw CclException.internal(String.format("%s [0x%x, +%d) lies outside its registered memory [0x%x, +%d)",
                    name(what, index), buffer.address(), buffer.byteSize(), memory.address(), memory.length()));
        }
        return offset;
    }

    private static String name(String what, int index) {
        return index < 0 ? what : what + " " + index;
    }
}
