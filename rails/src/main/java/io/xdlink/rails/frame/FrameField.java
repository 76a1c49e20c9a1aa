package io.xdlink.rails.frame;

import java.util.Locale;

/** The fields of the frame format, as named in the package documentation; a rejected frame names one. */
public enum FrameField {
    FRAME, VERSION, OPCODE, FLAGS, LENGTH, CRC, QPN, OFFSET, TOTAL, IMMEDIATE, RESERVED,
    ACK_RAIL_COUNT, ACK_QP_COUNT, ACK_RAIL, NAK_REASON, WINDOW, FRAME_BYTES, LISTENER_ID, MAX_MESSAGES,
    PSN_WINDOW, REJECT_REASON, SRC_QPN, DST_QPN;

    /** The name as the documentation writes it: {@code ack_rail_count}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
