package io.xdlink.rails.verbs;

import java.io.IOException;

/** A connection that could not be made: no listener, backlog full, timeout, device closed. */
public final class ConnectionFailedException extends IOException {
    private static final long serialVersionUID = 1L;

    public ConnectionFailedException(String message) {
        super(message);
    }
}
