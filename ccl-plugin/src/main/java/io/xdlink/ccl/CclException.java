package io.xdlink.ccl;

import java.util.Objects;

/** A failed call of the {@link CclNet} API, with the result code the native tables hand to the host. */
public final class CclException extends Exception {
    private static final long serialVersionUID = 1L;

    private final CclResult result;

    public CclException(CclResult result, String message) {
        super(message);
        this.result = Objects.requireNonNull(result, "result");
    }

    public CclException(CclResult result, String message, Throwable cause) {
        super(message, cause);
        this.result = Objects.requireNonNull(result, "result");
    }

    /** What the host is told. */
    public CclResult result() {
        return result;
    }

    /** An error of the host's making: a stale or foreign handle, a bad argument. */
    public static CclException internal(String message) {
        return new CclException(CclResult.INTERNAL_ERROR, message);
    }

    /** A failure of the network or the system. */
    public static CclException system(String message, Throwable cause) {
        return new CclException(CclResult.SYSTEM_ERROR, message, cause);
    }

    /** A configuration or usage error of the user's. */
    public static CclException usage(String message) {
        return new CclException(CclResult.INVALID_USAGE, message);
    }
}
