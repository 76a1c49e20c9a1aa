package io.xdlink.rails.tcp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.UUID;

/**
 * The first record on a rail connection, from the host that connects: who it is, whom it wants, and which rail of
 * the link it is. The accepting host knows the link from the listener that took the connection, so the hello need
 * not name it. Layout (big-endian, 40 bytes): magic {@code XDLR}, version, reserved byte, rail index (u16), the
 * sender's domain UUID, the receiver's domain UUID.
 *
 * @param from  domain of the connecting host
 * @param to    domain it expects to reach
 * @param index rail number on the link, 0..65535
 */
public record RailHello(UUID from, UUID to, int index) {
    static final int MAGIC = 0x58444C52;
    static final int VERSION = 1;
    static final int BYTES = 40;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    public RailHello {
        if (index < 0 || index > 0xFFFF) {
            throw new IllegalArgumentException("rail index " + index + " is outside 0..65535");
        }
    }

    /** The wire form. */
    MemorySegment encode() {
        MemorySegment s = MemorySegment.ofArray(new byte[BYTES]);
        s.set(INT, 0, MAGIC);
        s.set(ValueLayout.JAVA_BYTE, 4, (byte) VERSION);
        s.set(SHORT, 6, (short) index);
        putUuid(s, 8, from);
        putUuid(s, 24, to);
        return s;
    }

    /** Reads a hello; the stream is named in the error. */
    static RailHello decode(MemorySegment s, String stream) throws StreamFormatException {
        checkHeader(s, BYTES, stream, "hello");
        return new RailHello(getUuid(s, 8), getUuid(s, 24), Short.toUnsignedInt(s.get(SHORT, 6)));
    }

    static void checkHeader(MemorySegment s, int bytes, String stream, String what) throws StreamFormatException {
        if (s.byteSize() != bytes) {
            throw new StreamFormatException(stream + ": rail " + what + " is " + s.byteSize() + " bytes, expected " + bytes);
        }
        int magic = s.get(INT, 0);
        if (magic != MAGIC) {
            throw new StreamFormatException(stream + ": rail " + what + " magic 0x" + Integer.toHexString(magic)
                    + " is not 0x" + Integer.toHexString(MAGIC) + " (not an xdlink rail)");
        }
        int version = Byte.toUnsignedInt(s.get(ValueLayout.JAVA_BYTE, 4));
        if (version != VERSION) {
            throw new StreamFormatException(stream + ": rail " + what + " version " + version + " is not " + VERSION);
        }
    }

    static void putUuid(MemorySegment s, long at, UUID uuid) {
        s.set(LONG, at, uuid.getMostSignificantBits());
        s.set(LONG, at + 8, uuid.getLeastSignificantBits());
    }

    static UUID getUuid(MemorySegment s, long at) {
        return new UUID(s.get(LONG, at), s.get(LONG, at + 8));
    }

    /**
     * The accepting host's answer: its domain and whether it took the rail. Layout (24 bytes): magic, version,
     * status, two reserved bytes, the acceptor's domain UUID.
     */
    record Reply(UUID from, Status status) {
        static final int BYTES = 24;

        MemorySegment encode() {
            MemorySegment s = MemorySegment.ofArray(new byte[BYTES]);
            s.set(INT, 0, MAGIC);
            s.set(ValueLayout.JAVA_BYTE, 4, (byte) VERSION);
            s.set(ValueLayout.JAVA_BYTE, 5, (byte) status.ordinal());
            putUuid(s, 8, from);
            return s;
        }

        static Reply decode(MemorySegment s, String stream) throws StreamFormatException {
            checkHeader(s, BYTES, stream, "reply");
            int code = Byte.toUnsignedInt(s.get(ValueLayout.JAVA_BYTE, 5));
            if (code >= Status.values().length) {
                throw new StreamFormatException(stream + ": rail reply status " + code + " is unknown");
            }
            return new Reply(getUuid(s, 8), Status.values()[code]);
        }
    }

    /** Whether the accepting host took the rail. */
    public enum Status {
        /** Taken: frames may flow. */
        ACCEPTED,
        /** The hello named another host as its destination. */
        WRONG_HOST,
        /** The accepting host has no session with the connecting one. */
        UNKNOWN_PEER,
        /** The accepting host is closing. */
        CLOSING
    }
}
