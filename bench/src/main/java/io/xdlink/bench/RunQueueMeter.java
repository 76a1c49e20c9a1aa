package io.xdlink.bench;

import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * How much of the measurement the progress threads spent runnable but waiting for a processor, from Linux's
 * per-thread scheduler statistics ({@code /proc/self/task/<tid>/schedstat}: time on a CPU, time waiting on a run
 * queue). A paced benchmark can only keep its cable busy if its threads run when a frame is due; on a machine shared
 * with other work they often cannot, and this is the figure that says so, beside the bandwidth. Elsewhere than on
 * Linux it reports nothing.
 *
 * <p>The forked JVM appends {@code runq:<name> <share of wall time waiting>} and {@code oncpu:<name> <share on a
 * CPU>} (both per progress thread, averaged) to the file named by {@value CpuMeter#PROPERTY}.
 */
final class RunQueueMeter {
    private static final Path TASKS = Path.of("/proc/self/task");

    private final String name;
    private final String[] threadPrefixes;
    private boolean measuring;
    private long startWall;
    private long[] start;
    private long wallNanos;
    private long waitNanos;
    private long cpuNanos;
    private int threads;

    /**
     * @param name         the benchmark and its parameters, as SimRatios reads them back
     * @param threadPrefixes what the names of the measured threads start with
     */
    RunQueueMeter(String name, String... threadPrefixes) {
        this.name = name;
        // Linux keeps a thread's first 15 characters as its name (comm): longer prefixes would never match.
        this.threadPrefixes = new String[threadPrefixes.length];
        for (int i = 0; i < threadPrefixes.length; i++) {
            String p = threadPrefixes[i];
            this.threadPrefixes[i] = p.length() > 15 ? p.substring(0, 15) : p;
        }
    }

    private boolean measured(String comm) {
        for (String p : threadPrefixes) {
            if (comm.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /** Call from {@code @Setup(Level.Iteration)}. */
    void begin(IterationParams params) {
        measuring = params.getType() == IterationType.MEASUREMENT;
        start = read();
        startWall = System.nanoTime();
    }

    /** Call from {@code @TearDown(Level.Iteration)}. */
    void end() {
        long[] now = read();
        if (!measuring || start == null || now == null || now[2] != start[2]) {
            return;
        }
        wallNanos += System.nanoTime() - startWall;
        cpuNanos += now[0] - start[0];
        waitNanos += now[1] - start[1];
        threads = (int) now[2];
    }

    /** Call from {@code @TearDown(Level.Trial)}. */
    void report() throws IOException {
        String file = System.getProperty(CpuMeter.PROPERTY);
        if (file == null || wallNanos == 0 || threads == 0) {
            return;
        }
        double wall = (double) wallNanos * threads;
        String lines = String.format(Locale.ROOT, "runq:%s %.4f%noncpu:%s %.4f%n", name, waitNanos / wall, name,
                cpuNanos / wall);
        Files.writeString(Path.of(file), lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    /** Sums over the matching threads: nanoseconds on a CPU, nanoseconds waiting, and how many; null off Linux. */
    private long[] read() {
        if (!Files.isDirectory(TASKS)) {
            return null;
        }
        long[] sum = new long[3];
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path t : tasks) {
                try {
                    if (!measured(Files.readString(t.resolve("comm")))) {
                        continue;
                    }
                    String[] f = Files.readString(t.resolve("schedstat")).trim().split(" ");
                    sum[0] += Long.parseLong(f[0]);
                    sum[1] += Long.parseLong(f[1]);
                    sum[2]++;
                } catch (IOException | RuntimeException gone) {
                    // A thread that ended between the listing and the read is not ours to measure.
                }
            }
        } catch (IOException e) {
            return null;
        }
        return sum;
    }
}
