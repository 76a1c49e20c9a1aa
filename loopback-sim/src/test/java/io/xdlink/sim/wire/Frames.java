package io.xdlink.sim.wire;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Test frames that carry their own sequence number and a pattern derived from it, so any damage shows. */
public final class Frames {
    private Frames() {
    }

    public static MemorySegment frame(long seq, int size) {
        MemorySegment f = Arena.ofAuto().allocate(size);
        fill(f, seq);
        return f;
    }

    public static void fill(MemorySegment f, long seq) {
        int size = (int) f.byteSize();
        if (size >= 8) {
            f.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, seq);
        }
        for (int i = Math.min(8, size); i < size; i++) {
            f.set(ValueLayout.JAVA_BYTE, i, pattern(seq, i));
        }
    }

    public static long seq(MemorySegment f) {
        return f.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
    }

    /** True when the frame's bytes are exactly what {@link #fill} wrote for its sequence number. */
    public static boolean intact(MemorySegment f, long seq) {
        if (seq(f) != seq) {
            return false;
        }
        for (int i = 8; i < f.byteSize(); i++) {
            if (f.get(ValueLayout.JAVA_BYTE, i) != pattern(seq, i)) {
                return false;
            }
        }
        return true;
    }

    private static byte pattern(long seq, int i) {
        // Every bit of seq reaches some byte, so no flip in the sequence number goes unnoticed.
        return (byte) (((seq * 0x9E3779B97F4A7C15L) >>> ((i & 7) * 8)) + i);
    }
}
