package io.xdlink.sim.dma;

import io.xdlink.params.dma.RingPlan;

/** Rings taken from a host's simulated DMA memory; closing gives back what they took, once. */
public final class RingAllocation implements AutoCloseable {
    private final SimDmaMemory memory;
    private final RingPlan plan;
    private final long cmaBytes;
    private boolean freed;

    RingAllocation(SimDmaMemory memory, RingPlan plan, long cmaBytes) {
        this.memory = memory;
        this.plan = plan;
        this.cmaBytes = cmaBytes;
    }

    /** Frames per ring. */
    public int frames() {
        return Math.toIntExact(plan.frames());
    }

    /** The plan, with every size tried and the warning when it fell back. */
    public RingPlan plan() {
        return plan;
    }

    /** CMA these rings hold. */
    public long cmaBytes() {
        return cmaBytes;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (freed) {
                return;
            }
            freed = true;
        }
        memory.giveBack(cmaBytes);
    }
}
