package io.xdlink.cluster;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;

/**
 * The element types the cluster reduces, with nccl-tests' names. Every value a test puts in is a small integer, so
 * every partial sum of up to {@value #MAX_EXACT_HOSTS} hosts is exact in every type (bfloat16 holds integers up to
 * 256 exactly) and a result can be checked bit for bit whatever order the algorithm added in.
 */
public enum DataType {
    FLOAT32("float", 4), BFLOAT16("bfloat16", 2), INT32("int32", 4);

    /** Hosts whose sums of {@link #pattern} values stay exact in bfloat16: 64 x 3 = 192. */
    public static final int MAX_EXACT_HOSTS = 64;

    private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfShort S = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;

    private final String label;
    private final int bytes;

    DataType(String label, int bytes) {
        this.label = label;
        this.bytes = bytes;
    }

    /** nccl-tests' name: float, bfloat16, int32. */
    public String label() {
        return label;
    }

    public int bytes() {
        return bytes;
    }

    /** The type nccl-tests' {@code -d} names ({@code float}, {@code bfloat16}, {@code int32}, or this enum's name). */
    public static DataType parse(String s) {
        String v = s.trim().toLowerCase(Locale.ROOT);
        for (DataType t : values()) {
            if (t.label.equals(v) || t.name().toLowerCase(Locale.ROOT).equals(v)) {
                return t;
            }
        }
        if (v.equals("int")) {
            return INT32;
        }
        throw new IllegalArgumentException("unknown data type '" + s + "': use float, bfloat16 or int32");
    }

    /** The value host {@code rank} puts at element {@code index}: -3..3, different between neighbours. */
    public static int pattern(int rank, long index) {
        return (int) ((rank * 5L + index * 3 + 1) % 7) - 3;
    }

    /** Element {@code i} of {@code s}, as the integer it holds. */
    public int get(MemorySegment s, long i) {
        return switch (this) {
            case FLOAT32 -> (int) s.get(F, i * 4);
            case BFLOAT16 -> (int) Float.intBitsToFloat(s.get(S, i * 2) << 16);
            case INT32 -> s.get(I, i * 4);
        };
    }

    /** Stores integer {@code v} at element {@code i} of {@code s}. */
    public void set(MemorySegment s, long i, int v) {
        switch (this) {
            case FLOAT32 -> s.set(F, i * 4, v);
            case BFLOAT16 -> s.set(S, i * 2, (short) (Float.floatToRawIntBits(v) >>> 16));
            case INT32 -> s.set(I, i * 4, v);
        }
    }

    /** Fills {@code count} elements of {@code s} with host {@code rank}'s pattern, starting at pattern index
     * {@code first}. */
    public void fill(MemorySegment s, long count, int rank, long first) {
        for (long i = 0; i < count; i++) {
            set(s, i, pattern(rank, first + i));
        }
    }

    /** Element {@code i} of {@code s} holds exactly {@code v} (bit for bit, so a negative zero or NaN counts wrong). */
    public boolean holds(MemorySegment s, long i, int v) {
        return switch (this) {
            case FLOAT32 -> s.get(I, i * 4) == Float.floatToRawIntBits(v);
            case BFLOAT16 -> s.get(S, i * 2) == (short) (Float.floatToRawIntBits(v) >>> 16);
            case INT32 -> s.get(I, i * 4) == v;
        };
    }
}
