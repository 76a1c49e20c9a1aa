package io.xdlink.ccl.engine;

/**
 * One grouped receive in flight: done when every buffer has received its send. Besides its sizes, the only object
 * a receive makes in this plugin. Guarded by its end's lock.
 */
public final class IrecvRequest extends EngineRequest {
    final long sequence;
    final int slot;
    final long[] capacity;
    final long[] received;
    /** Bit i set once buffer i has its send. */
    private int arrivedMask;
    /** True until the advertisement's send completed: the slot is not free before. */
    boolean advertised;

    IrecvRequest(RecvEndpoint endpoint, long sequence, int slot, long[] capacity) {
        super(endpoint);
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

    @Override
    boolean done() {
        return arrivedMask == (1 << capacity.length) - 1;
    }

    @Override
    public long size(int i) {
        return received[i];
    }

    @Override
    public int sizeCount() {
        return capacity.length;
    }
}
