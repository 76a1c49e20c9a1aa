package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;

/**
 * One send in flight: the single write-with-immediate that carries it into the peer's advertised buffer, posted on
 * the send end's queue pair under {@link #workId}. Done when that write's completion says the peer has the bytes.
 * The only object a send makes in this plugin (rails makes its own work request). Guarded by its endpoint's lock.
 */
public final class IsendRequest extends EngineRequest {
    final SendEndpoint endpoint;
    final long bytes;
    final long workId;
    boolean confirmed;
    String error;
    boolean released;

    IsendRequest(SendEndpoint endpoint, long bytes, long workId) {
        this.endpoint = endpoint;
        this.bytes = bytes;
        this.workId = workId;
    }

    boolean done() {
        return confirmed;
    }

    @Override
    public boolean test(long[] sizes) throws CclException {
        return !surelyPending() && endpoint.test(this, sizes);
    }

    @Override
    public Attention attention() {
        return endpoint.attention;
    }

    @Override
    public long size(int i) {
        return i == 0 ? bytes : 0;
    }

    @Override
    public boolean failed() {
        return error != null;
    }

    @Override
    public int sizeCount() {
        return 1;
    }
}
