package io.xdlink.rails.verbs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.UUID;

/**
 * Where a listener is: the device's identity and the listener's small id. Its bytes ({@link #BYTES} of them) fit a
 * collective library's 128-byte handle with room to spare, and name nothing that depends on which peer reads them.
 *
 * <pre>
 *  0 u32 magic "XDLH"   4 u8 version 1   5..7 zero   8 uuid device (16)   24 u32 listener id
 * </pre>
 *
 * @param device     the listening device's identity ({@link Device#id()})
 * @param listenerId the listener, never 0
 */
public record ConnectHandle(UUID device, int listenerId) {
    /** Bytes of a handle. */
    public static final int BYTES = 28;
    private static final int MAGIC = 0x58444C48;
    private static final int VERSION = 1;

    public ConnectHandle {
        Objects.requireNonNull(device, "device");
        if (listenerId == 0) {
            throw new IllegalArgumentException("listener id 0 does not exist");
        }
    }

    /** The handle's bytes. */
    public byte[] toBytes() {
        ByteBuffer b = ByteBuffer.allocate(BYTES).order(ByteOrder.BIG_ENDIAN);
        b.putInt(MAGIC).put((byte) VERSION).put((byte) 0).putShort((short) 0);
        b.putLong(device.getMostSignificantBits()).putLong(device.getLeastSignificantBits());
        b.putInt(listenerId);
        return b.array();
    }

    /**
     * Reads a handle from the first {@link #BYTES} of {@code bytes} (a longer buffer, such as a 128-byte handle,
     * is fine; the rest is ignored).
     *
     * @throws HandleFormatException naming the field that is wrong
     */
    public static ConnectHandle parse(byte[] bytes) throws HandleFormatException {
        if (bytes == null || bytes.length < BYTES) {
            throw new HandleFormatException("a connect handle has " + BYTES + " bytes, got "
                    + (bytes == null ? "none" : bytes.length));
        }
        ByteBuffer b = ByteBuffer.wrap(bytes, 0, BYTES).order(ByteOrder.BIG_ENDIAN);
        int magic = b.getInt();
        if (magic != MAGIC) {
            throw new HandleFormatException("magic 0x" + Integer.toHexString(magic) + " is not an xdlink handle's 0x"
                    + Integer.toHexString(MAGIC));
        }
        int version = Byte.toUnsignedInt(b.get());
        if (version != VERSION) {
            throw new HandleFormatException("version " + version + ": this end reads version " + VERSION);
        }
        int reserved = Byte.toUnsignedInt(b.get()) | Short.toUnsignedInt(b.getShort());
        if (reserved != 0) {
            throw new HandleFormatException("reserved bytes 5..7 must be 0, not " + reserved);
        }
        UUID device = new UUID(b.getLong(), b.getLong());
        int listener = b.getInt();
        if (listener == 0) {
            throw new HandleFormatException("listener id 0 does not exist");
        }
        return new ConnectHandle(device, listener);
    }
}
