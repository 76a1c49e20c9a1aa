package io.xdlink.params.dma;

import java.util.List;
import java.util.Objects;

/**
 * What a host offers for DMA ring memory: its contiguous memory allocator (CMA) and its IOMMU mode. Read from a host
 * by {@link DmaFactsReader}, or built in code (the simulator gives each simulated host its own facts).
 *
 * @param cmaPresent    whether the kernel has CMA at all ({@code CmaTotal} appears in /proc/meminfo)
 * @param cmaTotalBytes the CMA area's size; 0 on a stock Ubuntu kernel
 * @param cmaFreeBytes  how much of it is free now
 * @param iommu         whether DMA is translated
 * @param iommuEvidence why we believe {@code iommu}, in words a user can check ({@code iommu=pt on the kernel
 *                      command line})
 * @param notes         what could not be read or looked wrong, and what was assumed instead
 */
public record DmaFacts(boolean cmaPresent, long cmaTotalBytes, long cmaFreeBytes, IommuMode iommu,
                       String iommuEvidence, List<String> notes) {
    public DmaFacts {
        if (cmaTotalBytes < 0 || cmaFreeBytes < 0) {
            throw new IllegalArgumentException("CMA sizes cannot be negative: total " + cmaTotalBytes + ", free "
                    + cmaFreeBytes);
        }
        if (cmaFreeBytes > cmaTotalBytes) {
            throw new IllegalArgumentException("CMA free (" + cmaFreeBytes + ") exceeds CMA total (" + cmaTotalBytes
                    + ")");
        }
        if (!cmaPresent && cmaTotalBytes != 0) {
            throw new IllegalArgumentException("a kernel without CMA has no CMA bytes");
        }
        Objects.requireNonNull(iommu, "iommu");
        iommuEvidence = iommuEvidence == null || iommuEvidence.isBlank() ? "IOMMU mode " + iommu : iommuEvidence;
        notes = List.copyOf(notes);
    }

    /** Facts given directly: a CMA area of this size with this much free, and this IOMMU mode. */
    public static DmaFacts of(long cmaTotalBytes, long cmaFreeBytes, IommuMode iommu) {
        return new DmaFacts(true, cmaTotalBytes, cmaFreeBytes, iommu, describe(iommu), List.of());
    }

    /** Facts given directly for a kernel built without CMA. */
    public static DmaFacts withoutCma(IommuMode iommu) {
        return new DmaFacts(false, 0, 0, iommu, describe(iommu), List.of());
    }

    private static String describe(IommuMode iommu) {
        return switch (iommu) {
            case OFF -> "no IOMMU translates DMA";
            case PASSTHROUGH -> "the IOMMU is in passthrough";
            case TRANSLATED -> "the IOMMU translates DMA";
            case UNKNOWN -> "the IOMMU mode is unknown";
        };
    }

    /** The CMA situation in words: {@code CmaTotal is 0}, {@code CMA has 2 MiB free of 64 MiB}, ... */
    public String cmaText() {
        if (!cmaPresent) {
            return "this kernel has no CMA (no CmaTotal in /proc/meminfo)";
        }
        if (cmaTotalBytes == 0) {
            return "CmaTotal is 0 (no CMA area is reserved)";
        }
        return "CMA has " + Bytes.human(cmaFreeBytes) + " free of " + Bytes.human(cmaTotalBytes);
    }
}
