package io.xdlink.cli.bench;

/** A benchmark that cannot go on: unreachable server, port in use, peer gone. The message is the one line to print. */
public final class BenchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BenchException(String message) {
        super(message);
    }

    public BenchException(String message, Throwable cause) {
        super(message, cause);
    }
}
