package io.xdlink.ccl.engine;

/**
 * The 32-bit immediate of the write that carries a send: {@code sequence (low 16 bits) << 16 | slot << 3 | index},
 * bits 8 to 15 zero. A send goes as one write-with-immediate (a rails queue pair carries a write of up to
 * {@link #MAX_MESSAGE_BYTES}, far more than the plugin's {@code maxP2pBytes}), so the write's length is the send's.
 * A receiver refuses an immediate whose reserved bits are set, and one whose sequence bits do not match the receive
 * its slot holds now.
 */
final class Immediate {
    /** The largest send: the longest write a rails queue pair takes. */
    static final long MAX_MESSAGE_BYTES = 0xFFFF_FFFFL;
    static final long SEQUENCE_MASK = 0xFFFF;
    /** Bits no immediate of this protocol sets (they once counted a send's chunks). */
    static final int RESERVED_MASK = 0xFF00;

    private Immediate() {
    }

    static int of(long sequence, int slot, int index) {
        if (slot < 0 || slot >= Advertisement.SLOTS || index < 0 || index >= Advertisement.MAX_ENTRIES) {
            throw new IllegalArgumentException("immediate of slot " + slot + ", index " + index);
        }
        return (int) ((sequence & SEQUENCE_MASK) << 16) | slot << 3 | index;
    }

    /** True when the reserved bits are clear. */
    static boolean wellFormed(int immediate) {
        return (immediate & RESERVED_MASK) == 0;
    }

    static long sequenceBits(int immediate) {
        return (immediate >>> 16) & SEQUENCE_MASK;
    }

    static int slot(int immediate) {
        return (immediate >>> 3) & 0x1F;
    }

    static int index(int immediate) {
        return immediate & 0x7;
    }
}
