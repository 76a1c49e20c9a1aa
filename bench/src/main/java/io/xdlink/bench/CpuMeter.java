package io.xdlink.bench;

import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * Bytes moved per second of the benchmark thread's own CPU time, over the measurement iterations. On a machine
 * shared with other work a thread loses wall-clock time whenever it is descheduled; its CPU time does not, so two
 * single-threaded figures compared per CPU-second compare the code, not the neighbours. JMH's wall-clock score is
 * still the primary result; this is the second opinion {@link SimRatios} prints beside it.
 *
 * <p>The forked benchmark JVM appends one line per benchmark, {@code name bytesPerCpuSecond}, to the file named by
 * the system property {@value #PROPERTY}, when it is set.
 */
final class CpuMeter {
    static final String PROPERTY = "xdlink.bench.cpu";
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final String name;
    private boolean measuring;
    private long startCpu;
    private long cpuNanos;
    private long bytes;

    CpuMeter(String name) {
        this.name = name;
    }

    /** Call from {@code @Setup(Level.Iteration)}. */
    void begin(IterationParams params) {
        measuring = params.getType() == IterationType.MEASUREMENT;
        startCpu = THREADS.getCurrentThreadCpuTime();
    }

    /** Counts bytes moved by one operation. */
    void moved(long n) {
        if (measuring) {
            bytes += n;
        }
    }

    /** Call from {@code @TearDown(Level.Iteration)}. */
    void end() {
        if (measuring) {
            cpuNanos += THREADS.getCurrentThreadCpuTime() - startCpu;
        }
    }

    /** Call from {@code @TearDown(Level.Trial)}: reports the figure. */
    void report() throws IOException {
        String file = System.getProperty(PROPERTY);
        if (file == null || cpuNanos == 0) {
            return;
        }
        String line = String.format(Locale.ROOT, "%s %.0f%n", name, bytes / (cpuNanos / 1e9));
        Files.writeString(Path.of(file), line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }
}
