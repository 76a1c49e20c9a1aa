package io.xdlink.rails.frame;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static io.xdlink.rails.frame.FrameLayout.*;

/**
 * The checks {@link FrameView} runs on a received frame's fields that it does not keep: the common header's
 * version, opcode and flags, an ACK's counts and entries, and each control frame's fields. Apart from the view, so
 * that the view holds decoding and the accessors, and these rules read as one list. Nothing allocates unless a
 * check fails.
 */
final class FrameChecks {
    private FrameChecks() {
    }

    /** Version, opcode and flags: enough to know the header's size. */
    static Opcode header(long first) throws FrameException {
        // Version, opcode, flags and epoch: the high half of the common header's first word, which the caller read
        // once (it made sure the common header is there) and decode reads the rest of.
        int word = (int) (first >>> 32);
        int version = word >>> 24;
        if (version != VERSION) {
            throw new FrameException(FrameField.VERSION, version, "this end speaks version " + VERSION);
        }
        int code = (word >>> 16) & 0xFF;
        Opcode op = Opcode.ofCode(code);
        if (op == null) {
            throw new FrameException(FrameField.OPCODE, code, "unknown opcode");
        }
        int f = (word >>> 8) & 0xFF;
        if ((f & ~op.allowedFlags()) != 0) {
            throw new FrameException(FrameField.FLAGS, f, "bits not allowed on " + op);
        }
        return op;
    }

    static void ack(MemorySegment f, long b, int length) throws FrameException {
        if (length < ACK_COUNTS) {
            throw new FrameException(FrameField.LENGTH, length, "an ACK payload has at least " + ACK_COUNTS
                    + " bytes");
        }
        int rails = u8(f, b + COMMON_HEADER);
        int reserved = u8(f, b + COMMON_HEADER + 1);
        int qps = u16(f, b + COMMON_HEADER + 2);
        if (reserved != 0) {
            throw new FrameException(FrameField.RESERVED, reserved, "reserved byte of an ACK must be 0");
        }
        if (rails > MAX_ACK_RAILS) {
            throw new FrameException(FrameField.ACK_RAIL_COUNT, rails, "at most " + MAX_ACK_RAILS + " rails");
        }
        long expected = ACK_COUNTS + (long) rails * ACK_RAIL_ENTRY + (long) qps * ACK_QP_ENTRY;
        if (expected != length) {
            throw new FrameException(FrameField.ACK_QP_COUNT, qps, "with " + rails + " rails the ACK needs "
                    + expected + " payload bytes, it has " + length);
        }
        long base = b + COMMON_HEADER + ACK_COUNTS;
        long seen = 0;
        for (int i = 0; i < rails; i++) {
            int rail = u8(f, base + (long) i * ACK_RAIL_ENTRY);
            if (rail >= MAX_ACK_RAILS || (seen & (1L << rail)) != 0) {
                throw new FrameException(FrameField.ACK_RAIL, rail, "rail numbers are below " + MAX_ACK_RAILS
                        + " and appear once");
            }
            seen |= 1L << rail;
        }
        long qpBase = base + (long) rails * ACK_RAIL_ENTRY;
        for (int j = 0; j < qps; j++) {
            if (f.get(U32, qpBase + (long) j * ACK_QP_ENTRY) == 0) {
                throw new FrameException(FrameField.QPN, 0, "queue pair 0 does not exist");
            }
        }
    }

    static void control(MemorySegment f, long b, Opcode op, int length) throws FrameException {
        if (length != 0) {
            throw new FrameException(FrameField.LENGTH, length, op + " carries no payload");
        }
        switch (op) {
            case NAK -> {
                int reason = u8(f, b + OFF_NAK_REASON);
                if (NakReason.ofCode(reason) == null) {
                    throw new FrameException(FrameField.NAK_REASON, reason, "unknown reason");
                }
                int reserved = u8(f, b + OFF_NAK_RESERVED) | u16(f, b + OFF_NAK_RESERVED + 1);
                if (reserved != 0) {
                    throw new FrameException(FrameField.RESERVED, reserved, "reserved bytes of a NAK must be 0");
                }
                nonZero(f, b + OFF_NAK_QPN, FrameField.QPN);
            }
            case HELLO -> {
                int frameBytes = u16(f, b + OFF_HELLO_FRAME_BYTES);
                if (frameBytes < MIN_FRAME_BYTES || frameBytes > MAX_STREAM_FRAME_BYTES) {
                    throw new FrameException(FrameField.FRAME_BYTES, frameBytes, "must be " + MIN_FRAME_BYTES + ".."
                            + MAX_STREAM_FRAME_BYTES);
                }
                long window = Integer.toUnsignedLong(f.get(U32, b + OFF_HELLO_WINDOW));
                if (window < MIN_WINDOW || window > MAX_WINDOW) {
                    throw new FrameException(FrameField.WINDOW, window, "must be " + MIN_WINDOW + ".." + MAX_WINDOW);
                }
                int rail = u16(f, b + OFF_HELLO_RAIL);
                if (rail >= MAX_ACK_RAILS) {
                    throw new FrameException(FrameField.ACK_RAIL, rail, "rail numbers are below " + MAX_ACK_RAILS);
                }
            }
            case CONNECT_REQUEST, CONNECT_REPLY -> {
                nonZero(f, b + OFF_CONN_LISTENER, op == Opcode.CONNECT_REQUEST ? FrameField.LISTENER_ID
                        : FrameField.DST_QPN);
                nonZero(f, b + OFF_CONN_SRC_QPN, FrameField.SRC_QPN);
                long messages = Integer.toUnsignedLong(f.get(U32, b + OFF_CONN_MAX_MESSAGES));
                if (messages < 1 || messages > MAX_MESSAGES) {
                    throw new FrameException(FrameField.MAX_MESSAGES, messages, "must be 1.." + MAX_MESSAGES);
                }
                long window = Integer.toUnsignedLong(f.get(U32, b + OFF_CONN_PSN_WINDOW));
                if (window < MIN_PSN_WINDOW || window > MAX_PSN_WINDOW || Long.bitCount(window) != 1) {
                    throw new FrameException(FrameField.PSN_WINDOW, window, "must be a power of two in "
                            + MIN_PSN_WINDOW + ".." + MAX_PSN_WINDOW);
                }
            }
            case CONNECT_REJECT -> {
                long reason = Integer.toUnsignedLong(f.get(U32, b + OFF_REJECT_REASON));
                if (RejectReason.ofCode(reason) == null) {
                    throw new FrameException(FrameField.REJECT_REASON, reason, "unknown reason");
                }
            }
            case DISCONNECT -> {
                nonZero(f, b + OFF_DISC_DST_QPN, FrameField.DST_QPN);
                nonZero(f, b + OFF_DISC_SRC_QPN, FrameField.SRC_QPN);
            }
            default -> {
                // CREDIT: every next-sequence value is meaningful.
            }
        }
    }

    private static void nonZero(MemorySegment f, long off, FrameField field) throws FrameException {
        if (f.get(U32, off) == 0) {
            throw new FrameException(field, 0, "must not be 0");
        }
    }

    static int u8(MemorySegment f, long off) {
        return Byte.toUnsignedInt(f.get(ValueLayout.JAVA_BYTE, off));
    }

    static int u16(MemorySegment f, long off) {
        return Short.toUnsignedInt(f.get(U16, off));
    }
}
