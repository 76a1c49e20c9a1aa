package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;
import io.xdlink.ccl.Request;

/** A request of one connection end; testing it drives that end's progress. */
public abstract sealed class EngineRequest implements Request permits SendRequest, RecvRequest {

    /**
     * True once done, with the bytes moved in {@code sizes} (may be null); a done request is released and a
     * second test of it is the caller's error.
     */
    public abstract boolean test(long[] sizes) throws CclException;

    /** How many sizes a done test reports: 1 for a send, the buffer count for a receive. */
    public abstract int sizeCount();
}
