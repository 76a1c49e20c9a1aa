package io.xdlink.rails.verbs;

/** What a memory region lets be done to it. Reading it locally, to send its bytes, is always allowed. */
public enum Access {
    /** The device may write into it: receive buffers need this. */
    LOCAL_WRITE,
    /** A peer may WRITE into it with the region's remote key. */
    REMOTE_WRITE
}
