package io.xdlink.rails.tcp;

import java.nio.ByteBuffer;
import java.util.UUID;
import java.nio.ByteOrder;

/**
 * The datagram a host sends on each of its links to say that it is there: its domain UUID and the port its session
 * listener has on that link. It goes to the link's limited broadcast (IPv4) or all-nodes multicast (IPv6) address,
 * so the far end of the cable finds it whatever subnet the two ends were given (a /24, NetworkManager's
 * 169.254/16, IPv6 link-local only), and dials the session listener at the address the datagram came from.
 *
 * <p>Layout (big-endian, exactly {@value #BYTES} bytes): magic {@code XDLH}, version 1, flags (0), the session port
 * (u16, 1..65535), the sender's domain UUID (never nil). Anything else on the port (another program's datagram, a
 * truncated or padded one, a later version) is refused by {@link #decode} with the field and value named.
 *
 * @param host        the sender's domain UUID
 * @param sessionPort the TCP port of the sender's session listener on the link
 */
public record LinkHello(UUID host, int sessionPort) {
    public static final int BYTES = 24;
    static final int MAGIC = 0x58444C48;
    static final int VERSION = 1;

    public LinkHello {
        if (host == null || (host.getMostSignificantBits() == 0 && host.getLeastSignificantBits() == 0)) {
            throw new IllegalArgumentException("a link hello needs a host UUID that is not nil: " + host);
        }
        if (sessionPort < 1 || sessionPort > 0xFFFF) {
            throw new IllegalArgumentException("session port " + sessionPort + " is outside 1..65535");
        }
    }

    /** The wire form: {@value #BYTES} bytes. */
    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(BYTES);
        b.putInt(MAGIC).put((byte) VERSION).put((byte) 0).putShort((short) sessionPort)
                .putLong(host.getMostSignificantBits()).putLong(host.getLeastSignificantBits());
        return b.array();
    }

    /**
     * Reads a hello from {@code datagram}'s remaining bytes without moving its position.
     *
     * @throws StreamFormatException naming the field and value when the bytes are not exactly one hello
     */
    public static LinkHello decode(ByteBuffer datagram) throws StreamFormatException {
        ByteBuffer b = datagram.duplicate().order(ByteOrder.BIG_ENDIAN);
        if (b.remaining() != BYTES) {
            throw new StreamFormatException("link hello is " + b.remaining() + " bytes, expected " + BYTES);
        }
        int magic = b.getInt();
        if (magic != MAGIC) {
            throw new StreamFormatException("link hello magic 0x" + Integer.toHexString(magic) + " is not 0x"
                    + Integer.toHexString(MAGIC) + " (not an xdlink hello)");
        }
        int version = Byte.toUnsignedInt(b.get());
        if (version != VERSION) {
            throw new StreamFormatException("link hello version " + version + " is not " + VERSION);
        }
        int flags = Byte.toUnsignedInt(b.get());
        if (flags != 0) {
            throw new StreamFormatException("link hello flags 0x" + Integer.toHexString(flags) + " are not 0");
        }
        int port = Short.toUnsignedInt(b.getShort());
        if (port == 0) {
            throw new StreamFormatException("link hello session port 0 is outside 1..65535");
        }
        long hi = b.getLong();
        long lo = b.getLong();
        if (hi == 0 && lo == 0) {
            throw new StreamFormatException("link hello host UUID is nil");
        }
        return new LinkHello(new UUID(hi, lo), port);
    }
}
