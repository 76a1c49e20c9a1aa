package io.xdlink.ccl;

/** A connection end: a {@link SendComm} or a {@link RecvComm}. Memory is registered against one. */
public sealed interface Comm permits SendComm, RecvComm {

    /** The device this connection runs over. */
    int device();
}
