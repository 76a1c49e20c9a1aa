package io.xdlink.params.dma;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.xdlink.params.Origin;
import io.xdlink.params.ParamRegistry;
import io.xdlink.params.Params;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RingPlannerTest {

    @Test
    void stockUbuntuWithIommuPtFallsBackTo1024Loudly() throws IOException {
        try (FileSystem fs = Jimfs.newFileSystem(Configuration.unix())) {
            Path root = fs.getPath("/");
            Files.createDirectories(root.resolve("proc"));
            Files.writeString(root.resolve("proc/meminfo"), "MemTotal: 64000000 kB\nCmaTotal: 0 kB\nCmaFree: 0 kB\n");
            Files.writeString(root.resolve("proc/cmdline"), "ro quiet iommu=pt\n");
            Files.createDirectories(root.resolve("sys/kernel/iommu_groups/7"));
            Files.writeString(root.resolve("sys/kernel/iommu_groups/7/type"), "identity\n");

            RingPlan plan = RingPlanner.plan(4096, 256, DmaFactsReader.read(root));

            assertThat(plan.frames()).isEqualTo(1024);
            assertThat(plan.bytes()).isEqualTo(4L << 20);
            assertThat(plan.fellBack()).isTrue();
            assertThat(plan.steps()).extracting(RingPlan.Step::frames).containsExactly(4096L, 2048L, 1024L);
            assertThat(plan.steps()).extracting(RingPlan.Step::fits).containsExactly(false, false, true);
            assertThat(plan.steps().getFirst().reason()).contains("16 MiB does not fit").contains("CmaTotal is 0");
            assertThat(plan.warning())
                    .contains("ring_size=4096 frames needs 16 MiB")
                    .contains("iommu=pt")
                    .contains("CmaTotal is 0")
                    .contains("Using 1024 frames (4 MiB) instead; tried 4096, 2048, 1024")
                    .contains("cma=16M")
                    .contains("remove iommu=pt")
                    .contains("set ring_size=1024");
        }
    }

    @Test
    void translatingIommuPlansTheFullRing() {
        RingPlan plan = RingPlanner.plan(4096, 256, DmaFacts.of(0, 0, IommuMode.TRANSLATED));
        assertThat(plan.frames()).isEqualTo(4096);
        assertThat(plan.fellBack()).isFalse();
        assertThat(plan.warning()).isEmpty();
        assertThat(plan.steps()).singleElement().extracting(RingPlan.Step::reason).asString()
                .contains("translating IOMMU");
    }

    @Test
    void enoughFreeCmaPlansTheFullRing() {
        RingPlan plan = RingPlanner.plan(4096, 256, DmaFacts.of(64L << 20, 32L << 20, IommuMode.PASSTHROUGH));
        assertThat(plan.frames()).isEqualTo(4096);
        assertThat(plan.steps().getFirst().reason()).contains("comes from CMA");
    }

    @Test
    void partlyUsedCmaGivesTheLargestHalvingThatFitsAndAdvisesOnTopOfWhatIsUsed() {
        RingPlan plan = RingPlanner.plan(8192, 256, DmaFacts.of(64L << 20, 10L << 20, IommuMode.OFF));
        assertThat(plan.frames()).isEqualTo(2048);
        assertThat(plan.warning()).contains("CMA has 10 MiB free of 64 MiB").contains("cma=86M");
    }

    @Test
    void severalRingsShareTheCmaArea() {
        DmaFacts facts = DmaFacts.of(64L << 20, 40L << 20, IommuMode.PASSTHROUGH);
        RingPlan one = RingPlanner.plan(new RingRequest("ring_size", 4096, 256, 2), facts);
        assertThat(one.frames()).isEqualTo(4096);
        RingPlan four = RingPlanner.plan(new RingRequest("ring_size", 4096, 256, 4), facts);
        assertThat(four.frames()).isEqualTo(2048);
        assertThat(four.warning()).contains("64 MiB for 4 rings");
    }

    @Test
    void kernelWithoutCmaIsToldSo() {
        RingPlan plan = RingPlanner.plan(2048, 16, DmaFacts.withoutCma(IommuMode.OFF));
        assertThat(plan.frames()).isEqualTo(1024);
        assertThat(plan.warning()).contains("this kernel has no CMA").contains("CONFIG_CMA").contains("cma=8M")
                .doesNotContain("remove iommu=pt");
    }

    @Test
    void nothingFitsAboveTheMinimumAndTheMinimumIsTriedLast() {
        RingPlan plan = RingPlanner.plan(4096, 1500, DmaFacts.of(0, 0, IommuMode.OFF));
        assertThat(plan.fits()).isFalse();
        assertThat(plan.frames()).isZero();
        assertThat(plan.steps()).extracting(RingPlan.Step::frames).containsExactly(4096L, 2048L, 1500L);
        assertThat(plan.warning()).contains("Not even the minimum of 1500 frames fits").contains("lower the minimum");
    }

    @Test
    void aRequestBelowTheMinimumIsItsOwnFloor() {
        RingPlan plan = RingPlanner.plan(64, 256, DmaFacts.of(0, 0, IommuMode.OFF));
        assertThat(plan.frames()).isEqualTo(64);
        assertThat(plan.warning()).isEmpty();
    }

    @Test
    void otherDriversRingsNameTheirOwnParameter() {
        RingPlan plan = RingPlanner.plan(new RingRequest("odl_ring_size", 4096, 16, 1),
                DmaFacts.of(0, 0, IommuMode.PASSTHROUGH));
        assertThat(plan.warning()).contains("odl_ring_size=4096").contains("set odl_ring_size=1024");
    }

    @Test
    void hugeRequestsAreBoundedAndRefusedBeyondTheLimit() {
        RingPlan plan = RingPlanner.plan(RingRequest.MAX_FRAMES, 1, DmaFacts.of(0, 0, IommuMode.OFF));
        assertThat(plan.frames()).isEqualTo(1024);
        assertThat(plan.steps()).hasSize(21);
        assertThatThrownBy(() -> RingRequest.of(RingRequest.MAX_FRAMES + 1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside");
        assertThatThrownBy(() -> RingRequest.of(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RingRequest("ring_size", 16, 16, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void requestFromParamsUsesRingSizeAndItsMinimum() {
        Params p = Params.defaults(ParamRegistry.of(List.of(new DmaParams())))
                .with(Map.of("ring_size", "8192", "ring_size_min", "512"), Origin.explicit("test"));
        RingRequest r = RingRequest.from(p, 2);
        assertThat(r).isEqualTo(new RingRequest("ring_size", 8192, 512, 2));
        assertThat(Params.defaults(ParamRegistry.of(List.of(new DmaParams()))).get(DmaParams.RING_SIZE))
                .isEqualTo(4096L);
    }
}
