package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;

/** One grouped receive in flight: done when every buffer has received its send. Guarded by its endpoint's lock. */
public final class RecvRequest extends EngineRequest {
    final RecvEndpoint endpoint;
    final long sequence;
    final int slot;
    final long[] capacity;
    final long[] received;
    final boolean[] arrived;
    int arrivals;
    boolean advertised;
    String error;
    boolean released;

    RecvRequest(RecvEndpoint endpoint, long sequence, int slot, long[] capacity) {
        this.endpoint = endpoint;
        this.sequence = sequence;
        this.slot = slot;
        this.capacity = capacity;
        this.received = new long[capacity.length];
        this.arrived = new boolean[capacity.length];
    }

    boolean done() {
        return arrivals == capacity.length;
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
        return received[i];
    }

    @Override
    public boolean failed() {
        return error != null;
    }

    @Override
    public int sizeCount() {
        return capacity.length;
    }
}
