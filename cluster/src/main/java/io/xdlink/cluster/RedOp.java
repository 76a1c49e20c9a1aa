package io.xdlink.cluster;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;

/** The reductions, with nccl-tests' names, and their element-wise kernels over host memory. */
public enum RedOp {
    SUM("sum"), MAX("max");

    private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfShort S = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;

    private final String label;

    RedOp(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static RedOp parse(String s) {
        String v = s.trim().toLowerCase(Locale.ROOT);
        for (RedOp o : values()) {
            if (o.label.equals(v)) {
                return o;
            }
        }
        throw new IllegalArgumentException("unknown reduction '" + s + "': use sum or max");
    }

    /** The reduction of two integers. */
    public int apply(int a, int b) {
        return this == SUM ? a + b : Math.max(a, b);
    }

    /** {@code out[i] = a[i] op b[i]} for {@code count} elements; {@code out} may be {@code a} or {@code b}. */
    public void reduce(DataType t, MemorySegment a, MemorySegment b, MemorySegment out, long count) {
        boolean sum = this == SUM;
        switch (t) {
            case FLOAT32 -> {
                for (long i = 0, o = 0; i < count; i++, o += 4) {
                    float x = a.get(F, o);
                    float y = b.get(F, o);
                    out.set(F, o, sum ? x + y : Math.max(x, y));
                }
            }
            case INT32 -> {
                for (long i = 0, o = 0; i < count; i++, o += 4) {
                    int x = a.get(I, o);
                    int y = b.get(I, o);
                    out.set(I, o, sum ? x + y : Math.max(x, y));
                }
            }
            case BFLOAT16 -> {
                // Widen to float, reduce, round to nearest even back to bfloat16, as a GPU kernel does.
                for (long i = 0, o = 0; i < count; i++, o += 2) {
                    float x = Float.intBitsToFloat(a.get(S, o) << 16);
                    float y = Float.intBitsToFloat(b.get(S, o) << 16);
                    out.set(S, o, toBfloat16(sum ? x + y : Math.max(x, y)));
                }
            }
        }
    }

    static short toBfloat16(float f) {
        int bits = Float.floatToRawIntBits(f);
        int rounding = 0x7FFF + ((bits >>> 16) & 1);
        return (short) ((bits + rounding) >>> 16);
    }
}
