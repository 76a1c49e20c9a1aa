package io.xdlink.rails;

/**
 * A rail that is closed, or whose peer or cable went away. {@link #peerLost()} says the fabric knows the whole peer
 * is gone (its keepalive went silent), not just this rail: no other rail to that peer will do better, so whatever is
 * outstanding to it can fail now instead of waiting out a timeout.
 */
public final class RailClosedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean peerLost;

    public RailClosedException(String message) {
        this(message, null, false);
    }

    public RailClosedException(String message, Throwable cause) {
        this(message, cause, false);
    }

    /**
     * @param peerLost true when the peer itself is gone, not only this rail
     */
    public RailClosedException(String message, Throwable cause, boolean peerLost) {
        super(message, cause);
        this.peerLost = peerLost;
    }

    /** True when the fabric knows the peer is gone, so every rail to it is failing too. */
    public boolean peerLost() {
        return peerLost;
    }
}
