package io.xdlink.sim.dma;

import io.xdlink.params.dma.DmaFacts;
import io.xdlink.params.dma.IommuMode;
import io.xdlink.params.dma.RingPlan;
import io.xdlink.params.dma.RingPlanner;
import io.xdlink.params.dma.RingRequest;

import java.io.IOException;
import java.util.function.Consumer;

/**
 * One simulated host's DMA memory: its CMA area and its IOMMU mode. Rings are planned by module-params'
 * {@link RingPlanner} against what the host has now, exactly as a driver on a real host plans them, so a 4096-frame
 * ring on a host with {@code CmaTotal: 0} and {@code iommu=pt} falls back to 1024 frames and prints the planner's
 * warning. A ring that needs contiguous memory beyond the buddy allocator's largest block takes it from CMA until
 * the ring is freed, so rings opened later see less.
 */
public final class SimDmaMemory {
    private final String host;
    private final boolean cmaPresent;
    private final long cmaTotal;
    private final IommuMode iommu;
    private final Consumer<String> warnings;
    private long cmaFree;

    /**
     * @param host     the host's name, for messages
     * @param boot     the host's DMA memory when it boots
     * @param warnings where fallback warnings go (the user must see them)
     */
    public SimDmaMemory(String host, DmaFacts boot, Consumer<String> warnings) {
        this.host = host;
        this.cmaPresent = boot.cmaPresent();
        this.cmaTotal = boot.cmaTotalBytes();
        this.cmaFree = boot.cmaFreeBytes();
        this.iommu = boot.iommu();
        this.warnings = warnings;
    }

    /** What the host offers now. */
    public synchronized DmaFacts facts() {
        return cmaPresent ? DmaFacts.of(cmaTotal, cmaFree, iommu) : DmaFacts.withoutCma(iommu);
    }

    /**
     * Plans and takes the rings of {@code request}.
     *
     * @param what what the rings are for, in messages ({@code cable1/rail0})
     * @throws IOException when not even the smallest acceptable ring fits (a real driver's -ENOMEM)
     */
    public RingAllocation allocate(String what, RingRequest request) throws IOException {
        RingPlan plan;
        long fromCma;
        synchronized (this) {
            plan = RingPlanner.plan(request, facts());
            if (!plan.fits()) {
                throw new IOException(host + ": cannot allocate DMA rings for " + what + ": " + plan.warning());
            }
            fromCma = iommu.directPath() && plan.bytes() > RingPlanner.BUDDY_MAX_BYTES
                    ? plan.bytes() * request.rings() : 0;
            cmaFree -= fromCma;
        }
        if (plan.fellBack()) {
            warnings.accept(host + ": " + what + ": " + plan.warning());
        }
        return new RingAllocation(this, plan, fromCma);
    }

    synchronized void giveBack(long cmaBytes) {
        cmaFree = Math.min(cmaTotal, cmaFree + cmaBytes);
    }

    public synchronized long cmaFreeBytes() {
        return cmaFree;
    }

    @Override
    public synchronized String toString() {
        return host + " DMA: " + facts().cmaText() + ", IOMMU " + iommu;
    }
}
