package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;

/**
 * One grouped receive in flight: done when every buffer has received its send. The only object a receive makes
 * besides its sizes. Guarded by its endpoint's lock.
 */
public final class IrecvRequest extends EngineRequest {
    final RecvEndpoint endpoint;
    final long sequence;
    final int slot;
    final long[] capacity;
    final long[] received;
    /** Bit i set once buffer i has its send. */
    private int arrivedMask;
    boolean advertised;
    String error;
    boolean released;

    IrecvRequest(RecvEndpoint endpoint, long sequence, int slot, long[] capacity) {
        this.endpoint = endpoint;
        this.sequence = sequence;
        this.slot = slot;
        this.capacity = capacity;
        this.received = new long[capacity.length];
    }

    boolean arrived(int index) {
        return (arrivedMask & (1 << index)) != 0;
    }

    void arrive(int index, long length) {
        arrivedMask |= 1 << index;
        received[index] = length;
    }

    boolean done() {
        return arrivedMask == (1 << capacity.length) - 1;
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
