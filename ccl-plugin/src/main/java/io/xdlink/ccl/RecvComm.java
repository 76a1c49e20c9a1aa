package io.xdlink.ccl;

/** The receiving end of a connection, from {@link CclNet#accept}. */
public non-sealed interface RecvComm extends Comm {
}
