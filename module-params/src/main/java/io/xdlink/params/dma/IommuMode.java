package io.xdlink.params.dma;

/** Whether an IOMMU stands between a device's DMA and memory, which decides how large a coherent buffer can be. */
public enum IommuMode {
    /** No IOMMU translates device DMA: none is present, or it is turned off ({@code amd_iommu=off}). */
    OFF,
    /** An IOMMU is present but maps device addresses one to one ({@code iommu=pt}, identity domains). */
    PASSTHROUGH,
    /** An IOMMU translates device DMA ({@code DMA}, {@code DMA-FQ} domains): scattered pages look contiguous. */
    TRANSLATED,
    /** Could not tell; planned as if DMA were not translated, the case in which a large ring can fail. */
    UNKNOWN;

    /**
     * True when coherent buffers are allocated on the dma-direct path, where a buffer must be physically
     * contiguous: then anything over the buddy allocator's largest block must come from CMA.
     */
    public boolean directPath() {
        return this != TRANSLATED;
    }
}
