package io.xdlink.ccl.engine;

/**
 * One send in flight: the single write-with-immediate that carries it into the peer's advertised buffer, posted on
 * the send end's queue pair under {@link #workId}. Done when that write's completion says the peer has the bytes, or,
 * for a send written from a {@link #copy} of its bytes, as soon as it is posted.
 * The only object a send makes in this plugin (rails makes its own work request). Guarded by its end's lock.
 */
public final class IsendRequest extends EngineRequest {
    final long bytes;
    final long workId;
    /** The end's copy the write goes from, or -1 when it goes from the host's buffer. */
    final int copy;
    boolean confirmed;

    IsendRequest(SendEndpoint endpoint, long bytes, long workId, int copy) {
        super(endpoint);
        this.bytes = bytes;
        this.workId = workId;
        this.copy = copy;
    }

    @Override
    boolean done() {
        return confirmed;
    }

    @Override
    public long size(int i) {
        return i == 0 ? bytes : 0;
    }

    @Override
    public int sizeCount() {
        return 1;
    }
}
