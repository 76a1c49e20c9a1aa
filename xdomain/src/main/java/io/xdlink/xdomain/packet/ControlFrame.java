package io.xdlink.xdomain.packet;

import java.util.zip.CRC32C;

/**
 * One ring-0 frame as it crosses the wire: big-endian 32-bit words followed by a CRC-32C of those bytes, itself a
 * big-endian word. Linux converts the host-order words to big-endian first and runs the CRC over the converted
 * bytes ({@code ~crc32c(~0, ...)}, the standard CRC-32C that {@link CRC32C} computes).
 *
 * @param words       the packet's words as values, CRC excluded
 * @param receivedCrc the CRC word that came with them
 */
public record ControlFrame(int[] words, int receivedCrc) {

    /** A packet is at most 252 bytes before the CRC (a 256-byte ring frame). */
    public static final int MAX_PACKET_BYTES = 252;
    public static final int MAX_PACKET_WORDS = MAX_PACKET_BYTES / 4;

    public ControlFrame {
        words = words.clone();
    }

    @Override
    public int[] words() {
        return words.clone();
    }

    /** Number of packet words, CRC excluded. */
    public int size() {
        return words.length;
    }

    /** The CRC the words should carry. */
    public int computedCrc() {
        return crc(words);
    }

    public boolean crcOk() {
        return receivedCrc == computedCrc();
    }

    /**
     * Splits wire bytes into words and the CRC word. Checks only what framing needs: a whole number of words, at
     * least one packet word, at most {@link #MAX_PACKET_BYTES}; the CRC is checked by the caller (see
     * {@link #crcOk()}) so a trace reader can still show a damaged packet.
     */
    public static ControlFrame parse(byte[] wire) {
        if (wire == null) {
            throw new PacketFormatException("size", "no bytes");
        }
        if (wire.length % 4 != 0) {
            throw new PacketFormatException("size", wire.length + " bytes is not a whole number of 32-bit words");
        }
        if (wire.length < 8) {
            throw new PacketFormatException("size", wire.length + " bytes: a frame needs a packet word and a CRC");
        }
        if (wire.length - 4 > MAX_PACKET_BYTES) {
            throw new PacketFormatException("size", (wire.length - 4) + " packet bytes exceed " + MAX_PACKET_BYTES);
        }
        int[] words = new int[wire.length / 4 - 1];
        for (int i = 0; i < words.length; i++) {
            words[i] = readWord(wire, i * 4);
        }
        return new ControlFrame(words, readWord(wire, wire.length - 4));
    }

    /** The wire form of {@code words}: each word big-endian, then the CRC-32C word. */
    public static byte[] encode(int[] words) {
        if (words.length == 0 || words.length > MAX_PACKET_WORDS) {
            throw new IllegalArgumentException("a packet has 1.." + MAX_PACKET_WORDS + " words: " + words.length);
        }
        byte[] wire = new byte[words.length * 4 + 4];
        for (int i = 0; i < words.length; i++) {
            writeWord(wire, i * 4, words[i]);
        }
        writeWord(wire, words.length * 4, crc(wire, words.length * 4));
        return wire;
    }

    /** CRC-32C over the big-endian bytes of {@code words}. */
    public static int crc(int[] words) {
        byte[] bytes = new byte[words.length * 4];
        for (int i = 0; i < words.length; i++) {
            writeWord(bytes, i * 4, words[i]);
        }
        return crc(bytes, bytes.length);
    }

    private static int crc(byte[] bytes, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return (int) crc.getValue();
    }

    static int readWord(byte[] b, int at) {
        return (b[at] & 0xFF) << 24 | (b[at + 1] & 0xFF) << 16 | (b[at + 2] & 0xFF) << 8 | (b[at + 3] & 0xFF);
    }

    static void writeWord(byte[] b, int at, int value) {
        b[at] = (byte) (value >>> 24);
        b[at + 1] = (byte) (value >>> 16);
        b[at + 2] = (byte) (value >>> 8);
        b[at + 3] = (byte) value;
    }
}
