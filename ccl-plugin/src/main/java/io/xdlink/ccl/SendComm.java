package io.xdlink.ccl;

/** The sending end of a connection, from {@link CclNet#connect}. */
public non-sealed interface SendComm extends Comm {
}
