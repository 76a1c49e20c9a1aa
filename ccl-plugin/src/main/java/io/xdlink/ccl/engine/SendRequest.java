package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;

import java.lang.foreign.MemorySegment;

/**
 * One send in flight: its writes (one per {@link Immediate#CHUNK_BYTES}, the last with the immediate), how many
 * are posted and how many the peer has confirmed. Done when every write is confirmed. Guarded by its endpoint's
 * lock.
 */
public final class SendRequest extends EngineRequest {
    final SendEndpoint endpoint;
    final MemorySegment data;
    final RegisteredMemory memory;
    final Connection.RemoteBuffer target;
    final int immediate;
    final int chunks;
    int posted;
    int confirmed;
    String error;
    boolean released;

    SendRequest(SendEndpoint endpoint, MemorySegment data, RegisteredMemory memory, Connection.RemoteBuffer target,
                int immediate) {
        this.endpoint = endpoint;
        this.data = data;
        this.memory = memory;
        this.target = target;
        this.immediate = immediate;
        this.chunks = Immediate.chunks(data.byteSize());
    }

    boolean done() {
        return confirmed == chunks;
    }

    /** Posts this send's next write; false when the connection cannot take it now. */
    boolean postNext(Connection connection, long workId) {
        long offset = posted * Immediate.CHUNK_BYTES;
        long length = Math.min(Immediate.CHUNK_BYTES, data.byteSize() - offset);
        MemorySegment chunk = data.asSlice(offset, length);
        Connection.RemoteBuffer to = new Connection.RemoteBuffer(target.remoteKey(), target.address() + offset,
                target.offset() + offset, target.size() - offset);
        boolean last = posted == chunks - 1;
        boolean ok = last ? connection.postWriteWithImmediate(workId, chunk, memory, to, immediate)
                : connection.postWrite(workId, chunk, memory, to);
        if (ok) {
            posted++;
        }
        return ok;
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
        return i == 0 ? data.byteSize() : 0;
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
