package io.xdlink.bench;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.Result;

/**
 * Runs {@link SimBandwidthBench} in one JMH run and prints each simulator target beside what it is measured
 * against: unpaced WRITE bandwidth through the rails engine as a share of {@code MemorySegment.copy} (target at
 * least 50%), judged on the two measured side by side in one fork, with the figures of their separate forks beside
 * it; and real-time paced bandwidth at 10, 20 and 40 Gb/s as a share of the configured rate (target within
 * 3%), each paced figure with the share of time its progress threads spent waiting for a processor, which is
 * what a paced run on a shared machine misses its rate by. Arguments are JMH's own ({@code -wi 2 -i 3}). Run:
 * {@code java -cp bench/target/xdlink-benchmarks.jar io.xdlink.bench.SimRatios}.
 */
public final class SimRatios {
    private SimRatios() {
    }

    public static void main(String[] args) throws RunnerException, CommandLineOptionException, IOException {
        Path cpuFile = Files.createTempFile("xdlink-bench-cpu", ".txt");
        OptionsBuilder options = new OptionsBuilder();
        options.parent(new CommandLineOptions(args));
        options.include(SimBandwidthBench.class.getSimpleName());
        options.jvmArgsAppend("-D" + CpuMeter.PROPERTY + "=" + cpuFile);
        double loadBefore = load();
        Collection<RunResult> results = new Runner(options.build()).run();
        double loadAfter = load();
        Map<Integer, Double> copy = new TreeMap<>();
        Map<Integer, Double> unpaced = new TreeMap<>();
        Map<Integer, Double> frames = new TreeMap<>();
        Map<Integer, double[]> beside = new TreeMap<>();
        StringBuilder paced = new StringBuilder();
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark();
            double opsPerSecond = r.getPrimaryResult().getScore();
            if (name.endsWith("memorySegmentCopy")) {
                int bytes = Integer.parseInt(r.getParams().getParam("bytes"));
                copy.put(bytes, opsPerSecond * bytes / (1 << 20));
            } else if (name.endsWith("unpacedSimWrite")) {
                int bytes = Integer.parseInt(r.getParams().getParam("bytes"));
                unpaced.put(bytes, opsPerSecond * bytes / (1 << 20));
            } else if (name.endsWith("unpacedSimWriteBesideCopy")) {
                int bytes = Integer.parseInt(r.getParams().getParam("bytes"));
                beside.put(bytes, besideRates(r));
            } else if (name.endsWith("unpacedSimFrames")) {
                int bytes = Integer.parseInt(r.getParams().getParam("bytes"));
                frames.put(bytes, opsPerSecond * bytes / (1 << 20));
            } else if (name.endsWith("pacedSimWrite") || name.endsWith("pacedSimFrames")) {
                int rate = Integer.parseInt(r.getParams().getParam("rateMbps"));
                String what = name.endsWith("pacedSimWrite") ? "WRITE through the rails engine" : "frames, rail alone";
                paced.append(pacedLine(what, rate, opsPerSecond * SimBandwidthBench.MESSAGE * 8 / 1e6)).append('\n');
                paced.append(name.endsWith("pacedSimWrite") ? "runq:pacedSimWrite:" : "runq:pacedSimFrames:")
                        .append(rate).append('\n');
            }
        }
        Map<String, Double> cpu = new HashMap<>();
        Map<String, Double> shares = new HashMap<>();
        for (String line : Files.readAllLines(cpuFile)) {
            String[] f = line.trim().split(" ");
            if (f.length != 2) {
                continue;
            }
            if (f[0].startsWith("runq:") || f[0].startsWith("oncpu:")) {
                shares.put(f[0], Double.parseDouble(f[1]));
            } else {
                cpu.put(f[0], Double.parseDouble(f[1]) / (1 << 20));
            }
        }
        Files.deleteIfExists(cpuFile);
        System.out.println();
        System.out.printf(Locale.ROOT, "%d processors, load average %.1f before and %.1f after the run%n",
                Runtime.getRuntime().availableProcessors(), loadBefore, loadAfter);
        for (Map.Entry<Integer, double[]> e : beside.entrySet()) {
            double[] rates = e.getValue();
            double ratio = rates[0] / rates[1];
            System.out.printf(Locale.ROOT, "unpaced simulated WRITE beside MemorySegment.copy, %d KiB per op, side by "
                            + "side in one fork: %.0f MiB/s vs %.0f MiB/s, %.1f%% (target >= 50%%) %s%n",
                    e.getKey() >> 10, rates[0], rates[1], ratio * 100, ratio >= 0.5 ? "MET" : "MISSED");
        }
        for (Map.Entry<Integer, Double> e : unpaced.entrySet()) {
            int bytes = e.getKey();
            Double base = copy.get(bytes);
            if (base == null) {
                continue;
            }
            double ratio = e.getValue() / base;
            System.out.printf(Locale.ROOT, "unpaced simulated WRITE vs MemorySegment.copy, %d KiB per op, each in a "
                            + "fork of its own: %.0f MiB/s vs %.0f MiB/s, %.1f%%%s%n", bytes >> 10, e.getValue(), base,
                    ratio * 100, beside.containsKey(bytes) ? " (for reference: each fork ran on whatever processor "
                            + "it got)" : ratio >= 0.5 ? " (target >= 50%) MET" : " (target >= 50%) MISSED");
            Double cpuCopy = cpu.get("memorySegmentCopy:" + bytes);
            Double cpuSim = cpu.get("unpacedSimWrite:" + bytes);
            if (cpuCopy != null && cpuSim != null) {
                System.out.printf(Locale.ROOT, "  per CPU-second of the benchmark thread: %.0f MiB vs %.0f MiB, %.1f%%"
                        + " %s%n", cpuSim, cpuCopy, cpuSim / cpuCopy * 100, cpuSim / cpuCopy >= 0.5 ? "MET" : "MISSED");
            }
            Double rail = frames.get(bytes);
            Double cpuRail = cpu.get("unpacedSimFrames:" + bytes);
            if (rail != null) {
                System.out.printf(Locale.ROOT, "  the simulated rail alone (no engine): %.0f MiB/s, %.1f%% of the copy%s%n",
                        rail, rail / base * 100, cpuRail == null || cpuCopy == null ? ""
                                : String.format(Locale.ROOT, "; per CPU-second %.0f MiB, %.1f%%", cpuRail,
                                cpuRail / cpuCopy * 100));
            }
        }
        for (String line : paced.toString().split("\n")) {
            if (line.startsWith("runq:")) {
                Double waiting = shares.get(line);
                Double running = shares.get("oncpu:" + line.substring("runq:".length()));
                if (waiting != null && running != null) {
                    System.out.printf(Locale.ROOT, "  %s: %.0f%% of the time waiting for a processor, %.0f%% on one"
                                    + " (each, averaged)%n", line.startsWith("runq:pacedSimWrite:") ? "progress threads"
                                    : "sender and receiver threads", waiting * 100, running * 100);
                }
            } else if (!line.isEmpty()) {
                System.out.println(line);
            }
        }
    }

    /**
     * WRITE and copy bandwidth, MiB/s, of a side-by-side run: bytes over the time each way took, from the
     * {@link SimBandwidthBench.Split} counters summed over the measurement.
     */
    static double[] besideRates(RunResult r) {
        Map<String, Result> aux = r.getSecondaryResults();
        double writeBytes = aux.get("writeBytes").getScore();
        double writeNanos = aux.get("writeNanos").getScore();
        double copyBytes = aux.get("copyBytes").getScore();
        double copyNanos = aux.get("copyNanos").getScore();
        double mib = 1 << 20;
        return new double[]{writeBytes / writeNanos * 1e9 / mib, copyBytes / copyNanos * 1e9 / mib};
    }

    private static double load() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    static String pacedLine(String what, int rateMbps, double measuredMbps) {
        double share = measuredMbps / rateMbps;
        boolean met = Math.abs(share - 1) <= 0.03;
        return String.format(Locale.ROOT, "real-time paced %s at %d Mb/s: measured %.0f Mb/s, %.1f%% of the "
                + "configured rate (target within 3%%) %s", what, rateMbps, measuredMbps, share * 100,
                met ? "MET" : "MISSED");
    }
}
