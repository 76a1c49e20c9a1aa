package io.xdlink.ccl.engine;

/**
 * The 32-bit immediate of the write that ends a send: {@code sequence (low 16 bits) << 16 | (chunks - 1) << 8 |
 * slot << 3 | index}. A send larger than {@link #CHUNK_BYTES} goes as several writes of exactly that size and a
 * last one, in order, so the receiver knows the whole length from the chunk count and the last write's length.
 * The sequence bits let the receiver refuse a write that names a slot now holding a different receive.
 */
final class Immediate {
    /** Size of every write but the last of one send. */
    static final long CHUNK_BYTES = 16L << 20;
    /** Most writes one send can take. */
    static final int MAX_CHUNKS = 256;
    /** The largest send the immediate can describe. */
    static final long MAX_MESSAGE_BYTES = CHUNK_BYTES * MAX_CHUNKS;
    static final long SEQUENCE_MASK = 0xFFFF;

    private Immediate() {
    }

    static int of(long sequence, int chunks, int slot, int index) {
        if (chunks < 1 || chunks > MAX_CHUNKS || slot < 0 || slot >= Advertisement.SLOTS || index < 0
                || index >= Advertisement.MAX_ENTRIES) {
            throw new IllegalArgumentException("immediate of " + chunks + " chunks, slot " + slot + ", index "
                    + index);
        }
        return (int) ((sequence & SEQUENCE_MASK) << 16) | (chunks - 1) << 8 | slot << 3 | index;
    }

    /** How many writes a send of {@code bytes} takes. */
    static int chunks(long bytes) {
        return bytes == 0 ? 1 : (int) ((bytes + CHUNK_BYTES - 1) / CHUNK_BYTES);
    }

    static long sequenceBits(int immediate) {
        return (immediate >>> 16) & SEQUENCE_MASK;
    }

    static int chunks(int immediate) {
        return ((immediate >>> 8) & 0xFF) + 1;
    }

    static int slot(int immediate) {
        return (immediate >>> 3) & 0x1F;
    }

    static int index(int immediate) {
        return immediate & 0x7;
    }

    /** The whole send's length from the immediate and the last write's length. */
    static long totalLength(int immediate, long lastLength) {
        return (chunks(immediate) - 1L) * CHUNK_BYTES + lastLength;
    }
}
