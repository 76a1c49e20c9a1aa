package io.xdlink.rails.frame;

/**
 * What a frame is. Data opcodes move bytes of a message; sequenced control frames take a place in the rail's
 * sequence and its credit window like data; unsequenced frames (credit updates and the rail handshake) do not, and
 * have a small budget of their own (see the package documentation).
 */
public enum Opcode {
    /** Bytes of an RDMA write, placed at the remote address under the remote key. */
    WRITE(0x01, FrameLayout.WRITE_HEADER, Kind.DATA,
            FrameFlags.PAYLOAD_UNCHECKED | FrameFlags.ACK_REQUEST | FrameFlags.ACK_LAZY),
    /** Bytes of an RDMA write that also consumes a posted receive and delivers an immediate. */
    WRITE_WITH_IMM(0x02, FrameLayout.WRITE_IMM_HEADER, Kind.DATA,
            FrameFlags.PAYLOAD_UNCHECKED | FrameFlags.ACK_REQUEST | FrameFlags.ACK_LAZY),
    /** Bytes of a send, placed into the posted receive the frame names. */
    SEND(0x03, FrameLayout.SEND_HEADER, Kind.DATA,
            FrameFlags.PAYLOAD_UNCHECKED | FrameFlags.ACK_REQUEST | FrameFlags.IMMEDIATE | FrameFlags.ACK_LAZY),
    /** Cumulative acknowledgement of every rail of a peer and of queue pairs' progress. */
    ACK(0x10, FrameLayout.COMMON_HEADER, Kind.SEQUENCED_CONTROL, 0),
    /** A standalone credit update or credit probe for the rail it travels on. */
    CREDIT(0x11, FrameLayout.CREDIT_HEADER, Kind.UNSEQUENCED, FrameFlags.ACK_REQUEST),
    /** A message that the receiver refused: not ready, access violation, bad request, queue pair gone. */
    NAK(0x12, FrameLayout.NAK_HEADER, Kind.SEQUENCED_CONTROL, 0),
    /** The rail handshake: who is at the other end, which epoch, how large its receive ring is. */
    HELLO(0x20, FrameLayout.HELLO_HEADER, Kind.UNSEQUENCED, FrameFlags.REPLY),
    /** Asks a listener for a connected queue pair. */
    CONNECT_REQUEST(0x30, FrameLayout.CONNECT_HEADER, Kind.SEQUENCED_CONTROL, 0),
    /** A listener's queue pair for a connection request. */
    CONNECT_REPLY(0x31, FrameLayout.CONNECT_HEADER, Kind.SEQUENCED_CONTROL, 0),
    /** A listener refused a connection request. */
    CONNECT_REJECT(0x32, FrameLayout.REJECT_HEADER, Kind.SEQUENCED_CONTROL, 0),
    /** A queue pair is gone; its peer moves to the error state. */
    DISCONNECT(0x33, FrameLayout.DISCONNECT_HEADER, Kind.SEQUENCED_CONTROL, 0);

    /** How an opcode relates to the rail's sequence and credits. */
    public enum Kind {
        /** Carries message bytes; sequenced; retransmitted when lost. */
        DATA,
        /** Sequenced and credited, but never retransmitted: what it says is said again when needed. */
        SEQUENCED_CONTROL,
        /** Outside the sequence; limited by the unsequenced budget. */
        UNSEQUENCED
    }

    private static final Opcode[] BY_CODE = new Opcode[256];

    static {
        for (Opcode o : values()) {
            BY_CODE[o.code] = o;
        }
    }

    private final int code;
    private final int headerBytes;
    private final Kind kind;
    private final int allowedFlags;

    Opcode(int code, int headerBytes, Kind kind, int allowedFlags) {
        this.code = code;
        this.headerBytes = headerBytes;
        this.kind = kind;
        this.allowedFlags = allowedFlags;
    }

    /** The byte on the wire. */
    public int code() {
        return code;
    }

    /** Header bytes of this opcode, the common header included, the CRC trailer excluded. */
    public int headerBytes() {
        return headerBytes;
    }

    public Kind kind() {
        return kind;
    }

    /** True for opcodes that carry message bytes. */
    public boolean isData() {
        return kind == Kind.DATA;
    }

    /** True for opcodes that take a place in the rail's sequence. */
    public boolean isSequenced() {
        return kind != Kind.UNSEQUENCED;
    }

    /** The flags this opcode may carry; any other bit set is malformed. */
    public int allowedFlags() {
        return allowedFlags;
    }

    /** Largest payload one frame of this opcode carries when frames are at most {@code frameBytes} long. */
    public int maxPayload(int frameBytes) {
        return frameBytes - headerBytes - FrameLayout.TRAILER_BYTES;
    }

    /** The opcode of a wire byte, or null when no opcode has that code. */
    public static Opcode ofCode(int code) {
        return code < 0 || code > 255 ? null : BY_CODE[code];
    }
}
