package io.xdlink.params.dma;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * Plans DMA rings against the memory a host really has, so that a default that needs memory the host lacks falls
 * back, loudly, instead of failing the probe (the field failure: a 4096-frame, 16 MiB ring on a stock Ubuntu kernel
 * with {@code CmaTotal: 0} and {@code iommu=pt} failed with -ENOMEM; 1024 frames worked).
 *
 * <p>The facts it applies: a ring of N frames in one coherent buffer needs N x 4 KiB contiguous. With a translating
 * IOMMU any size maps, since the IOMMU makes scattered pages look contiguous to the device. Without one (no IOMMU,
 * IOMMU off, passthrough), coherent buffers come from the dma-direct path, where the buddy allocator gives at most
 * its largest block, order 10 = 4 MiB with 4 KiB pages, and anything larger can only come from CMA, and only as much
 * as CMA has free. Several rings allocated together share that one CMA area.
 *
 * <p>The fallback halves the ring size (ring sizes stay powers of two when asked as powers of two, since rings wrap
 * their positions with a mask) down to the minimum, and tries the minimum itself last.
 */
public final class RingPlanner {
    /** Bytes per frame: one USB4 DMA frame. */
    public static final long FRAME_BYTES = 4096;
    /** The buddy allocator's largest block: order 10 of 4 KiB pages. */
    public static final long BUDDY_MAX_BYTES = 4L << 20;

    private RingPlanner() {
    }

    /** Plans {@code request} on a host with these facts. */
    public static RingPlan plan(RingRequest request, DmaFacts facts) {
        long floor = Math.min(request.minFrames(), request.frames());
        List<RingPlan.Step> steps = new ArrayList<>();
        long size = request.frames();
        long chosen = 0;
        while (true) {
            RingPlan.Step step = evaluate(size, request.rings(), facts);
            steps.add(step);
            if (step.fits()) {
                chosen = size;
                break;
            }
            if (size <= floor) {
                break;
            }
            size = Math.max(size / 2, floor);
        }
        return new RingPlan(request, chosen, steps, warning(request, facts, chosen, steps));
    }

    /** Plans one ring of {@code frames} set by {@code ring_size}, falling back no lower than {@code minFrames}. */
    public static RingPlan plan(long frames, long minFrames, DmaFacts facts) {
        return plan(RingRequest.of(frames, minFrames), facts);
    }

    private static RingPlan.Step evaluate(long frames, int rings, DmaFacts facts) {
        long bytes = frames * FRAME_BYTES;
        long total = bytes * rings;
        String size = Bytes.human(bytes) + (rings > 1 ? " per ring (" + Bytes.human(total) + " for " + rings
                + " rings)" : "");
        if (!facts.iommu().directPath()) {
            return new RingPlan.Step(frames, bytes, true, size + " fits: a translating IOMMU maps scattered pages, "
                    + "so any size does");
        }
        if (bytes <= BUDDY_MAX_BYTES) {
            return new RingPlan.Step(frames, bytes, true, size + " fits: each ring is within the buddy allocator's "
                    + "largest block (4 MiB, order 10)");
        }
        if (facts.cmaPresent() && total <= facts.cmaFreeBytes()) {
            return new RingPlan.Step(frames, bytes, true, size + " fits: it comes from CMA, which has "
                    + Bytes.human(facts.cmaFreeBytes()) + " free");
        }
        return new RingPlan.Step(frames, bytes, false, size + " does not fit: it is over the buddy allocator's "
                + "4 MiB largest block, so it must come from CMA, and " + facts.cmaText());
    }

    private static String warning(RingRequest request, DmaFacts facts, long chosen, List<RingPlan.Step> steps) {
        if (chosen == request.frames()) {
            return "";
        }
        RingPlan.Step first = steps.getFirst();
        long needed = first.bytes() * request.rings();
        StringJoiner tried = new StringJoiner(", ");
        for (RingPlan.Step s : steps) {
            tried.add(Long.toString(s.frames()));
        }
        StringBuilder w = new StringBuilder();
        w.append("DMA ring: ").append(request.parameter()).append('=').append(request.frames())
                .append(" frames needs ").append(Bytes.human(first.bytes())).append(" of contiguous DMA memory")
                .append(request.rings() > 1 ? " per ring (" + Bytes.human(needed) + " for " + request.rings()
                        + " rings)" : "")
                .append(", which this host cannot give: ").append(facts.iommuEvidence())
                .append("; without IOMMU translation a coherent buffer over the buddy allocator's 4 MiB largest "
                        + "block must come from CMA, and ").append(facts.cmaText()).append(". ");
        if (chosen > 0) {
            w.append("Using ").append(chosen).append(" frames (").append(Bytes.human(chosen * FRAME_BYTES))
                    .append(") instead; tried ").append(tried).append(". ");
        } else {
            w.append("Not even the minimum of ").append(steps.getLast().frames()).append(" frames fits; tried ")
                    .append(tried).append(". ");
        }
        w.append("For the full ring, ").append(cmaAdvice(facts, needed));
        if (facts.iommu() == IommuMode.PASSTHROUGH) {
            w.append(", or let the IOMMU translate DMA (remove iommu=pt or iommu.passthrough=1)");
        }
        if (chosen > 0) {
            w.append("; to choose the smaller ring yourself and silence this warning, set ")
                    .append(request.parameter()).append('=').append(chosen);
        } else {
            w.append("; or lower the minimum ring size");
        }
        return w.append('.').toString();
    }

    private static String cmaAdvice(DmaFacts facts, long needed) {
        if (!facts.cmaPresent()) {
            return "use a kernel built with CONFIG_CMA and reserve at least " + Bytes.mibCeil(needed)
                    + " MiB of it with cma=" + Bytes.mibCeil(needed) + "M on the kernel command line";
        }
        // What CMA holds now stays in use; the ring needs its size on top of that.
        long inUse = facts.cmaTotalBytes() - facts.cmaFreeBytes();
        long mib = Bytes.mibCeil(inUse + needed);
        return "reserve CMA with cma=" + mib + "M (or more; other drivers share it) on the kernel command line";
    }
}
