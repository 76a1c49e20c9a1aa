package io.xdlink.rails.frame;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.UUID;
import io.xdlink.rails.RailTransport;

import static io.xdlink.rails.frame.FrameLayout.*;

/**
 * Writes frames in place, field by field, into whatever memory the rail offers (a transport's ring slot, a socket
 * batch buffer), so a frame is built once and never copied. Write the common header, the opcode's fields and the
 * payload, then {@link #seal} the frame to add its CRC. Field writers are static; sealing needs the per-thread CRC.
 */
public final class FrameEncoder {
    private final Crc32cSegment crc = new Crc32cSegment();

    /** Bytes of a frame with this opcode and payload length, header and trailer included. */
    public static int frameBytes(Opcode op, int payloadLength) {
        return op.headerBytes() + payloadLength + TRAILER_BYTES;
    }

    /** The common header: 16 bytes at {@code o}. */
    public static void common(MemorySegment b, long o, Opcode op, int flags, int epoch, int seq, int credit,
                              int echo, int payloadLength) {
        // Two big-endian words rather than eight fields: the same 16 bytes, written once per frame with a quarter
        // of the segment accesses (each one checked).
        b.set(U64, o + OFF_VERSION, (long) VERSION << 56 | (op.code() & 0xFFL) << 48 | (flags & 0xFFL) << 40
                | (epoch & 0xFFL) << 32 | (seq & 0xFFFF_FFFFL));
        b.set(U64, o + OFF_CREDIT, (long) credit << 32 | (echo & 0xFFFFL) << 16 | (payloadLength & 0xFFFFL));
    }

    /** The fields every data opcode starts with. */
    public static void data(MemorySegment b, long o, int qpn, int msn, int psn, long offset, long total) {
        b.set(U64, o + OFF_QPN, (long) qpn << 32 | (msn & 0xFFFF_FFFFL));
        b.set(U64, o + OFF_PSN, (long) psn << 32 | (offset & 0xFFFF_FFFFL));
        b.set(U32, o + OFF_TOTAL, (int) total);
    }

    /**
     * The fields every WRITE and WRITE_WITH_IMM carries, the data fields and the target, in four words: the same
     * bytes {@link #data} and {@link #target} write in six.
     */
    public static void dataAndTarget(MemorySegment b, long o, int qpn, int msn, int psn, long offset, long total,
                                     int rkey, long raddr) {
        b.set(U64, o + OFF_QPN, (long) qpn << 32 | (msn & 0xFFFF_FFFFL));
        b.set(U64, o + OFF_PSN, (long) psn << 32 | (offset & 0xFFFF_FFFFL));
        b.set(U64, o + OFF_TOTAL, total << 32 | (rkey & 0xFFFF_FFFFL));
        b.set(U64, o + OFF_RADDR, raddr);
    }

    /** WRITE and WRITE_WITH_IMM: where the message goes. */
    public static void target(MemorySegment b, long o, int rkey, long raddr) {
        b.set(U32, o + OFF_RKEY, rkey);
        b.set(U64, o + OFF_RADDR, raddr);
    }

    /** WRITE_WITH_IMM: the immediate and the receive it consumes. */
    public static void writeImm(MemorySegment b, long o, int imm, int recvIndex) {
        b.set(U32, o + OFF_WRITE_IMM, imm);
        b.set(U32, o + OFF_WRITE_RECV_INDEX, recvIndex);
    }

    /** SEND: the receive it consumes and its immediate (0 without the IMMEDIATE flag). */
    public static void send(MemorySegment b, long o, int recvIndex, int imm) {
        b.set(U32, o + OFF_SEND_RECV_INDEX, recvIndex);
        b.set(U32, o + OFF_SEND_IMM, imm);
    }

    public static void credit(MemorySegment b, long o, int nextSeq) {
        b.set(U32, o + OFF_NEXT_SEQ, nextSeq);
    }

    public static void nak(MemorySegment b, long o, int qpn, int msn, NakReason reason) {
        b.set(U32, o + OFF_NAK_QPN, qpn);
        b.set(U32, o + OFF_NAK_MSN, msn);
        b.set(U32, o + OFF_NAK_REASON, reason.code() << 24);
    }

    public static void hello(MemorySegment b, long o, UUID device, int rail, int frameBytes, int window) {
        b.set(U64, o + OFF_HELLO_UUID_MSB, device.getMostSignificantBits());
        b.set(U64, o + OFF_HELLO_UUID_LSB, device.getLeastSignificantBits());
        b.set(U16, o + OFF_HELLO_RAIL, (short) rail);
        b.set(U16, o + OFF_HELLO_FRAME_BYTES, (short) frameBytes);
        b.set(U32, o + OFF_HELLO_WINDOW, window);
    }

    /**
     * CONNECT_REQUEST ({@code listenerOrDst} is the listener id) and CONNECT_REPLY ({@code listenerOrDst} is the
     * requester's queue pair).
     */
    public static void connect(MemorySegment b, long o, long connId, int listenerOrDst, int srcQpn, int maxMessages,
                               int psnWindow) {
        b.set(U64, o + OFF_CONN_ID, connId);
        b.set(U32, o + OFF_CONN_LISTENER, listenerOrDst);
        b.set(U32, o + OFF_CONN_SRC_QPN, srcQpn);
        b.set(U32, o + OFF_CONN_MAX_MESSAGES, maxMessages);
        b.set(U32, o + OFF_CONN_PSN_WINDOW, psnWindow);
    }

    public static void reject(MemorySegment b, long o, long connId, RejectReason reason) {
        b.set(U64, o + OFF_CONN_ID, connId);
        b.set(U32, o + OFF_REJECT_REASON, reason.code());
    }

    public static void disconnect(MemorySegment b, long o, int dstQpn, int srcQpn) {
        b.set(U32, o + OFF_DISC_DST_QPN, dstQpn);
        b.set(U32, o + OFF_DISC_SRC_QPN, srcQpn);
    }

    /** ACK payload length for a number of rail and queue pair entries. */
    public static int ackPayload(int rails, int qps) {
        return ACK_COUNTS + rails * ACK_RAIL_ENTRY + qps * ACK_QP_ENTRY;
    }

    public static void ackCounts(MemorySegment b, long o, int rails, int qps) {
        b.set(ValueLayout.JAVA_BYTE, o + COMMON_HEADER, (byte) rails);
        b.set(ValueLayout.JAVA_BYTE, o + COMMON_HEADER + 1, (byte) 0);
        b.set(U16, o + COMMON_HEADER + 2, (short) qps);
    }

    public static void ackRail(MemorySegment b, long o, int i, int rail, int epoch, int position, int credit,
                               long map) {
        long e = o + COMMON_HEADER + ACK_COUNTS + (long) i * ACK_RAIL_ENTRY;
        b.set(ValueLayout.JAVA_BYTE, e, (byte) rail);
        b.set(ValueLayout.JAVA_BYTE, e + 1, (byte) epoch);
        b.set(U32, e + 2, position);
        b.set(U32, e + 6, credit);
        b.set(U64, e + 10, map);
    }

    public static void ackQp(MemorySegment b, long o, int rails, int j, int qpn, int msn, int psn) {
        long e = o + COMMON_HEADER + ACK_COUNTS + (long) rails * ACK_RAIL_ENTRY + (long) j * ACK_QP_ENTRY;
        b.set(U32, e, qpn);
        b.set(U32, e + 4, msn);
        b.set(U32, e + 8, psn);
    }

    /**
     * Writes the trailer of a data frame laid out in two parts ({@link RailTransport#offerRun}): right after the
     * header at {@code o}, the CRC-32C of the header alone when the flags say {@link FrameFlags#PAYLOAD_UNCHECKED},
     * else of the header and then the payload where it lies.
     */
    public void sealHead(MemorySegment b, long o, Opcode op, MemorySegment payload, long payloadOffset,
                         int payloadLength) {
        sealHead(b, o, op, Byte.toUnsignedInt(b.get(ValueLayout.JAVA_BYTE, o + OFF_FLAGS)), payload, payloadOffset,
                payloadLength);
    }

    /** As above, for a caller that knows the flags it wrote into the header. */
    public void sealHead(MemorySegment b, long o, Opcode op, int flags, MemorySegment payload, long payloadOffset,
                         int payloadLength) {
        int value = FrameFlags.has(flags, FrameFlags.PAYLOAD_UNCHECKED) || payloadLength == 0
                ? crc.compute(b, o, op.headerBytes())
                : crc.compute(b, o, op.headerBytes(), payload, payloadOffset, payloadLength);
        b.set(U32, o + op.headerBytes(), value);
    }

    /**
     * Computes and writes the CRC-32C trailer of the {@code frameBytes}-long frame at {@code o}, over the header only
     * when the frame's flags say {@link FrameFlags#PAYLOAD_UNCHECKED}, else over everything before the trailer.
     */
    public void seal(MemorySegment b, long o, int frameBytes) {
        int flags = Byte.toUnsignedInt(b.get(ValueLayout.JAVA_BYTE, o + OFF_FLAGS));
        long covered;
        if (FrameFlags.has(flags, FrameFlags.PAYLOAD_UNCHECKED)) {
            Opcode op = Opcode.ofCode(Byte.toUnsignedInt(b.get(ValueLayout.JAVA_BYTE, o + OFF_OPCODE)));
            covered = op == null ? frameBytes - TRAILER_BYTES : op.headerBytes();
        } else {
            covered = frameBytes - TRAILER_BYTES;
        }
        b.set(U32, o + frameBytes - TRAILER_BYTES, crc.compute(b, o, covered));
    }
}
