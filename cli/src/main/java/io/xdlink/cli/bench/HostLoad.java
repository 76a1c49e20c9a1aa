package io.xdlink.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What else had this host's processors while a run measured: how busy they were, how much of their time the
 * hypervisor gave to other machines ({@code steal}), and the load average before and after. A figure measured on a
 * busy or shared host moves from run to run (on a 2-core virtual machine whose hypervisor took about 40% of the
 * time, three quick starts in a row gave 1109 to 1992 MB/s), so the bench prints this under its table and warns
 * when the hypervisor took enough to make a single figure unreliable.
 *
 * @param processors   processors the kernel counts
 * @param busyPercent  the share of all processor time spent neither idle nor stolen, this run's own work included
 * @param stealPercent the share the hypervisor took, or -1 when the kernel does not report it
 * @param loadBefore   the 1-minute load average when the window opened, or -1 when unknown
 * @param loadAfter    the same when it closed, or -1 when unknown
 */
record HostLoad(int processors, double busyPercent, double stealPercent, double loadBefore, double loadAfter) {

    /** Where the running kernel publishes its processor times and load average. */
    static final Path PROC = Path.of("/proc");

    /** From this share of stolen time on, a single run's figure is called unreliable. */
    static final double STEAL_WARNING_PERCENT = 5.0;

    /** Where the kernel's files are read from: {@code /proc}, or a copy of it in tests. */
    static Window open(Path proc) {
        return new Window(proc, times(proc), load(proc));
    }

    /** A measurement window, opened before the measured phases start. */
    static final class Window {
        private final Path proc;
        private final ProcessorTimes start;
        private final double loadBefore;

        private Window(Path proc, ProcessorTimes start, double loadBefore) {
            this.proc = proc;
            this.start = start;
            this.loadBefore = loadBefore;
        }

        /** The window's figures; empty when the processor times could not be read at either end or went backwards. */
        Optional<HostLoad> close() {
            ProcessorTimes end = times(proc);
            if (start == null || end == null) {
                return Optional.empty();
            }
            long total = end.total() - start.total();
            long idle = end.idle() - start.idle();
            boolean stealKnown = start.steal() >= 0 && end.steal() >= 0;
            long steal = stealKnown ? end.steal() - start.steal() : 0;
            // Counters that went backwards or parts larger than the whole: not the kernel's (or a reset), no figure.
            if (total <= 0 || idle < 0 || steal < 0 || idle + steal > total) {
                return Optional.empty();
            }
            return Optional.of(new HostLoad(end.processors(), 100.0 * (total - idle - steal) / total,
                    stealKnown ? 100.0 * steal / total : -1, loadBefore, load(proc)));
        }
    }

    /** The line printed under the table. */
    String line() {
        StringBuilder b = new StringBuilder(" Host            : ");
        b.append(processors).append(processors == 1 ? " processor, " : " processors, ")
                .append(percent(busyPercent)).append(" busy");
        if (stealPercent >= 0) {
            b.append(", ").append(percent(stealPercent)).append(" taken by the hypervisor (steal)");
        }
        if (loadBefore >= 0 && loadAfter >= 0) {
            b.append("; load average ").append(load(loadBefore)).append(" before, ").append(load(loadAfter))
                    .append(" after");
        }
        return b.toString();
    }

    /**
     * The figures as {@code --json} keeps them under {@code test_info}: {@code processors},
     * {@code processors_busy_percent}, and {@code steal_percent} and the load averages where known.
     */
    Map<String, String> testInfo() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("processors", Integer.toString(processors));
        m.put("processors_busy_percent", String.format(Locale.ROOT, "%.1f", busyPercent));
        if (stealPercent >= 0) {
            m.put("steal_percent", String.format(Locale.ROOT, "%.1f", stealPercent));
        }
        if (loadBefore >= 0 && loadAfter >= 0) {
            m.put("load_average_before", load(loadBefore));
            m.put("load_average_after", load(loadAfter));
        }
        return m;
    }

    /** A warning when the hypervisor took so much that one run's figure says little on its own. */
    Optional<String> warning() {
        if (stealPercent < STEAL_WARNING_PERCENT) {
            return Optional.empty();
        }
        return Optional.of("the hypervisor took " + percent(stealPercent) + " of this host's processor time during "
                + "the run (steal in /proc/stat): a figure from such a run may not repeat; compare figures measured "
                + "side by side in one run (--baseline raw), or rerun on a quiet host");
    }

    private static String load(double average) {
        return String.format(Locale.ROOT, "%.2f", average);
    }

    private static String percent(double p) {
        return String.format(Locale.ROOT, p < 10 ? "%.1f%%" : "%.0f%%", p);
    }

    /** The processor times, or null when the file is missing or not what the kernel writes. */
    private static ProcessorTimes times(Path proc) {
        try {
            return ProcessorTimes.read(proc.resolve("stat"));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The 1-minute load average, or -1 when {@code loadavg} is missing or malformed. */
    static double load(Path proc) {
        try {
            Path file = proc.resolve("loadavg");
            if (Files.size(file) > 4096) {
                return -1;
            }
            String text = Files.readString(file).strip();
            String first = text.split("\\s+", 2)[0];
            if (!first.matches("\\d{1,6}\\.\\d{1,3}")) {
                return -1;
            }
            return Double.parseDouble(first);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
