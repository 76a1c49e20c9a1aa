package io.xdlink.rails.frame;

import io.xdlink.rails.RailInfo;

import java.lang.foreign.MemorySegment;
import java.util.UUID;

import static io.xdlink.rails.frame.FrameChecks.u16;
import static io.xdlink.rails.frame.FrameChecks.u8;
import static io.xdlink.rails.frame.FrameLayout.*;

/**
 * A reusable reader of one received frame: {@link #wrap} checks everything the format promises (sizes, version,
 * opcode, flags, lengths, CRC, per-opcode fields; the CRC may be left out for a transport that delivers frames
 * intact) and decodes the header into fields, so the engine reads a frame
 * without allocating. Nothing is trusted before the checks pass; nothing is sized from the frame's own numbers
 * beyond the frame's real length. One instance per receiving thread; valid until the next {@code wrap}.
 *
 * <p>Over 400 lines on purpose: most of it is one short accessor per wire field, which the engine reads in place;
 * the checks of fields the view does not keep are in {@link FrameChecks}.
 */
public final class FrameView {
    private final Crc32cSegment crc = new Crc32cSegment();

    private MemorySegment frame;
    private long base;
    private MemorySegment payloadSegment;
    private long payloadAt;
    private Opcode opcode;
    private int flags;
    private int epoch;
    private int seq;
    private int credit;
    private int echo;
    private int payloadLength;

    private int qpn;
    private int msn;
    private int psn;
    private long offset;
    private long total;
    private int rkey;
    private long raddr;
    private int imm;
    private int recvIndex;

    /**
     * Checks and decodes a frame.
     *
     * @return this view, reading {@code frame}
     * @throws FrameException naming the first field found wrong
     */
    public FrameView wrap(MemorySegment frame) throws FrameException {
        return wrap(frame, 0, frame.byteSize());
    }

    /**
     * Checks and decodes the frame of {@code size} bytes at {@code offset} of {@code buffer}, in place.
     *
     * @return this view, reading that frame
     * @throws FrameException naming the first field found wrong
     */
    public FrameView wrap(MemorySegment buffer, long offset, long size) throws FrameException {
        return wrap(buffer, offset, size, true);
    }

    /**
     * As {@link #wrap(MemorySegment, long, long)}, leaving out the CRC check when {@code checkCrc} is false: for a
     * frame from a rail that delivers frames intact ({@link RailInfo#intact()}).
     */
    public FrameView wrap(MemorySegment buffer, long offset, long size, boolean checkCrc) throws FrameException {
        this.frame = null;
        if (offset < 0 || size < 0 || offset > buffer.byteSize() - size) {
            throw new FrameException(FrameField.FRAME, size, "does not lie within its " + buffer.byteSize()
                    + "-byte buffer at offset " + offset);
        }
        if (size < COMMON_HEADER + TRAILER_BYTES) {
            throw new FrameException(FrameField.FRAME, size, "truncated: a frame has at least "
                    + (COMMON_HEADER + TRAILER_BYTES) + " bytes");
        }
        if (size > MAX_STREAM_FRAME_BYTES) {
            throw new FrameException(FrameField.FRAME, size, "longer than " + MAX_STREAM_FRAME_BYTES + " bytes");
        }
        long first = buffer.get(U64, offset + OFF_VERSION);
        Opcode op = FrameChecks.header(first);
        if (size < op.headerBytes() + TRAILER_BYTES) {
            throw new FrameException(FrameField.FRAME, size, "truncated: " + op + " has a " + op.headerBytes()
                    + "-byte header");
        }
        return decode(buffer, offset, op, first, buffer, offset + op.headerBytes(), size - op.headerBytes()
                - TRAILER_BYTES, offset + size - TRAILER_BYTES, checkCrc);
    }

    /**
     * Checks and decodes a frame in two parts, as a transport that carries payloads by reference delivers it: the
     * head ({@code headLength} bytes: the header, then the 4-byte trailer) and the payload, read in place.
     *
     * @return this view, reading that frame
     * @throws FrameException naming the first field found wrong
     */
    public FrameView wrap(MemorySegment head, long headOffset, int headLength, MemorySegment payload,
                          long payloadOffset, int payloadLength) throws FrameException {
        return wrap(head, headOffset, headLength, payload, payloadOffset, payloadLength, true);
    }

    /**
     * As {@link #wrap(MemorySegment, long, int, MemorySegment, long, int)}, leaving out the CRC check when
     * {@code checkCrc} is false.
     */
    public FrameView wrap(MemorySegment head, long headOffset, int headLength, MemorySegment payload,
                          long payloadOffset, int payloadLength, boolean checkCrc) throws FrameException {
        this.frame = null;
        if (payloadOffset < 0 || payloadLength < 0 || payloadOffset > payload.byteSize() - payloadLength) {
            throw new FrameException(FrameField.LENGTH, payloadLength, "payload does not lie within its "
                    + payload.byteSize() + "-byte buffer at offset " + payloadOffset);
        }
        return parts(head, headOffset, headLength, payload, payloadOffset, payloadLength, checkCrc);
    }

    /**
     * Checks and decodes the head of a data frame whose {@code payloadLength} payload bytes have not arrived yet: a
     * transport that reads payloads straight into their place asks where one goes before it reads it. Every check
     * but the CRC's, which needs the payload; the view has no payload then ({@link #payloadSegment()} is null), and
     * the frame is wrapped again, whole, once its payload is in.
     *
     * @return this view, reading that head
     * @throws FrameException naming the first field found wrong, or the opcode when it is not a data frame's
     */
    public FrameView wrapHead(MemorySegment head, long headOffset, int headLength, int payloadLength)
            throws FrameException {
        this.frame = null;
        if (payloadLength < 0) {
            throw new FrameException(FrameField.LENGTH, payloadLength, "a payload length below zero");
        }
        parts(head, headOffset, headLength, null, 0, payloadLength, false);
        if (!opcode.isData()) {
            this.frame = null;
            throw new FrameException(FrameField.OPCODE, opcode.code(), opcode + " is not a data frame");
        }
        return this;
    }

    private FrameView parts(MemorySegment head, long headOffset, int headLength, MemorySegment payload,
                            long payloadOffset, int payloadLength, boolean checkCrc) throws FrameException {
        if (headOffset < 0 || headLength < 0 || headOffset > head.byteSize() - headLength) {
            throw new FrameException(FrameField.FRAME, headLength, "head does not lie within its "
                    + head.byteSize() + "-byte buffer at offset " + headOffset);
        }
        if (headLength < COMMON_HEADER + TRAILER_BYTES) {
            throw new FrameException(FrameField.FRAME, headLength, "truncated: a frame has at least "
                    + (COMMON_HEADER + TRAILER_BYTES) + " bytes");
        }
        if ((long) headLength + payloadLength > MAX_STREAM_FRAME_BYTES) {
            throw new FrameException(FrameField.FRAME, (long) headLength + payloadLength, "longer than "
                    + MAX_STREAM_FRAME_BYTES + " bytes");
        }
        long first = head.get(U64, headOffset + OFF_VERSION);
        Opcode op = FrameChecks.header(first);
        if (op.headerBytes() + TRAILER_BYTES != headLength) {
            throw new FrameException(FrameField.FRAME, headLength, "a head is the " + op.headerBytes()
                    + "-byte header of " + op + " and the trailer");
        }
        if (!op.isData() && payloadLength > 0) {
            throw new FrameException(FrameField.OPCODE, op.code(), op + " does not come in two parts: only data "
                    + "frames do");
        }
        return decode(head, headOffset, op, first, payload, payloadOffset, payloadLength,
                headOffset + op.headerBytes(), checkCrc);
    }

    private FrameView decode(MemorySegment frame, long b, Opcode op, long first, MemorySegment payload,
                             long payloadAt, long payloadBytes, long trailerAt, boolean checkCrc)
            throws FrameException {
        // The common header as two big-endian words: version, opcode, flags, epoch, seq; credit, echo, length.
        long second = frame.get(U64, b + OFF_CREDIT);
        int f = (int) (first >>> 40) & 0xFF;
        int length = (int) second & 0xFFFF;
        if (length != payloadBytes) {
            throw new FrameException(FrameField.LENGTH, length, "payload length does not match the frame's "
                    + (op.headerBytes() + payloadBytes + TRAILER_BYTES) + " bytes");
        }
        if (checkCrc) {
            checkCrc(frame, b, op, f, payload, payloadAt, payloadBytes, trailerAt);
        }
        this.opcode = op;
        this.flags = f;
        this.epoch = (int) (first >>> 32) & 0xFF;
        this.seq = (int) first;
        this.credit = (int) (second >>> 32);
        this.echo = (int) (second >>> 16) & 0xFFFF;
        this.payloadLength = length;
        switch (op) {
            case WRITE, WRITE_WITH_IMM, SEND -> decodeData(frame, b, op, f, length);
            case ACK -> FrameChecks.ack(frame, b, length);
            case CREDIT, HELLO, NAK, CONNECT_REQUEST, CONNECT_REPLY, CONNECT_REJECT, DISCONNECT ->
                    FrameChecks.control(frame, b, op, length);
        }
        this.frame = frame;
        this.base = b;
        this.payloadSegment = payload;
        this.payloadAt = payloadAt;
        return this;
    }

    private void checkCrc(MemorySegment frame, long b, Opcode op, int f, MemorySegment payload, long payloadAt,
                          long payloadBytes, long trailerAt) throws FrameException {
        int expected;
        try {
            expected = FrameFlags.has(f, FrameFlags.PAYLOAD_UNCHECKED) || payloadBytes == 0
                    ? crc.compute(frame, b, op.headerBytes())
                    : crc.compute(frame, b, op.headerBytes(), payload, payloadAt, payloadBytes);
        } catch (RuntimeException gone) {
            // A payload carried by reference whose memory its owner closed, or another thread owns.
            throw new FrameException(FrameField.CRC, 0, "payload unreadable: " + gone.getMessage());
        }
        int actual = frame.get(U32, trailerAt);
        if (expected != actual) {
            throw new FrameException(FrameField.CRC, Integer.toUnsignedLong(actual), "CRC-32C mismatch, computed "
                    + Integer.toUnsignedString(expected));
        }
    }

    private void decodeData(MemorySegment f, long b, Opcode op, int fl, int length) throws FrameException {
        long qpnMsn = f.get(U64, b + OFF_QPN);
        qpn = (int) (qpnMsn >>> 32);
        if (qpn == 0) {
            throw new FrameException(FrameField.QPN, 0, "queue pair 0 does not exist");
        }
        msn = (int) qpnMsn;
        long psnOffset = f.get(U64, b + OFF_PSN);
        psn = (int) (psnOffset >>> 32);
        offset = psnOffset & 0xFFFF_FFFFL;
        // The total and the word after it (the remote key, or a SEND's receive index) in one read.
        long totalNext = f.get(U64, b + OFF_TOTAL);
        total = totalNext >>> 32;
        if (offset + length > total) {
            throw new FrameException(FrameField.OFFSET, offset, length + " bytes at this offset overrun the message's "
                    + total + " bytes");
        }
        switch (op) {
            case WRITE -> {
                rkey = (int) totalNext;
                raddr = f.get(U64, b + OFF_RADDR);
                imm = 0;
                recvIndex = 0;
            }
            case WRITE_WITH_IMM -> {
                rkey = (int) totalNext;
                raddr = f.get(U64, b + OFF_RADDR);
                long immIndex = f.get(U64, b + OFF_WRITE_IMM);
                imm = (int) (immIndex >>> 32);
                recvIndex = (int) immIndex;
            }
            default -> {
                rkey = 0;
                raddr = 0;
                recvIndex = (int) totalNext;
                imm = f.get(U32, b + OFF_SEND_IMM);
                if (imm != 0 && !FrameFlags.has(fl, FrameFlags.IMMEDIATE)) {
                    throw new FrameException(FrameField.IMMEDIATE, Integer.toUnsignedLong(imm),
                            "an immediate without the IMMEDIATE flag");
                }
            }
        }
    }

    /** The buffer holding the frame this view reads (the frame starts at {@link #base()}). */
    public MemorySegment frame() {
        return frame;
    }

    /** Where the frame starts in {@link #frame()}. */
    public long base() {
        return base;
    }

    public Opcode opcode() {
        return opcode;
    }

    public int flags() {
        return flags;
    }

    public boolean hasFlag(int flag) {
        return FrameFlags.has(flags, flag);
    }

    public int epoch() {
        return epoch;
    }

    /** Sequenced frames: the rail sequence. Unsequenced frames: the sender's unsequenced counter. */
    public int seq() {
        return seq;
    }

    /** How far the recipient may send on this rail: the sender's receive position plus its window. */
    public int credit() {
        return credit;
    }

    /** Low 16 bits of the highest unsequenced counter the sender has received on this rail. */
    public int echo() {
        return echo;
    }

    public int payloadLength() {
        return payloadLength;
    }

    /** The memory holding the payload: {@link #frame()}, or the sender's own for a frame carried by reference. */
    public MemorySegment payloadSegment() {
        return payloadSegment;
    }

    /** Where the payload starts in {@link #payloadSegment()}. */
    public long payloadOffset() {
        return payloadAt;
    }

    // Data frames

    public int qpn() {
        return qpn;
    }

    public int msn() {
        return msn;
    }

    public int psn() {
        return psn;
    }

    /** Where this frame's bytes go within the message. */
    public long offset() {
        return offset;
    }

    /** The message's length. */
    public long total() {
        return total;
    }

    public int rkey() {
        return rkey;
    }

    public long raddr() {
        return raddr;
    }

    public int imm() {
        return imm;
    }

    /** Which posted receive (counted from the first ever posted on the queue pair) this message consumes. */
    public int recvIndex() {
        return recvIndex;
    }

    // CREDIT

    public int nextSeq() {
        return frame.get(U32, base + OFF_NEXT_SEQ);
    }

    // NAK

    public int nakQpn() {
        return frame.get(U32, base + OFF_NAK_QPN);
    }

    public int nakMsn() {
        return frame.get(U32, base + OFF_NAK_MSN);
    }

    public NakReason nakReason() {
        return NakReason.ofCode(u8(frame, base + OFF_NAK_REASON));
    }

    // HELLO

    public UUID helloDevice() {
        return new UUID(frame.get(U64, base + OFF_HELLO_UUID_MSB), frame.get(U64, base + OFF_HELLO_UUID_LSB));
    }

    public int helloRail() {
        return u16(frame, base + OFF_HELLO_RAIL);
    }

    public int helloFrameBytes() {
        return u16(frame, base + OFF_HELLO_FRAME_BYTES);
    }

    public int helloWindow() {
        return frame.get(U32, base + OFF_HELLO_WINDOW);
    }

    // CONNECT_REQUEST, CONNECT_REPLY, CONNECT_REJECT

    public long connId() {
        return frame.get(U64, base + OFF_CONN_ID);
    }

    public int connListener() {
        return frame.get(U32, base + OFF_CONN_LISTENER);
    }

    public int connDstQpn() {
        return frame.get(U32, base + OFF_CONN_DST_QPN);
    }

    public int connSrcQpn() {
        return frame.get(U32, base + OFF_CONN_SRC_QPN);
    }

    public int connMaxMessages() {
        return frame.get(U32, base + OFF_CONN_MAX_MESSAGES);
    }

    public int connPsnWindow() {
        return frame.get(U32, base + OFF_CONN_PSN_WINDOW);
    }

    public RejectReason rejectReason() {
        return RejectReason.ofCode(Integer.toUnsignedLong(frame.get(U32, base + OFF_REJECT_REASON)));
    }

    // DISCONNECT

    public int disconnectDstQpn() {
        return frame.get(U32, base + OFF_DISC_DST_QPN);
    }

    public int disconnectSrcQpn() {
        return frame.get(U32, base + OFF_DISC_SRC_QPN);
    }

    // ACK

    public int ackRailCount() {
        return u8(frame, base + COMMON_HEADER);
    }

    public int ackQpCount() {
        return u16(frame, base + COMMON_HEADER + 2);
    }

    private long ackRailBase(int i) {
        return base + COMMON_HEADER + ACK_COUNTS + (long) i * ACK_RAIL_ENTRY;
    }

    /** The rail number, as the recipient of the ACK numbers its rails. */
    public int ackRail(int i) {
        return u8(frame, ackRailBase(i));
    }

    public int ackRailEpoch(int i) {
        return u8(frame, ackRailBase(i) + 1);
    }

    /** One past the highest sequence the ACK's sender has seen on that rail: everything below is settled. */
    public int ackPosition(int i) {
        return frame.get(U32, ackRailBase(i) + 2);
    }

    public int ackCredit(int i) {
        return frame.get(U32, ackRailBase(i) + 6);
    }

    /** Bit k set: sequence {@code position - 1 - k} arrived. */
    public long ackMap(int i) {
        return frame.get(U64, ackRailBase(i) + 10);
    }

    private long ackQpBase(int j) {
        return base + COMMON_HEADER + ACK_COUNTS + (long) ackRailCount() * ACK_RAIL_ENTRY + (long) j * ACK_QP_ENTRY;
    }

    /** The queue pair, as the recipient of the ACK numbers it. */
    public int ackQpn(int j) {
        return frame.get(U32, ackQpBase(j));
    }

    /** Every message below this one is complete at the ACK's sender. */
    public int ackMsn(int j) {
        return frame.get(U32, ackQpBase(j) + 4);
    }

    /** Every frame below this packet sequence number has arrived at the ACK's sender. */
    public int ackPsn(int j) {
        return frame.get(U32, ackQpBase(j) + 8);
    }
}
