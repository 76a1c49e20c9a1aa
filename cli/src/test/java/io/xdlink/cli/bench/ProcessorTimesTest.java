package io.xdlink.cli.bench;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** /proc/stat as recent and old kernels write it, and as no kernel does. */
class ProcessorTimesTest {
    /** A 2-processor host's /proc/stat, as Linux 6.x writes it (intr line shortened). */
    static final String STAT = """
            cpu  4851423 3273 1071197 8994112 3796 0 233830 492271 0 0
            cpu0 2425711 1636 535598 4497056 1898 0 116915 246135 0 0
            cpu1 2425712 1637 535599 4497056 1898 0 116915 246136 0 0
            intr 412335161 0 9 0 0 0 0 0 0 0
            ctxt 901877339
            btime 1764720000
            processes 123456
            procs_running 2
            procs_blocked 0
            softirq 1 2 3 4 5 6 7 8 9 10 11
            """;

    final FileSystem fs = Jimfs.newFileSystem(Configuration.unix());
    final Path stat = fs.getPath("/proc/stat");

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    private ProcessorTimes read(String text) throws IOException {
        Files.createDirectories(stat.getParent());
        Files.writeString(stat, text, StandardCharsets.ISO_8859_1);
        return ProcessorTimes.read(stat);
    }

    @Test
    void aRecentKernelsTotalsWithoutGuestTimeCountedTwice() throws IOException {
        ProcessorTimes t = read(STAT);
        assertThat(t.total()).isEqualTo(4851423L + 3273 + 1071197 + 8994112 + 3796 + 0 + 233830 + 492271);
        assertThat(t.idle()).isEqualTo(8994112L + 3796);
        assertThat(t.steal()).isEqualTo(492271L);
        assertThat(t.processors()).isEqualTo(2);
    }

    @Test
    void guestTimeIsInsideUserTimeAlready() {
        ProcessorTimes t = ProcessorTimes.parse("cpu 100 0 0 50 0 0 0 10 40 5", 1);
        assertThat(t.total()).isEqualTo(160);
        assertThat(t.steal()).isEqualTo(10);
    }

    @Test
    void oldKernelsWithoutStealSayItIsUnknown() {
        assertThat(ProcessorTimes.parse("cpu 1 2 3 4", 1).steal()).isEqualTo(-1);
        assertThat(ProcessorTimes.parse("cpu 1 2 3 4 5 6 7", 1)).satisfies(t -> {
            assertThat(t.steal()).isEqualTo(-1);
            assertThat(t.idle()).isEqualTo(9);
            assertThat(t.total()).isEqualTo(28);
        });
    }

    @Test
    void malformedLinesNameWhatIsWrong() {
        assertThatThrownBy(() -> ProcessorTimes.parse("cpu0 1 2 3 4", 1))
                .hasMessageContaining("not the total cpu line").hasMessageContaining("cpu0 1 2 3 4");
        assertThatThrownBy(() -> ProcessorTimes.parse("cpu 1 2 3", 1))
                .hasMessageContaining("3 fields, fewer than user, nice, system and idle");
        assertThatThrownBy(() -> ProcessorTimes.parse("cpu 1 2 3 4 5 6 7 8 9 10 11", 1))
                .hasMessageContaining("11 fields, more than the 10");
        assertThatThrownBy(() -> ProcessorTimes.parse("cpu 1 2 -3 4", 1))
                .hasMessageContaining("field 3 of the cpu line is \"-3\", not a count of clock ticks");
        assertThatThrownBy(() -> ProcessorTimes.parse("cpu 1 2 0x3 4", 1))
                .hasMessageContaining("field 3").hasMessageContaining("0x3");
        assertThatThrownBy(() -> ProcessorTimes.parse("cpu 1 99999999999999999999 3 4", 1))
                .hasMessageContaining("field 2").hasMessageContaining("larger than a 64-bit count");
        assertThatThrownBy(() -> ProcessorTimes.parse("cpu 9223372036854775807 1 0 0", 1))
                .hasMessageContaining("add up to more than a 64-bit count");
    }

    @Test
    void hostileBytesAreQuotedEscaped() {
        assertThatThrownBy(() -> ProcessorTimes.parse("cpu 1 2 \u001b[31m 4", 1))
                .hasMessageContaining("field 3").hasMessageNotContaining("\u001b");
    }

    @Test
    void emptyTruncatedAndBinaryFilesAreRefusedNamingTheFile() {
        assertThatThrownBy(() -> read("")).hasMessageContaining("/proc/stat is empty");
        assertThatThrownBy(() -> read("cpu  48514"))
                .hasMessageContaining("/proc/stat").hasMessageContaining("1 fields");
        assertThatThrownBy(() -> read("\u00ff\u00fe\u0000\u0001 binary"))
                .hasMessageContaining("/proc/stat is not text");
        assertThatThrownBy(() -> read("intr 1 2 3\ncpu 1 2 3 4\n")).hasMessageContaining("not the total cpu line");
    }

    @Test
    void anEndlessLineOrEndlessProcessorListIsRefusedWithoutReadingItAll() {
        assertThatThrownBy(() -> read("cpu 1 2 3 4" + " 0".repeat(600_000) + "\n"))
                .hasMessageContaining("longer than");
        assertThatThrownBy(() -> read("cpu 1 2 3 4\n" + "cpu0 1 2 3 4\n".repeat(ProcessorTimes.MAX_PROCESSORS + 1)))
                .hasMessageContaining("more than " + ProcessorTimes.MAX_PROCESSORS + " processors");
    }

    @Test
    void aMissingFileIsAnIoError() {
        assertThatThrownBy(() -> ProcessorTimes.read(fs.getPath("/nowhere/stat"))).isInstanceOf(IOException.class);
    }
}
