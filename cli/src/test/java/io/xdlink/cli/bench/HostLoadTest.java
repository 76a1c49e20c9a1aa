package io.xdlink.cli.bench;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The host's share over a window, from two readings of a fake /proc. */
class HostLoadTest {
    final FileSystem fs = Jimfs.newFileSystem(Configuration.unix());
    final Path proc = fs.getPath("/proc");

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    private void stat(String cpuLine) throws IOException {
        Files.createDirectories(proc);
        Files.writeString(proc.resolve("stat"), cpuLine + "\ncpu0 0 0 0 0\ncpu1 0 0 0 0\nintr 0\n");
    }

    private void loadavg(String text) throws IOException {
        Files.createDirectories(proc);
        Files.writeString(proc.resolve("loadavg"), text);
    }

    @Test
    void busyAndStolenSharesOfTheWindowOnly() throws IOException {
        stat("cpu  1000 0 500 8000 100 0 0 400 0 0");
        loadavg("1.24 0.80 0.50 2/79 11872\n");
        HostLoad.Window w = HostLoad.open(proc);
        // Over the window: 600 user, 200 system, 800 idle, 200 iowait, 200 steal of 2000 ticks.
        stat("cpu  1600 0 700 8800 300 0 0 600 0 0");
        loadavg("2.40 1.00 0.60 1/80 11900\n");
        HostLoad h = w.close().orElseThrow();
        assertThat(h.processors()).isEqualTo(2);
        assertThat(h.busyPercent()).isEqualTo(40.0);
        assertThat(h.stealPercent()).isEqualTo(10.0);
        assertThat(h.loadBefore()).isEqualTo(1.24);
        assertThat(h.loadAfter()).isEqualTo(2.40);
        assertThat(h.line()).isEqualTo(" Host            : 2 processors, 40% busy, 10% taken by the hypervisor (steal);"
                + " load average 1.24 before, 2.40 after");
        assertThat(h.warning()).hasValueSatisfying(m -> assertThat(m)
                .startsWith("the hypervisor took 10% of this host's processor time during the run")
                .contains("--baseline raw"));
    }

    @Test
    void jsonKeepsWhatIsKnown() {
        assertThat(new HostLoad(2, 40, 10, 1.24, 2.4).testInfo()).containsExactly(
                Map.entry("processors", "2"), Map.entry("processors_busy_percent", "40.0"),
                Map.entry("steal_percent", "10.0"), Map.entry("load_average_before", "1.24"),
                Map.entry("load_average_after", "2.40"));
        assertThat(new HostLoad(1, 12.34, -1, -1, -1).testInfo()).containsExactly(
                Map.entry("processors", "1"), Map.entry("processors_busy_percent", "12.3"));
    }

    @Test
    void littleStealIsReportedWithoutAWarning() throws IOException {
        stat("cpu 0 0 0 0 0 0 0 0");
        HostLoad.Window w = HostLoad.open(proc);
        stat("cpu 300 0 0 651 0 0 0 49");
        HostLoad h = w.close().orElseThrow();
        assertThat(h.stealPercent()).isEqualTo(4.9);
        assertThat(h.line()).contains("30% busy, 4.9% taken by the hypervisor (steal)");
        assertThat(h.warning()).isEmpty();
        HostLoad atThreshold = new HostLoad(2, 50, HostLoad.STEAL_WARNING_PERCENT, 1, 1);
        assertThat(atThreshold.warning()).isPresent();
    }

    @Test
    void aKernelWithoutStealOrLoadAverageGivesWhatItHas() throws IOException {
        stat("cpu 0 0 0 0");
        HostLoad.Window w = HostLoad.open(proc);
        stat("cpu 50 0 0 50");
        HostLoad h = w.close().orElseThrow();
        assertThat(h.stealPercent()).isEqualTo(-1);
        assertThat(h.line()).isEqualTo(" Host            : 2 processors, 50% busy");
        assertThat(h.warning()).isEmpty();
    }

    @Test
    void malformedOrHostileLoadAveragesAreLeftOut() throws IOException {
        for (String bad : new String[] {"", "nan 1 1", "-1.00 0 0", "1e308 0 0", "12345678.5 0 0", "\u0000\u0001",
                "0.5".repeat(3000)}) {
            loadavg(bad);
            assertThat(HostLoad.load(proc)).as("loadavg %s", bad).isEqualTo(-1);
        }
        loadavg("0.07 0.10 0.20 1/2 3\n");
        assertThat(HostLoad.load(proc)).isEqualTo(0.07);
    }

    @Test
    void noFigureFromAMissingMalformedOrBackwardsProcStat() throws IOException {
        assertThat(HostLoad.open(proc).close()).isEmpty();

        stat("cpu 1 2 3 4");
        HostLoad.Window w = HostLoad.open(proc);
        stat("garbage");
        assertThat(w.close()).isEmpty();

        stat("cpu 100 0 0 100 0 0 0 10");
        w = HostLoad.open(proc);
        stat("cpu 50 0 0 100 0 0 0 10");
        assertThat(w.close()).as("counters went backwards").isEmpty();

        stat("cpu 100 0 0 100 0 0 0 10");
        w = HostLoad.open(proc);
        assertThat(w.close()).as("no time passed").isEmpty();

        stat("cpu 100 0 0 100 0 0 0 10");
        w = HostLoad.open(proc);
        stat("cpu 100 0 0 200 0 0 0 5");
        assertThat(w.close()).as("steal went backwards").isEmpty();
    }

    @Test
    void theLineGoesUnderTheTableAndTheWarningToTheErrorStream() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        BenchOutput o = new BenchOutput(new PrintWriter(out), null);
        o.host(Optional.of(new HostLoad(1, 99, 20, 3.5, 4)), new PrintWriter(err));
        assertThat(out.toString()).isEqualTo(" Host            : 1 processor, 99% busy, 20% taken by the hypervisor"
                + " (steal); load average 3.50 before, 4.00 after" + System.lineSeparator());
        assertThat(err.toString()).startsWith("xdlink: warning: the hypervisor took 20% of this host's processor time");
        o.host(Optional.empty(), new PrintWriter(err));
        assertThat(out.toString()).hasLineCount(1);
    }
}
