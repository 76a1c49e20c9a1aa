package io.xdlink.params.dma;

import io.xdlink.params.ParamProvider;
import io.xdlink.params.ParamSpec;
import io.xdlink.params.ParamType;

import java.util.List;

/** The parameters of DMA ring planning, which module-params owns because the planner lives here. */
public final class DmaParams implements ParamProvider {
    /**
     * Frames per DMA ring. 4096 frames are 16 MiB, which needs CMA or a translating IOMMU; 32768 frames are 128 MiB,
     * more than any CMA area a USB4 driver would be given.
     */
    public static final ParamSpec<Long> RING_SIZE = ParamSpec.builder("ring_size", new ParamType.Int(16, 32768, true))
            .defaultValue(4096L)
            .unit("frames")
            .description("Frames of 4 KiB per DMA ring; when the host cannot give that much contiguous DMA memory "
                    + "the ring is halved, with a warning, until it fits")
            .build();

    /** The floor of the fallback: a ring so small that running on it would be worse than failing loudly. */
    public static final ParamSpec<Long> RING_SIZE_MIN = ParamSpec.builder("ring_size_min",
                    new ParamType.Int(16, 32768, true))
            .defaultValue(256L)
            .unit("frames")
            .description("Smallest ring the DMA ring planner may fall back to before refusing to open the device")
            .build();

    @Override
    public String module() {
        return "params";
    }

    @Override
    public List<ParamSpec<?>> specs() {
        return List.of(RING_SIZE, RING_SIZE_MIN);
    }
}
