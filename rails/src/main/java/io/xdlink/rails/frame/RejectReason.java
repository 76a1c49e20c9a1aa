package io.xdlink.rails.frame;

/** Why a listener refused a connection request (the CONNECT_REJECT's reason). */
public enum RejectReason {
    /** No listener with that id on the device. */
    NO_LISTENER(1),
    /** The listener's backlog of unaccepted requests is full. */
    BACKLOG_FULL(2),
    /** The request asks for windows the acceptor cannot provide. */
    INVALID_REQUEST(3);

    private final int code;

    RejectReason(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The reason of a wire value, or null. */
    public static RejectReason ofCode(long code) {
        for (RejectReason r : values()) {
            if (r.code == code) {
                return r;
            }
        }
        return null;
    }
}
