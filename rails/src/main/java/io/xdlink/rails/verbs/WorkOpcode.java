package io.xdlink.rails.verbs;

/** What a completion completes. */
public enum WorkOpcode {
    /** A WRITE this side posted. */
    WRITE,
    /** A WRITE_WITH_IMM this side posted. */
    WRITE_WITH_IMM,
    /** A SEND this side posted. */
    SEND,
    /** A posted receive that a peer's SEND filled. */
    RECV,
    /** A posted receive consumed by a peer's WRITE_WITH_IMM: the immediate and the write's length. */
    RECV_WRITE_WITH_IMM,
    /** The receiving side of a peer's plain WRITE; appears only to report that the WRITE was refused. */
    RECV_WRITE
}
