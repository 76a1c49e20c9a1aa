package io.xdlink.rails.tcp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.UUID;

/**
 * The first record on a rail connection, from the host that connects: who it is, whom it wants, which rail of the
 * link it is, and the longest run records it takes. The accepting host knows the link from the listener that took
 * the connection, so the hello need not name it. Layout (big-endian, 40 bytes): magic {@code XDLR}, version, the
 * most frames of a run record this host takes as a power of two (its exponent; 0 from a build that announced
 * nothing, whose limit was {@link #ANNOUNCED_NOTHING} frames), rail index (u16), the sender's domain UUID, the
 * receiver's domain UUID. The run limit rode in a byte that the first builds left reserved and never read, so both
 * kinds of host still meet: each sends runs no longer than the other announced.
 *
 * @param from      domain of the connecting host
 * @param to        domain it expects to reach
 * @param index     rail number on the link, 0..65535
 * @param runFrames the most frames of a run record the connecting host takes: a power of two, 2..2^15
 */
public record RailHello(UUID from, UUID to, int index, int runFrames) {
    static final int MAGIC = 0x58444C52;
    static final int VERSION = 1;
    static final int BYTES = 40;
    /** The run limit of a host whose hello or reply left the byte at 0: the first builds' 64 frames (1 MiB). */
    public static final int ANNOUNCED_NOTHING = 64;
    /** The largest exponent a run limit may have: a run record counts its frames in 16 bits. */
    static final int MAX_RUN_EXPONENT = 15;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    public RailHello {
        if (index < 0 || index > 0xFFFF) {
            throw new IllegalArgumentException("rail index " + index + " is outside 0..65535");
        }
        runExponent(runFrames);
    }

    /** A hello announcing the runs this build takes ({@link TcpRailTransport#MAX_RUN_FRAMES}). */
    public RailHello(UUID from, UUID to, int index) {
        this(from, to, index, TcpRailTransport.MAX_RUN_FRAMES);
    }

    /** The wire form. */
    MemorySegment encode() {
        MemorySegment s = MemorySegment.ofArray(new byte[BYTES]);
        s.set(INT, 0, MAGIC);
        s.set(ValueLayout.JAVA_BYTE, 4, (byte) VERSION);
        s.set(ValueLayout.JAVA_BYTE, 5, (byte) runExponent(runFrames));
        s.set(SHORT, 6, (short) index);
        putUuid(s, 8, from);
        putUuid(s, 24, to);
        return s;
    }

    /** Reads a hello; the stream is named in the error. */
    static RailHello decode(MemorySegment s, String stream) throws StreamFormatException {
        checkHeader(s, BYTES, stream, "hello");
        return new RailHello(getUuid(s, 8), getUuid(s, 24), Short.toUnsignedInt(s.get(SHORT, 6)),
                announcedRunFrames(s, 5, stream, "hello"));
    }

    /** The exponent that announces {@code runFrames}; refuses a count that is no power of two in 2..2^15. */
    static int runExponent(int runFrames) {
        int exponent = Integer.numberOfTrailingZeros(runFrames);
        if (runFrames < 2 || Integer.bitCount(runFrames) != 1 || exponent > MAX_RUN_EXPONENT) {
            throw new IllegalArgumentException("a run limit of " + runFrames
                    + " frames; it is a power of two in 2..2^" + MAX_RUN_EXPONENT);
        }
        return exponent;
    }

    /** The run limit announced in the byte at {@code at}: 0 is a build that announced nothing. */
    private static int announcedRunFrames(MemorySegment s, long at, String stream, String what) throws StreamFormatException {
        int exponent = Byte.toUnsignedInt(s.get(ValueLayout.JAVA_BYTE, at));
        if (exponent == 0) {
            return ANNOUNCED_NOTHING;
        }
        if (exponent > MAX_RUN_EXPONENT) {
            throw new StreamFormatException(stream + ": rail " + what + " announces runs of 2^" + exponent
                    + " frames; a run holds at most 2^" + MAX_RUN_EXPONENT);
        }
        return 1 << exponent;
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
     * The accepting host's answer: its domain, whether it took the rail and the longest run records it takes. Layout
     * (24 bytes): magic, version, status, the run limit's exponent as in the hello (0 from a build that announced
     * nothing), a reserved byte, the acceptor's domain UUID.
     *
     * @param runFrames the most frames of a run record the accepting host takes: a power of two, 2..2^15
     */
    record Reply(UUID from, Status status, int runFrames) {
        static final int BYTES = 24;

        Reply {
            runExponent(runFrames);
        }

        /** A reply announcing the runs this build takes. */
        Reply(UUID from, Status status) {
            this(from, status, TcpRailTransport.MAX_RUN_FRAMES);
        }

        MemorySegment encode() {
            MemorySegment s = MemorySegment.ofArray(new byte[BYTES]);
            s.set(INT, 0, MAGIC);
            s.set(ValueLayout.JAVA_BYTE, 4, (byte) VERSION);
            s.set(ValueLayout.JAVA_BYTE, 5, (byte) status.ordinal());
            s.set(ValueLayout.JAVA_BYTE, 6, (byte) runExponent(runFrames));
            putUuid(s, 8, from);
            return s;
        }

        static Reply decode(MemorySegment s, String stream) throws StreamFormatException {
            checkHeader(s, BYTES, stream, "reply");
            int code = Byte.toUnsignedInt(s.get(ValueLayout.JAVA_BYTE, 5));
            if (code >= Status.values().length) {
                throw new StreamFormatException(stream + ": rail reply status " + code + " is unknown");
            }
            return new Reply(getUuid(s, 8), Status.values()[code], announcedRunFrames(s, 6, stream, "reply"));
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
