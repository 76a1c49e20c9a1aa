package io.xdlink.rails;

/** A rail that is closed, or whose peer or cable went away. */
public final class RailClosedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RailClosedException(String message) {
        super(message);
    }

    public RailClosedException(String message, Throwable cause) {
        super(message, cause);
    }
}
