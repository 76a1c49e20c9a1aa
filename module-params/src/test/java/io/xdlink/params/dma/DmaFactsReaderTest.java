package io.xdlink.params.dma;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DmaFactsReaderTest {
    private final FileSystem fs = Jimfs.newFileSystem(Configuration.unix());
    private final Path root = fs.getPath("/host");

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    private void write(String path, String text) throws IOException {
        Path p = root.resolve(path.substring(1));
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    private void groups(String... types) throws IOException {
        for (int i = 0; i < types.length; i++) {
            write("/sys/kernel/iommu_groups/" + i + "/type", types[i] + "\n");
        }
    }

    static final String MEMINFO_UBUNTU = """
            MemTotal:       131072000 kB
            MemFree:        120000000 kB
            CmaTotal:              0 kB
            CmaFree:               0 kB
            HugePages_Total:       0
            """;

    @Test
    void stockUbuntuWithIommuPassthroughOnTheCommandLine() throws IOException {
        write("/proc/meminfo", MEMINFO_UBUNTU);
        write("/proc/cmdline", "BOOT_IMAGE=/vmlinuz root=UUID=x ro quiet splash iommu=pt\n");
        groups("identity", "identity");
        DmaFacts f = DmaFactsReader.read(root);
        assertThat(f.cmaPresent()).isTrue();
        assertThat(f.cmaTotalBytes()).isZero();
        assertThat(f.iommu()).isEqualTo(IommuMode.PASSTHROUGH);
        assertThat(f.iommuEvidence()).contains("identity").contains("iommu=pt");
        assertThat(f.notes()).isEmpty();
    }

    @Test
    void cmaSizesAreReadInBytes() throws IOException {
        write("/proc/meminfo", "CmaTotal:  65536 kB\nCmaFree:   40960 kB\n");
        DmaFacts f = DmaFactsReader.read(root);
        assertThat(f.cmaTotalBytes()).isEqualTo(64L << 20);
        assertThat(f.cmaFreeBytes()).isEqualTo(40L << 20);
    }

    @Test
    void noCmaLinesMeansAKernelWithoutCma() throws IOException {
        write("/proc/meminfo", "MemTotal: 1000 kB\n");
        DmaFacts f = DmaFactsReader.read(root);
        assertThat(f.cmaPresent()).isFalse();
        assertThat(f.cmaText()).contains("no CMA");
    }

    @Test
    void missingFilesAreNotesAndThePessimisticCase() {
        DmaFacts f = DmaFactsReader.read(root);
        assertThat(f.cmaPresent()).isFalse();
        assertThat(f.iommu()).isEqualTo(IommuMode.OFF);
        assertThat(f.notes()).anySatisfy(n -> assertThat(n).contains("/host/proc/meminfo does not exist"))
                .anySatisfy(n -> assertThat(n).contains("/host/proc/cmdline does not exist"));
    }

    @Test
    void malformedAndHugeMeminfoValuesCountAsNoCma() {
        for (String bad : List.of("CmaTotal: lots kB", "CmaTotal: 99999999999999999999999 kB",
                "CmaTotal: 9223372036854775 kB", "CmaTotal: -5 kB", "CmaTotal: 5 MB", "CmaTotal:", "CmaTotal: 1 2 kB")) {
            List<String> notes = new ArrayList<>();
            DmaFactsReader.Cma cma = DmaFactsReader.parseMeminfo("meminfo", bad + "\nCmaFree: 4 kB\n", notes);
            assertThat(cma.total()).as(bad).isZero();
            assertThat(cma.free()).as(bad).isZero();
            assertThat(notes).as(bad).singleElement().asString().contains("meminfo:1").contains("not a number");
        }
    }

    @Test
    void inconsistentMeminfoIsRepairedWithANote() {
        List<String> notes = new ArrayList<>();
        DmaFactsReader.Cma cma = DmaFactsReader.parseMeminfo("m", "CmaTotal: 4 kB\nCmaFree: 8 kB\nCmaTotal: 9 kB\n",
                notes);
        assertThat(cma.total()).isEqualTo(4096);
        assertThat(cma.free()).isEqualTo(4096);
        assertThat(notes).hasSize(2);
        notes.clear();
        assertThat(DmaFactsReader.parseMeminfo("m", "CmaTotal: 4 kB\n", notes).free()).isZero();
        assertThat(DmaFactsReader.parseMeminfo("m", "CmaFree: 4 kB\n", notes).present()).isFalse();
    }

    @Test
    void binaryMeminfoIsHarmless() throws IOException {
        Path p = root.resolve("proc/meminfo");
        Files.createDirectories(p.getParent());
        Files.write(p, new byte[] {0, 1, 2, ':', (byte) 0xff, '\n', 'C', 'm', 'a'});
        DmaFacts f = DmaFactsReader.read(root);
        assertThat(f.cmaPresent()).isFalse();
    }

    @Test
    void translatedGroupsWinOverTheCommandLine() throws IOException {
        write("/proc/cmdline", "iommu=pt\n");
        groups("DMA-FQ", "DMA");
        assertThat(DmaFactsReader.read(root).iommu()).isEqualTo(IommuMode.TRANSLATED);
    }

    @Test
    void noGroupsMeansNoTranslationWhateverTheCommandLineSays() throws IOException {
        write("/proc/cmdline", "intel_iommu=on\n");
        DmaFacts f = DmaFactsReader.read(root);
        assertThat(f.iommu()).isEqualTo(IommuMode.OFF);
        Files.createDirectories(root.resolve("sys/kernel/iommu_groups"));
        assertThat(DmaFactsReader.read(root).iommu()).isEqualTo(IommuMode.OFF);
    }

    @Test
    void mixedGroupsArePlannedAsPassthrough() throws IOException {
        groups("identity", "DMA", "blocked");
        DmaFacts f = DmaFactsReader.read(root);
        assertThat(f.iommu()).isEqualTo(IommuMode.PASSTHROUGH);
        assertThat(f.iommuEvidence()).contains("mixed (1 identity, 1 translated)");
    }

    @Test
    void untypedGroupsFallBackToTheCommandLineOrUnknown() throws IOException {
        Files.createDirectories(root.resolve("sys/kernel/iommu_groups/0/devices"));
        assertThat(DmaFactsReader.read(root).iommu()).isEqualTo(IommuMode.UNKNOWN);
        write("/proc/cmdline", "quiet iommu.passthrough=1\n");
        assertThat(DmaFactsReader.read(root).iommu()).isEqualTo(IommuMode.PASSTHROUGH);
        write("/proc/cmdline", "iommu.passthrough=0\n");
        assertThat(DmaFactsReader.read(root).iommu()).isEqualTo(IommuMode.TRANSLATED);
    }

    @Test
    void strangeGroupTypesAreNoted() throws IOException {
        groups("identity", "w\u0001eird");
        DmaFacts f = DmaFactsReader.read(root);
        assertThat(f.iommu()).isEqualTo(IommuMode.PASSTHROUGH);
        assertThat(f.notes()).filteredOn(n -> n.contains("unexpected"))
                .singleElement().asString().contains("unexpected IOMMU domain type 'w\\x01eird'");
    }

    @Test
    void commandLineArgumentsLaterOverrideEarlier() {
        assertThat(DmaFactsReader.parseCmdline("iommu=pt iommu=nopt").mode()).isEqualTo(IommuMode.TRANSLATED);
        assertThat(DmaFactsReader.parseCmdline("iommu=nopt amd_iommu=off").mode()).isEqualTo(IommuMode.OFF);
        assertThat(DmaFactsReader.parseCmdline("intel_iommu=on,off").mode()).isEqualTo(IommuMode.OFF);
        assertThat(DmaFactsReader.parseCmdline("iommu=soft,pt").argument()).isEqualTo("iommu=soft,pt");
        assertThat(DmaFactsReader.parseCmdline("iommu.passthrough=y").mode()).isEqualTo(IommuMode.PASSTHROUGH);
        assertThat(DmaFactsReader.parseCmdline("quiet splash").mode()).isNull();
        assertThat(DmaFactsReader.parseCmdline("").mode()).isNull();
        assertThat(DmaFactsReader.parseCmdline("iommu.passthrough=maybe").mode()).isNull();
    }

    @Test
    void factsInCodeAreValidated() {
        DmaFacts f = DmaFacts.of(64L << 20, 16L << 20, IommuMode.PASSTHROUGH);
        assertThat(f.cmaText()).isEqualTo("CMA has 16 MiB free of 64 MiB");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DmaFacts.of(1, 2, IommuMode.OFF))
                .isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DmaFacts.of(-1, 0, IommuMode.OFF))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFifoUnderTheRootIsNotedNotWaitedOn(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Files.createDirectories(tmp.resolve("proc"));
        io.xdlink.params.files.BoundedFileTest.mkfifo(tmp.resolve("proc/meminfo"));
        io.xdlink.params.files.BoundedFileTest.mkfifo(tmp.resolve("proc/cmdline"));
        DmaFacts f = DmaFactsReader.read(tmp);
        assertThat(f.notes()).anySatisfy(n -> assertThat(n).contains("meminfo: not a regular file (a FIFO"))
                .anySatisfy(n -> assertThat(n).contains("cmdline: not a regular file (a FIFO"));
    }
}
