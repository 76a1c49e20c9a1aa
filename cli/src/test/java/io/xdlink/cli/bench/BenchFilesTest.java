package io.xdlink.cli.bench;

import io.xdlink.cli.host.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The files bench reads and writes: a FIFO, a device or a huge file is refused at once in one line, result files are
 * read before a run starts, and outputs go only into directories that exist.
 */
class BenchFilesTest {

    private static void oneLine(CliRun r, int exit, String expected) {
        assertThat(r.exit()).as(r.err()).isEqualTo(exit);
        assertThat(r.err().strip().lines().toList()).as(r.err()).hasSize(1);
        assertThat(r.err()).contains(expected).doesNotContain("Exception").doesNotContain("\tat ");
    }

    static Path mkfifo(Path p) throws Exception {
        Process proc;
        try {
            proc = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "mkfifo is not installed: " + e.getMessage());
            throw e;
        }
        assertThat(proc.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(proc.exitValue()).isZero();
        return p;
    }

    private static Path result(Path dir, String name) throws IOException {
        BenchReport r = new BenchReport("earlier", Map.of("test", "RDMA_Write BW Test"), ReportUnit.MIB_PER_SEC,
                List.of(new BwResult(65536, 100, 0, 1000, 0.01, ReportUnit.MIB_PER_SEC, false)), List.of(), List.of());
        return Files.writeString(dir.resolve(name), r.toJson());
    }

    @Test
    void plotRefusesADeviceThatNeverEnds(@TempDir Path dir) {
        assumeTrue(Files.exists(Path.of("/dev/zero")));
        CliRun r = CliRun.main("bench", "plot", dir.resolve("x.png").toString(), "/dev/zero");
        oneLine(r, 1, "/dev/zero: not a regular file (a FIFO, socket or device)");
        assertThat(dir.resolve("x.png")).doesNotExist();
    }

    @Test
    void plotRefusesAFifoWithoutWaitingForAWriter(@TempDir Path dir) throws Exception {
        Path fifo = mkfifo(dir.resolve("run.json"));
        CliRun r = CliRun.main("bench", "plot", dir.resolve("x.png").toString(), fifo.toString());
        oneLine(r, 1, fifo + ": not a regular file (a FIFO, socket or device)");
    }

    @Test
    void plotRefusesAHugeFileAndADirectory(@TempDir Path dir) throws IOException {
        Path huge = dir.resolve("huge.json");
        try (RandomAccessFile f = new RandomAccessFile(huge.toFile(), "rw")) {
            f.setLength(1L << 30);
        }
        oneLine(CliRun.main("bench", "plot", dir.resolve("x.png").toString(), huge.toString()), 1,
                huge + ": larger than 16 MiB, so it is not read; not a result file");
        oneLine(CliRun.main("bench", "plot", dir.resolve("x.png").toString(), dir.toString()), 1,
                dir + ": a directory, not a file");
        oneLine(CliRun.main("bench", "plot", dir.resolve("x.png").toString(), dir.resolve("none.json").toString()),
                1, dir.resolve("none.json") + ": no such file");
    }

    @Test
    void plotWritesOnlyIntoADirectoryThatExists(@TempDir Path dir) throws IOException {
        Path run = result(dir, "a.json");
        Path png = dir.resolve("missing/sub/x.png");
        oneLine(CliRun.main("bench", "plot", png.toString(), run.toString()), 2,
                "the plot " + png + ": the directory " + png.getParent() + " does not exist");
        assertThat(dir.resolve("missing")).doesNotExist();
        CliRun ok = CliRun.main("bench", "plot", dir.resolve("x.png").toString(), run.toString());
        assertThat(ok.exit()).as(ok.err()).isZero();
        assertThat(dir.resolve("x.png")).isNotEmptyFile();
    }

    @Test
    void compareFilesAreCheckedBeforeTheRunStarts(@TempDir Path dir) throws Exception {
        Path fifo = mkfifo(dir.resolve("old.json"));
        Path bad = Files.writeString(dir.resolve("bad.json"), "{\"test_info\":{}}");
        for (Path compare : List.of(fifo, bad)) {
            CliRun r = CliRun.main("bench", "write_bw", "--loopback", "-n", "5", "--plot",
                    dir.resolve("x.png").toString(), "--compare", compare.toString());
            oneLine(r, 1, compare.toString());
            // Nothing ran: no banner, no table.
            assertThat(r.out()).isEmpty();
        }
    }

    @Test
    void jsonAndPlotIntoAMissingDirectoryAreRefusedBeforeTheRun(@TempDir Path dir) {
        Path json = dir.resolve("nodir/r.json");
        CliRun r = CliRun.main("bench", "write_bw", "--loopback", "-n", "5", "--json", json.toString());
        oneLine(r, 2, "--json " + json + ": the directory " + json.getParent() + " does not exist; create it first");
        assertThat(r.out()).isEmpty();
        Path png = dir.resolve("nodir/r.png");
        oneLine(CliRun.main("bench", "write_bw", "--loopback", "-n", "5", "--plot", png.toString()), 2,
                "--plot " + png + ": the directory");
        oneLine(CliRun.main("bench", "write_bw", "--loopback", "-n", "5", "--json", dir.toString()), 2,
                "--json " + dir + " is a directory");
        assertThat(dir.resolve("nodir")).doesNotExist();
    }
}
