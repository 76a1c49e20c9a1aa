package io.xdlink.ccl;

/** A listening endpoint on one device, from {@link CclNet#listen}. */
public interface ListenComm {

    /** The device it listens on. */
    int device();

    /**
     * The connection handle to give the peer out of band (the host's bootstrap carries it), at most
     * {@link CclNet#HANDLE_MAX_BYTES} bytes; the peer passes it to {@link CclNet#connect}.
     */
    byte[] handle();
}
