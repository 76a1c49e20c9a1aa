package io.xdlink.rails.verbs;

/** How a request ended, named as ibverbs names them. */
public enum CompletionStatus {
    /** Done: for sends, the peer has the bytes in place; for receives, the bytes are here. */
    SUCCESS,
    /** A receive too small for the SEND that arrived. */
    LOCAL_LENGTH_ERROR,
    /** The local memory region is deregistered, closed, lacks the right, or the range is outside it. */
    LOCAL_PROTECTION_ERROR,
    /** Flushed: the queue pair was in error, closed, or its device closed before the request could finish. */
    WR_FLUSH_ERROR,
    /** The peer refused a WRITE: unknown key, missing right, or a range outside its region. */
    REMOTE_ACCESS_ERROR,
    /** The peer refused the request itself: a SEND longer than its receive, a malformed message. */
    REMOTE_INVALID_REQUEST_ERROR,
    /** The peer's queue pair is gone or in error. */
    REMOTE_OPERATION_ERROR,
    /** The peer had no receive posted, every retry allowed. */
    RNR_RETRY_EXCEEDED_ERROR,
    /** No rail to the peer made progress for the peer timeout. */
    RETRY_EXCEEDED_ERROR;

    public boolean isError() {
        return this != SUCCESS;
    }
}
