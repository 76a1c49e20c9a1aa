package io.xdlink.xdomain.packet;

import java.util.Optional;

/**
 * Packet type (PDF) of a ring-0 frame. On real hardware it travels in the ring descriptor, not in the packet words;
 * for XDomain discovery messages it follows from the message type, which is how xdlink's control channels (which
 * carry only the words) recover it.
 */
public enum Pdf {
    READ(1),
    WRITE(2),
    ERROR(3),
    NOTIFY_ACK(4),
    EVENT(5),
    XDOMAIN_REQ(6),
    XDOMAIN_RESP(7);

    private final int code;

    Pdf(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static Optional<Pdf> of(int code) {
        for (Pdf p : values()) {
            if (p.code == code) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
