package io.xdlink.cli.doctor;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DmaCheckTest extends CheckTestBase {
    @Override
    Check check() {
        return new DmaCheck();
    }

    /** Stock Ubuntu with the IOMMU in passthrough: CMA built in but no area reserved. */
    HostFixture stockUbuntuPassthrough() {
        return fx.file("/proc/meminfo", "MemTotal:       65536000 kB\nCmaTotal:              0 kB\n"
                        + "CmaFree:               0 kB\n")
                .file("/proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/nvme0n1p2 ro iommu=pt\n")
                .file("/sys/kernel/iommu_groups/0/type", "identity\n")
                .file("/sys/kernel/iommu_groups/1/type", "identity\n");
    }

    @Test
    void fieldFailure4096FrameRingWithNoCmaAndPassthrough() {
        stockUbuntuPassthrough().file("/etc/modprobe.d/odl_tb5.conf", "options odl_tb5 ring_size=1024\n")
                .file("/sys/module/odl_tb5/parameters/odl_ring_size", "4096\n");

        CheckResult c = result("dma/odl_tb5");

        assertThat(c.status()).isEqualTo(Status.FAIL);
        assertThat(c.summary()).startsWith("odl_tb5 rings of 4096 frames (odl_ring_size=4096 in the loaded module):"
                + " 16 MiB does not fit: it is over the buddy allocator's 4 MiB largest block, so it must come from"
                + " CMA, and CmaTotal is 0 (no CMA area is reserved)");
        assertThat(c.summary()).endsWith("odl_tb5 does not fall back, so its probe fails with -ENOMEM; 1024 frames"
                + " (4 MiB) fit");
        assertThat(c.fix()).startsWith("add 'options odl_tb5 odl_ring_size=1024' to /etc/modprobe.d/odl_tb5.conf and"
                + " reload it, or reserve at least 16 MiB of CMA per ring");
        CheckResult facts = result("dma");
        assertThat(facts.summary()).contains("CmaTotal is 0").contains("iommu=pt");
        CheckResult xdlink = result("dma/xdlink");
        assertThat(xdlink.status()).isEqualTo(Status.WARN);
        assertThat(xdlink.summary()).contains("ring_size=4096 frames needs 16 MiB").contains("Using 1024 frames");
    }

    @Test
    void theDefaultRingWhenOnlyTheWrongNameIsSet() {
        stockUbuntuPassthrough().file("/etc/modprobe.d/odl_tb5.conf", "options odl_tb5 ring_size=1024\n");

        CheckResult c = result("dma/odl_tb5");

        assertThat(c.status()).isEqualTo(Status.FAIL);
        assertThat(c.summary()).startsWith("odl_tb5 rings of 4096 frames (odl_ring_size at its default of 4096 (no"
                + " line sets it under the name the module declares)): 16 MiB does not fit");
    }

    @Test
    void aRingThatFitsIsOk() {
        stockUbuntuPassthrough().file("/etc/modprobe.d/odl_tb5.conf", "options odl_tb5 odl_ring_size=1024\n")
                .file("/etc/xdlink/xdlink.conf", "options xdlink ring_size=1024\n");

        assertThat(run()).allSatisfy(c -> assertThat(c.status()).isEqualTo(Status.OK));
        assertThat(result("dma/odl_tb5").summary()).isEqualTo("odl_tb5 rings of 4096 frames".replace("4096", "1024")
                + " (odl_ring_size=1024 at /etc/modprobe.d/odl_tb5.conf:1): 4 MiB fits: each ring is within the buddy"
                + " allocator's largest block (4 MiB, order 10)");
        assertThat(result("dma/xdlink").summary()).startsWith("xdlink rings of 1024 frames, ring_size=1024"
                + " (/etc/xdlink/xdlink.conf:1)");
    }

    @Test
    void aTranslatingIommuFitsAnySizeAndCmaCanToo() {
        fx.file("/proc/meminfo", "CmaTotal:          65536 kB\nCmaFree:           65536 kB\n")
                .file("/sys/kernel/iommu_groups/0/type", "DMA-FQ\n")
                .file("/sys/module/odl_tb5/parameters/odl_ring_size", "4096\n");

        assertThat(run()).allSatisfy(c -> assertThat(c.status()).isEqualTo(Status.OK));
        assertThat(result("dma/odl_tb5").summary()).contains("a translating IOMMU maps scattered pages");
    }

    @Test
    void noForeignDriverNoForeignLine() {
        stockUbuntuPassthrough();
        assertThat(run()).extracting(CheckResult::id).containsExactly("dma", "dma/xdlink");
    }
}
