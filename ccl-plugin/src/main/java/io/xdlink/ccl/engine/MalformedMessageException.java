package io.xdlink.ccl.engine;

/** Bytes from a peer or a host that do not form the message they claim to be. */
public final class MalformedMessageException extends Exception {
    private static final long serialVersionUID = 1L;

    public MalformedMessageException(String message) {
        super(message);
    }
}
