package io.xdlink.it.lab;

import org.junit.jupiter.api.AfterAll;
import io.xdlink.it.stress.BusyLoops;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lab as a user meets it on a real USB4 link: one cable with no shaper, so the processors, not the cable, are
 * the limit, and {@code xdlink bench --baseline raw} puts xdlink beside a plain TCP socket between the same two
 * processes in one run. The ratios are printed with the tables; the floors asserted here are loose, for a cold pair
 * of JVMs on a shared machine: the benchmark, run as a user runs it, carries the targets (see the figures in
 * docs/benchmarks.md). Under the stress pass's busy loops only the runs' completing is checked.
 */
@Tag("multiprocess")
@Tag("not-under-load") // the stress pass leaves it out: StressTest says why
class UnshapedLabTest {
    private static final Pattern RATIO = Pattern.compile("xdlink/raw (bandwidth|latency): ([0-9.]+)");
    private static final String HOST = " Host {12}: \\d+ processors?, \\d+(\\.\\d)?% busy.*";

    @TempDir
    static Path dir;
    private static NetnsLab lab;
    private static LabBench bench;

    @BeforeAll
    static void build() {
        lab = NetnsLab.create("un", 1, 0, 65520);
        LabHost.write(dir.resolve("sys-a"), true, 1);
        LabHost.write(dir.resolve("sys-b"), false, 1);
        bench = new LabBench(lab, dir);
    }

    @AfterAll
    static void tearDown() {
        if (lab != null) {
            lab.close();
        }
    }

    @Test
    void bulkWritesKeepUpWithAPlainSocketOnTheSameCable() throws Exception {
        LabBench.Outcome o = bench.run("bw", List.of("write_bw", "--report_gbits", "-s", "1M", "-n", "2000",
                "--baseline", "raw", "--timeout", "60"), List.of());
        double ratio = ratio(o.clientOut(), "bandwidth");
        String host = hostLine(o.clientOut());
        System.out.println("unshaped lab, write_bw 1 MiB: xdlink/raw " + ratio + (host == null ? "" : ";" + host));
        if (!BusyLoops.active()) {
            assertThat(ratio).as(o.clientOut()).isGreaterThanOrEqualTo(0.3);
        }
        assertThat(ratio(o.serverOut(), "bandwidth")).as("the server prints the same ratio").isEqualTo(ratio);
        // TCP rails carry 16 KiB frames, not a USB4 ring's 4 KiB: both hosts say so where perftest gives its MTU.
        assertThat(o.clientOut()).as(o.clientOut()).contains(" Mtu             : 16384[B]");
        assertThat(o.serverOut()).as(o.serverOut()).contains(" Mtu             : 16384[B]");
        if (Files.isReadable(Path.of("/proc/stat"))) {
            // Each host says what else had its processors: the server's line is its own, not the client's copy.
            assertThat(host).as(o.clientOut()).isNotNull().matches(HOST);
            assertThat(hostLine(o.serverOut())).as(o.serverOut()).isNotNull().matches(HOST);
        }
    }

    @Test
    void aSmallPingPongCostsLittleMoreThanOneOverAPlainSocket() throws Exception {
        LabBench.Outcome o = bench.run("lat", List.of("write_lat", "-s", "2", "-n", "5000", "--baseline", "raw",
                "--timeout", "60"), List.of());
        double ratio = ratio(o.clientOut(), "latency");
        System.out.println("unshaped lab, write_lat 2 B: xdlink/raw " + ratio);
        if (!BusyLoops.active()) {
            assertThat(ratio).as(o.clientOut()).isLessThanOrEqualTo(5.0);
        }
    }

    /** The bench's line on how busy its host was during the run, or null. */
    private static String hostLine(String out) {
        return out.lines().filter(l -> l.startsWith(" Host            : ")).findFirst().orElse(null);
    }

    private static double ratio(String out, String kind) {
        Matcher m = RATIO.matcher(out);
        while (m.find()) {
            if (m.group(1).equals(kind)) {
                return Double.parseDouble(m.group(2));
            }
        }
        throw new AssertionError("no xdlink/raw " + kind + " ratio in:\n" + out);
    }
}
