package io.xdlink.rails.frame;

import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Byte offsets, sizes and limits of the frame format (network byte order). The package documentation draws the
 * layout; this class is the one place the numbers live.
 */
public final class FrameLayout {
    /** The only version this code speaks. */
    public static final int VERSION = 1;
    /** Largest frame on a USB4 ring, header and trailer included: one DMA frame, a ring slot. */
    public static final int MAX_FRAME_BYTES = 4096;
    /**
     * Largest frame of the format, carried only by a rail that is a byte stream (TCP), which has no ring slot to fill:
     * larger frames cut the per-frame work a bulk transfer costs both ends. The u16 length field would allow 64 KiB;
     * 16 KiB keeps a frame sent whole within a stream record's 15-bit length.
     */
    public static final int MAX_STREAM_FRAME_BYTES = 16384;
    /** Smallest frame size a sender may be configured to cut (and a peer may announce in HELLO). */
    public static final int MIN_FRAME_BYTES = 256;
    /** The CRC-32C trailer. */
    public static final int TRAILER_BYTES = 4;

    public static final int OFF_VERSION = 0;
    public static final int OFF_OPCODE = 1;
    public static final int OFF_FLAGS = 2;
    public static final int OFF_EPOCH = 3;
    public static final int OFF_SEQ = 4;
    public static final int OFF_CREDIT = 8;
    public static final int OFF_ECHO = 12;
    public static final int OFF_LENGTH = 14;
    /** The header every frame starts with. */
    public static final int COMMON_HEADER = 16;

    // Data frames: the first five fields are shared by WRITE, WRITE_WITH_IMM and SEND.
    public static final int OFF_QPN = 16;
    public static final int OFF_MSN = 20;
    public static final int OFF_PSN = 24;
    public static final int OFF_OFFSET = 28;
    public static final int OFF_TOTAL = 32;
    public static final int OFF_RKEY = 36;
    public static final int OFF_RADDR = 40;
    public static final int WRITE_HEADER = 48;
    public static final int OFF_WRITE_IMM = 48;
    public static final int OFF_WRITE_RECV_INDEX = 52;
    public static final int WRITE_IMM_HEADER = 56;
    public static final int OFF_SEND_RECV_INDEX = 36;
    public static final int OFF_SEND_IMM = 40;
    public static final int SEND_HEADER = 44;

    // CREDIT
    public static final int OFF_NEXT_SEQ = 16;
    public static final int CREDIT_HEADER = 20;

    // NAK
    public static final int OFF_NAK_QPN = 16;
    public static final int OFF_NAK_MSN = 20;
    public static final int OFF_NAK_REASON = 24;
    public static final int OFF_NAK_RESERVED = 25;
    public static final int NAK_HEADER = 28;

    // HELLO
    public static final int OFF_HELLO_UUID_MSB = 16;
    public static final int OFF_HELLO_UUID_LSB = 24;
    public static final int OFF_HELLO_RAIL = 32;
    public static final int OFF_HELLO_FRAME_BYTES = 34;
    public static final int OFF_HELLO_WINDOW = 36;
    public static final int HELLO_HEADER = 40;
    /** Smallest and largest receive ring a HELLO may announce. */
    public static final int MIN_WINDOW = 32;
    public static final int MAX_WINDOW = 1 << 16;

    // CONNECT_REQUEST and CONNECT_REPLY share a layout; the REQUEST's listener id is the REPLY's dst qpn.
    public static final int OFF_CONN_ID = 16;
    public static final int OFF_CONN_LISTENER = 24;
    public static final int OFF_CONN_DST_QPN = 24;
    public static final int OFF_CONN_SRC_QPN = 28;
    public static final int OFF_CONN_MAX_MESSAGES = 32;
    public static final int OFF_CONN_PSN_WINDOW = 36;
    public static final int CONNECT_HEADER = 40;
    public static final int MAX_MESSAGES = 1 << 16;
    public static final int MIN_PSN_WINDOW = 64;
    public static final int MAX_PSN_WINDOW = 1 << 20;

    // CONNECT_REJECT
    public static final int OFF_REJECT_REASON = 24;
    public static final int REJECT_HEADER = 28;

    // DISCONNECT
    public static final int OFF_DISC_DST_QPN = 16;
    public static final int OFF_DISC_SRC_QPN = 20;
    public static final int DISCONNECT_HEADER = 24;

    // ACK payload: a 4-byte count header, rail entries, then queue pair entries.
    public static final int ACK_COUNTS = 4;
    public static final int ACK_RAIL_ENTRY = 18;
    public static final int ACK_QP_ENTRY = 12;
    /** Most rails one ACK speaks for (and most rails one peer's pool may have). */
    public static final int MAX_ACK_RAILS = 32;
    /** Bits in an ACK rail entry's received map: the frames just below the position. */
    public static final int ACK_MAP_BITS = 64;

    static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private FrameLayout() {
    }

    /** Queue pair entries that fit one ACK frame of {@code frameBytes} beside {@code rails} rail entries. */
    public static int ackQpCapacity(int frameBytes, int rails) {
        int room = frameBytes - COMMON_HEADER - TRAILER_BYTES - ACK_COUNTS - rails * ACK_RAIL_ENTRY;
        return Math.max(0, room / ACK_QP_ENTRY);
    }
}
