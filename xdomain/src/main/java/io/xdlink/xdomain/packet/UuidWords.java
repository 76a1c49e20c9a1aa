package io.xdlink.xdomain.packet;

import java.util.UUID;

/**
 * UUIDs as XDomain carries them. Linux keeps a {@code uuid_t} in RFC byte order and copies it raw into four
 * host-order u32 words; on little-endian x86 each word therefore holds four UUID bytes read little-endian, and the
 * big-endian wire shows every 4-byte group of the UUID reversed. The Windows driver writes the XDP UUID
 * b638d70e-42ff-40bb-97c2-90e2c0b2ff07 as the words {0x0ED738B6, 0xBB40FF42, 0xE290C297, 0x07FFB2C0}: the same rule.
 */
public final class UuidWords {
    private UuidWords() {
    }

    /** The four word values of {@code uuid}, in the order they appear in a packet or property block. */
    public static int[] toWords(UUID uuid) {
        long msb = uuid.getMostSignificantBits();
        long lsb = uuid.getLeastSignificantBits();
        return new int[] {
                Integer.reverseBytes((int) (msb >>> 32)),
                Integer.reverseBytes((int) msb),
                Integer.reverseBytes((int) (lsb >>> 32)),
                Integer.reverseBytes((int) lsb)};
    }

    /** Writes the four words of {@code uuid} into {@code words} at {@code offset}. */
    public static void put(int[] words, int offset, UUID uuid) {
        System.arraycopy(toWords(uuid), 0, words, offset, 4);
    }

    /** The UUID held by {@code words[offset..offset+3]}. */
    public static UUID fromWords(int[] words, int offset) {
        long msb = ((long) Integer.reverseBytes(words[offset]) << 32)
                | (Integer.reverseBytes(words[offset + 1]) & 0xFFFF_FFFFL);
        long lsb = ((long) Integer.reverseBytes(words[offset + 2]) << 32)
                | (Integer.reverseBytes(words[offset + 3]) & 0xFFFF_FFFFL);
        return new UUID(msb, lsb);
    }

    /**
     * Compares two UUIDs the way Linux decides the bonding roles: {@code memcmp} over the 16 raw RFC bytes, each byte
     * unsigned. (Java's {@link UUID#compareTo} compares signed longs and gets this wrong for half of all UUIDs.)
     */
    public static int compareRaw(UUID a, UUID b) {
        int c = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
        return c != 0 ? c : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    }
}
