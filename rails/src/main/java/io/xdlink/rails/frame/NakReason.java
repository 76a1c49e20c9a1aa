package io.xdlink.rails.frame;

/** Why a receiver refused a message (the NAK's reason byte). */
public enum NakReason {
    /** No receive was posted for a SEND or WRITE_WITH_IMM: retry later. */
    RECEIVER_NOT_READY(1),
    /** A remote key that is unknown, lacks the right, or a range outside its memory region. */
    REMOTE_ACCESS(2),
    /** A request the receiver cannot honour: a SEND longer than its receive buffer, a message that changed shape. */
    INVALID_REQUEST(3),
    /** The receiving queue pair is gone or in error, or failed to place the bytes. */
    REMOTE_OPERATION(4);

    private final int code;

    NakReason(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The reason of a wire byte, or null. */
    public static NakReason ofCode(int code) {
        for (NakReason r : values()) {
            if (r.code == code) {
                return r;
            }
        }
        return null;
    }
}
