package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;

/**
 * One device as the collective-library API sees it: all rails to one peer (or one loopback device), able to
 * listen and connect; memory is registered through the connections, on whichever end they live. Implemented over rails; nothing here blocks.
 */
public interface Device extends AutoCloseable {

    /** Listens for one or more connections; the address goes to the peer inside the host's handle. */
    Listener listen() throws CclException;

    /** Starts connecting to the listener at {@code address} (at most {@link #MAX_ADDRESS_BYTES}). */
    PendingConnection connect(byte[] address) throws CclException;

    /**
     * Sends what this device owes its peers now (acknowledgements of what arrived) and waits briefly until it has
     * gone; for a host that may exit right after. The default owes nothing.
     */
    default void settle() {
    }

    /** Closes the device; connections over it fail. */
    @Override
    void close();

    /** The most address bytes a listener may have: what fits in the handle beside xdlink's header. */
    int MAX_ADDRESS_BYTES = 96;

    /** A listening endpoint. */
    interface Listener extends AutoCloseable {
        byte[] address();

        /** The next connection that has arrived and is ready, or null. */
        Connection accept() throws CclException;

        @Override
        void close();
    }

    /** A connection being set up. */
    interface PendingConnection extends AutoCloseable {
        /** The connection once it is ready, else null. */
        Connection poll() throws CclException;

        /** Abandons the attempt (or closes the connection it had not handed out yet). */
        @Override
        void close();
    }
}
