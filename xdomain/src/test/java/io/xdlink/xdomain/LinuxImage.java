package io.xdlink.xdomain;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.UUID;

/**
 * Builds test vectors the way Linux builds packets, independently of the codec under test: a C struct laid out in
 * little-endian x86 memory (u32/u16/u8 fields at their struct offsets, a {@code uuid_t} copied raw in RFC byte
 * order), then {@code cpu_to_be32_array} (every 4-byte group reversed), then {@code ~crc32c(~0, ...)} over those
 * bytes appended big-endian. The CRC here is a bit-by-bit CRC-32C, not {@link java.util.zip.CRC32C}.
 */
public final class LinuxImage {
    private final ByteBuffer memory;

    public LinuxImage(int bytes) {
        memory = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    public LinuxImage u32(int offset, int value) {
        memory.putInt(offset, value);
        return this;
    }

    public LinuxImage u16(int offset, int value) {
        memory.putShort(offset, (short) value);
        return this;
    }

    public LinuxImage u8(int offset, int value) {
        memory.put(offset, (byte) value);
        return this;
    }

    /** {@code uuid_copy}: the 16 RFC bytes, most significant first. */
    public LinuxImage uuid(int offset, UUID uuid) {
        ByteBuffer.wrap(memory.array(), offset, 16).order(ByteOrder.BIG_ENDIAN)
                .putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
        return this;
    }

    /** {@code tb_xdp_fill_header}: route, length and sequence number, protocol UUID, type. */
    public LinuxImage xdpHeader(long route, int sequence, UUID protocol, int type) {
        u32(0, (int) (route >>> 32));
        u32(4, (int) route);
        u32(8, (memory.capacity() - 12) / 4 | (sequence << 27) & 0x1800_0000);
        uuid(12, protocol);
        return u32(28, type);
    }

    /** The wire bytes: every 4-byte group reversed, then the CRC word big-endian. */
    public byte[] wire() {
        byte[] mem = memory.array();
        byte[] wire = new byte[mem.length + 4];
        for (int i = 0; i < mem.length; i += 4) {
            wire[i] = mem[i + 3];
            wire[i + 1] = mem[i + 2];
            wire[i + 2] = mem[i + 1];
            wire[i + 3] = mem[i];
        }
        int crc = crc32c(wire, mem.length);
        wire[mem.length] = (byte) (crc >>> 24);
        wire[mem.length + 1] = (byte) (crc >>> 16);
        wire[mem.length + 2] = (byte) (crc >>> 8);
        wire[mem.length + 3] = (byte) crc;
        return wire;
    }

    /** Bit-by-bit CRC-32C (Castagnoli, reflected polynomial 0x82F63B78, init and final xor all ones). */
    public static int crc32c(byte[] data, int length) {
        int crc = 0xFFFF_FFFF;
        for (int i = 0; i < length; i++) {
            crc ^= data[i] & 0xFF;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 1) != 0 ? (crc >>> 1) ^ 0x82F6_3B78 : crc >>> 1;
            }
        }
        return ~crc;
    }
}
