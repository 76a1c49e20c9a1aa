package io.xdlink.cli;

/** Bad input from the user: printed as one line, exit status 2. */
public final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
