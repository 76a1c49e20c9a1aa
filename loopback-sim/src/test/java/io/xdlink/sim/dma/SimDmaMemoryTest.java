package io.xdlink.sim.dma;

import io.xdlink.params.dma.DmaFacts;
import io.xdlink.params.dma.IommuMode;
import io.xdlink.params.dma.RingRequest;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimDmaMemoryTest {
    private static final long MIB = 1L << 20;
    private final List<String> warnings = new ArrayList<>();

    @Test
    void stockUbuntuFallsBackFrom4096To1024AndSaysSo() throws IOException {
        SimDmaMemory m = new SimDmaMemory("evo-x3", DmaFacts.of(0, 0, IommuMode.PASSTHROUGH), warnings::add);
        try (RingAllocation a = m.allocate("rail0", RingRequest.of(4096, 256))) {
            assertThat(a.frames()).isEqualTo(1024);
            assertThat(a.cmaBytes()).isZero();
            assertThat(a.plan().fellBack()).isTrue();
        }
        assertThat(warnings).singleElement().asString()
                .startsWith("evo-x3: rail0: DMA ring: ring_size=4096 frames needs 16 MiB")
                .contains("CmaTotal is 0").contains("Using 1024 frames (4 MiB) instead");
    }

    @Test
    void aTranslatingIommuFitsAnyRingWithoutAWord() throws IOException {
        SimDmaMemory m = new SimDmaMemory("intel", DmaFacts.of(0, 0, IommuMode.TRANSLATED), warnings::add);
        assertThat(m.allocate("rail0", RingRequest.of(4096, 256)).frames()).isEqualTo(4096);
        assertThat(warnings).isEmpty();
    }

    @Test
    void bigRingsHoldCmaUntilFreedOnceAndRingsAfterThemSeeLess() throws IOException {
        SimDmaMemory m = new SimDmaMemory("h", DmaFacts.of(48 * MIB, 48 * MIB, IommuMode.OFF), warnings::add);
        RingAllocation first = m.allocate("rail0", new RingRequest("ring_size", 4096, 256, 2));
        assertThat(first.frames()).isEqualTo(4096);
        assertThat(m.cmaFreeBytes()).isEqualTo(16 * MIB);
        RingAllocation second = m.allocate("rail1", new RingRequest("ring_size", 4096, 256, 2));
        assertThat(second.frames()).isEqualTo(2048);
        assertThat(m.cmaFreeBytes()).isZero();
        first.close();
        first.close();
        assertThat(m.cmaFreeBytes()).isEqualTo(32 * MIB);
        second.close();
        assertThat(m.cmaFreeBytes()).isEqualTo(48 * MIB);
        assertThat(m.facts().cmaFreeBytes()).isEqualTo(48 * MIB);
    }

    @Test
    void whenNotEvenTheMinimumFitsOpeningFailsLikeEnomem() {
        SimDmaMemory m = new SimDmaMemory("h", DmaFacts.withoutCma(IommuMode.OFF), warnings::add);
        assertThatThrownBy(() -> m.allocate("rail0", RingRequest.of(8192, 2048)))
                .isInstanceOf(IOException.class).hasMessageContaining("h: cannot allocate DMA rings for rail0")
                .hasMessageContaining("Not even the minimum of 2048 frames fits");
    }
}
