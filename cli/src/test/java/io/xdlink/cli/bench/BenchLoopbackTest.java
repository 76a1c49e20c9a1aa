package io.xdlink.cli.bench;

import io.xdlink.cli.host.CliRun;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every test end to end over the simulated fabric in this process: both ends, the rendezvous on 127.0.0.1, perftest's
 * table. Short runs: this checks behaviour and format, never speed. Some run as a user does, warm-up included: a
 * bandwidth test, the latency tests and the raw baseline, whose warm-ups differ, and the two that read the host's
 * load over the run, which needs a run longer than a tick of the processor counters. The rest pass
 * {@value #NO_WARM_UP}, since a warm-up is at least eight quarter-second rounds and nothing they check depends on it.
 */
class BenchLoopbackTest {
    /** perftest's row, or its extended-precision row below 0.1 Gb/s. */
    private static final Pattern BW_ROW = Pattern.compile(" \\d+ +\\d+ +\\d+\\.\\d\\d +\\d+\\.\\d\\d *\\t\\t {5}\\d+\\.\\d{6}"
            + "| \\d+ +\\d+ {11}\\d+\\.\\d{6} {12}\\d+\\.\\d{6} {12}\\d+\\.\\d{6}");
    private static final String NO_WARM_UP = "--no-perform_warm_up";
    private static final Pattern LAT_ROW = Pattern.compile(" \\d+ +\\d+ {10}\\d+\\.\\d\\d.*");

    private static List<String> table(String out) {
        return out.lines().filter(l -> l.startsWith(" ") && Character.isDigit(l.strip().charAt(0))).toList();
    }

    @Test
    void writeBandwidthPrintsPerftestsTableAndWritesJson(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("run.json");
        CliRun r = CliRun.main("bench", "write_bw", "--loopback", "-n", "200", "-s", "64K", "--report_gbits",
                "--json", json.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("                    RDMA_Write BW Test")
                .contains(" #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]")
                .contains(" Link loopback0  : Gen 3 x2, 40 Gb/s").contains(" Rail 0          : ")
                .contains(" Mtu             : 4096[B]");
        List<String> rows = table(r.out());
        assertThat(rows).hasSize(1);
        assertThat(rows.getFirst()).matches(BW_ROW).startsWith(" 65536      200 ");
        BenchReport report = BenchReport.fromJson("run.json", Files.readString(json));
        assertThat(report.bw()).hasSize(1);
        assertThat(report.label()).isEqualTo("write_bw, 1 rail on 1 cable, loopback");
        assertThat(report.bw().getFirst().iterations()).isEqualTo(200);
        assertThat(report.bw().getFirst().average()).isPositive();
    }

    @Test
    void theHostsLoadOverTheRunFollowsTheTable() {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/stat")), "no /proc/stat on this host");
        // With its warm-up: the load is read over the whole run, and 50 round trips alone can fall within one tick
        // of the kernel's processor counters, where there is no figure to print.
        CliRun r = CliRun.main("bench", "write_lat", "--loopback", "-n", "50");
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        int host = lines.indexOf(lines.stream().filter(l -> l.startsWith(" Host            : ")).findFirst()
                .orElseThrow(() -> new AssertionError("no Host line in:\n" + r.out())));
        assertThat(lines.get(host)).matches(" Host            : \\d+ processors?, \\d+(\\.\\d)?% busy.*");
        assertThat(lines.subList(0, host)).anyMatch(l -> LAT_ROW.matcher(l).matches());
        assertThat(r.out().lines().filter(l -> l.startsWith(" Host "))).as("one line for the one host").hasSize(1);
    }

    @Test
    void jsonKeepsTheHostsLoad(@TempDir Path dir) throws IOException {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/stat")), "no /proc/stat on this host");
        Path json = dir.resolve("run.json");
        // With its warm-up, for the reason above.
        CliRun r = CliRun.main("bench", "write_lat", "--loopback", "-n", "50", "--json", json.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(BenchReport.fromJson("run.json", Files.readString(json)).testInfo())
                .containsKeys("processors", "processors_busy_percent")
                .hasEntrySatisfying("processors", p -> assertThat(Integer.parseInt(p)).isPositive());
    }

    /**
     * A TX depth below the completion moderation (-t 16 with the default -Q 100) posted 16 unsignalled writes and
     * waited for a completion that never came; as perftest, the moderation follows the depth down.
     */
    @Test
    void aTxDepthBelowTheModerationLowersTheModeration() {
        CliRun r = CliRun.main("bench", "write_bw", "--loopback", "-t", "16", "-n", "64", "--timeout", "20",
                NO_WARM_UP);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains(" TX depth        : 16").contains(" CQ Moderation   : 16");
        assertThat(table(r.out())).hasSize(1);

        CliRun lower = CliRun.main("bench", "write_bw", "--loopback", "-t", "16", "-Q", "4", "-n", "64", NO_WARM_UP);
        assertThat(lower.exit()).as(lower.err()).isZero();
        assertThat(lower.out()).contains(" CQ Moderation   : 4");
    }

    @Test
    void aSingleLaneLinkIsWhatTheBannerSays() {
        CliRun r = CliRun.main("bench", "write_bw", "--loopback", "--link", "gen3x1", "-n", "20", NO_WARM_UP);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("Gen 3 x1, 20 Gb/s");
    }

    @Test
    void everySizeWithMinimalIterations(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("all.png");
        CliRun r = CliRun.main("bench", "send_bw", "--loopback", "-a", "-n", "5", "--plot", png.toString(),
                NO_WARM_UP);
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> rows = table(r.out());
        assertThat(rows).hasSize(23);
        assertThat(rows.getFirst()).startsWith(" 2          5 ");
        assertThat(rows.getLast()).startsWith(" 8388608    5 ");
        assertThat(ImageIO.read(png.toFile())).isNotNull();
    }

    @Test
    void latencyTestsPrintPerftestsLatencyTable() {
        for (String test : List.of("write_lat", "send_lat")) {
            CliRun r = CliRun.main("bench", test, "--loopback", "-n", "50");
            assertThat(r.exit()).as(test + ": " + r.err()).isZero();
            assertThat(r.out()).contains(PerftestTable.latencyHeader());
            List<String> rows = table(r.out());
            assertThat(rows).as(test).hasSize(1);
            assertThat(rows.getFirst()).matches(LAT_ROW).startsWith(" 2       50 ");
        }
    }

    @Test
    void rawBaselineRowAndRatio() {
        CliRun r = CliRun.main("bench", "write_bw", "--loopback", "-n", "50", "--baseline", "raw");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains(" Baseline        : plain TCP socket to 127.0.0.1")
                .containsPattern(" 65536      xdlink/raw bandwidth: \\d+\\.\\d\\d");
        assertThat(table(r.out()).stream().filter(l -> BW_ROW.matcher(l).matches())).hasSize(2);
    }

    @Test
    void inTurnsBothRowsCountEveryIterationAndTheBaselineSaysHowItRan() {
        CliRun lat = CliRun.main("bench", "write_lat", "--loopback", "-n", "61", "--baseline", "raw", "--turns", "4");
        assertThat(lat.exit()).as(lat.err()).isZero();
        assertThat(lat.out()).contains(" Baseline        : plain TCP socket to 127.0.0.1, congestion control cubic as the "
                + "rails', same sizes and iterations, in 4 turns with xdlink's").containsPattern(" 2 +xdlink/raw latency: \\d+\\.\\d\\d");
        assertThat(table(lat.out()).stream().filter(l -> LAT_ROW.matcher(l).matches()))
                .hasSize(2).allSatisfy(l -> assertThat(l).startsWith(" 2       61 "));

        CliRun bw = CliRun.main("bench", "write_bw", "--loopback", "-n", "30", "--baseline", "raw", "--turns", "3",
                NO_WARM_UP, "--json", "-");
        assertThat(bw.exit()).as(bw.err()).isZero();
        List<BenchReport> runs = BenchReport.allFromJson("stdout", bw.out());
        assertThat(runs).hasSize(2);
        for (BenchReport run : runs) {
            assertThat(run.testInfo()).containsEntry("turns", "3");
            assertThat(run.bw()).singleElement().satisfies(b -> {
                assertThat(b.iterations()).isEqualTo(30);
                assertThat(b.average()).isPositive();
            });
        }
    }

    @Test
    void aPollingBaselineSaysSoAndRunsEveryIterationAlone() {
        CliRun lat = CliRun.main("bench", "write_lat", "--loopback", "-n", "200", "--baseline", "poll", "--turns",
                "2", "--json", "-");
        assertThat(lat.exit()).as(lat.err()).isZero();
        assertThat(lat.err()).contains(" Baseline        : plain TCP socket to 127.0.0.1, both ends polling, congestion "
                + "control cubic as the rails', same sizes and iterations, in 2 turns with xdlink's").containsPattern(" 2 +xdlink/raw latency: ");
        List<BenchReport> runs = BenchReport.allFromJson("stdout", lat.out());
        assertThat(runs).hasSize(2);
        assertThat(runs.get(1).label()).isEqualTo("polling TCP baseline");

        CliRun bw = CliRun.main("bench", "write_bw", "--loopback", "-n", "40", "--baseline", "poll", NO_WARM_UP);
        assertThat(bw.exit()).as(bw.err()).isZero();
        assertThat(bw.out()).contains(" Baseline        : plain TCP socket to 127.0.0.1, both ends polling")
                .containsPattern(" 65536      xdlink/raw bandwidth: \\d+\\.\\d\\d");
        assertThat(table(bw.out()).stream().filter(l -> BW_ROW.matcher(l).matches())).hasSize(2);
    }

    @Test
    void jsonToStandardOutputHoldsTheRunAndItsRawBaselineAndNothingElse() {
        CliRun r = CliRun.main("bench", "write_bw", "--loopback", "-n", "20", "--baseline", "raw", "--json", "-",
                NO_WARM_UP);
        assertThat(r.exit()).as(r.err()).isZero();
        // The table moves to standard error so that standard output is one JSON document.
        assertThat(r.err()).contains(" Baseline        : plain TCP socket to 127.0.0.1");
        List<BenchReport> runs = BenchReport.allFromJson("stdout", r.out());
        assertThat(runs).hasSize(2);
        assertThat(runs.get(0).label()).isEqualTo("write_bw, 1 rail on 1 cable, loopback");
        assertThat(runs.get(0).bw()).singleElement().satisfies(b -> assertThat(b.iterations()).isEqualTo(20));
        assertThat(runs.get(1).label()).isEqualTo("raw TCP baseline");
        assertThat(runs.get(1).bw()).singleElement().satisfies(b -> assertThat(b.average()).isPositive());
    }

    @Test
    void theBaselineTakesTheRailsCongestionControlOrTheHostsWhenTheRailsCannot() {
        CliRun host = CliRun.main("bench", "write_bw", "--loopback", "-n", "20", "--baseline", "raw",
                "-P", "tcp_congestion=", NO_WARM_UP);
        assertThat(host.exit()).as(host.err()).isZero();
        assertThat(host.out()).contains(" Baseline        : plain TCP socket to 127.0.0.1, the host's congestion "
                + "control as the rails', same sizes and iterations");
        CliRun misspelt = CliRun.main("bench", "write_bw", "--loopback", "-n", "20", "--baseline", "raw",
                "-P", "tcp_congestion=cubci", NO_WARM_UP);
        assertThat(misspelt.exit()).as(misspelt.err()).isZero();
        assertThat(misspelt.out()).contains(" Baseline        : plain TCP socket to 127.0.0.1, the host's congestion "
                + "control as the rails', same sizes and iterations");
        assertThat(misspelt.err()).contains("xdlink: warning: tcp_congestion=cubci: setsockopt(TCP_CONGESTION, "
                + "cubci) failed: errno 2 (ENOENT").contains("; rails keep the host's default congestion control");
    }

    @Test
    void aRailThatDoesNotExistIsRefusedAtOnceWithTheRailsThatDo() {
        CliRun r = CliRun.main("bench", "write_bw", "--loopback", "--rail", "thunderbolt9", "--rail", "port0",
                "--timeout", "600");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("xdlink: --rail \"thunderbolt9\" names no rail; the rails are: port0 (link "
                + "loopback0 to loopback-peer0)\n");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aRailNamedByItsInterfaceRunsOnThatCableAtBothEnds() {
        CliRun r = CliRun.main("bench", "write_bw", "--loopback", "-P", "loopback=3", "--rail", "port2", "-n", "20",
                NO_WARM_UP);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains(" Link loopback2  : Gen 3 x2, 40 Gb/s via port2")
                .contains(" Rail 0          : sim:loopback2/rail0 on cable loopback2").doesNotContain("loopback0");
    }

    @Test
    void aServerThatNeverAnswersIsOneLineAndExitOne() throws IOException {
        try (ServerSocket silent = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            CliRun r = CliRun.main("bench", "write_bw", "127.0.0.1", "-p", Integer.toString(silent.getLocalPort()),
                    "--timeout", "1", "-P", "loopback=1");
            assertThat(r.exit()).isEqualTo(1);
            assertThat(r.err().strip().lines().toList()).hasSize(1);
            // A listener that never greets is not an xdlink server, said within the greeting's wait.
            assertThat(r.err()).contains("is not an xdlink bench server: it sent nothing within 1 s")
                    .doesNotContain("Exception");
        }
    }

    @Test
    void aPortInUseIsOneLineAndExitOne() throws IOException {
        try (ServerSocket taken = new ServerSocket(0)) {
            CliRun r = CliRun.main("bench", "write_bw", "-p", Integer.toString(taken.getLocalPort()),
                    "-P", "loopback=1");
            assertThat(r.exit()).isEqualTo(1);
            assertThat(r.err()).contains("is already in use").doesNotContain("Exception");
        }
    }

    @Test
    void aFrameSizeTheSimulatedRingsCannotCarryIsAClearErrorBeforeAnythingRuns() {
        CliRun r = CliRun.main("bench", "write_bw", "--loopback", "-n", "10", "-s", "64K", "-P", "frame_bytes=16384");
        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("frame_bytes=16384").contains("at most 4096 bytes a frame");
        assertThat(r.out()).doesNotContain("RDMA_Write BW Test");

        CliRun smaller = CliRun.main("bench", "write_bw", "--loopback", "-n", "50", "-s", "64K", "-P",
                "frame_bytes=2048", NO_WARM_UP);
        assertThat(smaller.exit()).as(smaller.err()).isZero();
        assertThat(smaller.out()).contains(" Mtu             : 2048[B]");
        assertThat(table(smaller.out())).hasSize(1);
    }
}
