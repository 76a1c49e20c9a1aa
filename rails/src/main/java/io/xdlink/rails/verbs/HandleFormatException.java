package io.xdlink.rails.verbs;

/** Bytes that are not a connect handle, naming what is wrong with them. */
public final class HandleFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    public HandleFormatException(String message) {
        super(message);
    }
}
