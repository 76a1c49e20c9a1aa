package io.xdlink.ccl;

/** The collective library's result codes ({@code ncclResult_t}), as the native tables return them. */
public enum CclResult {
    SUCCESS(0),
    UNHANDLED_CUDA_ERROR(1),
    /** A network or system failure: a peer gone, a cable pulled, memory refused. */
    SYSTEM_ERROR(2),
    /** Misuse by the caller: a stale handle, a request tested after it completed, a bad argument from the host. */
    INTERNAL_ERROR(3),
    INVALID_ARGUMENT(4),
    /** A configuration error of the user's: a send larger than the matching receive, an unknown parameter. */
    INVALID_USAGE(5),
    /** The peer reported an error. */
    REMOTE_ERROR(6),
    IN_PROGRESS(7);

    private final int code;

    CclResult(int code) {
        this.code = code;
    }

    /** The numeric {@code ncclResult_t}. */
    public int code() {
        return code;
    }
}
