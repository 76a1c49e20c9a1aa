package io.xdlink.bench;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.lang.management.ManagementFactory;

/**
 * Runs the TCP comparisons in one JMH run and prints each as a ratio of two figures measured side by side: bandwidth
 * against a plain socket blast of the same bytes, round-trip time against a plain ping-pong. Both ends live in one
 * process over 127.0.0.1, a path no user runs: the ratios find causes (the transport alone against the whole stack),
 * while the targets are met or missed only through {@code xdlink bench} in the two-host lab
 * ({@code bench/lab-ratios.sh}), whose limits each line quotes for reference. Arguments are JMH's own
 * ({@code -f 1 -wi 2 -i 3}); the benchmarks jar's entry point, so {@code java -jar} runs it.
 */
public final class Ratios {
    private Ratios() {
    }

    /**
     * One comparison: {@code candidate} over the best of {@code baselines} (a plain program can be written more than
     * one way; the comparison is with the quickest), which way is better, and the lab target's limit.
     */
    record Target(String title, List<String> baselines, String candidate, boolean higherIsBetter, double limit) {
    }

    private static final List<String> PLAIN_BLASTS = List.of("TcpBandwidthBench.plainSocketBlast",
            "TcpBandwidthBench.plainSocketBlastPolled");

    static final Target[] TARGETS = {
            // The target names a plain socket blast: the blocking one, as a plain program is written.
            new Target("xdlink WRITE bandwidth on one TCP rail, 1 MiB, 127.0.0.1, over the plain blast",
                    List.of("TcpBandwidthBench.plainSocketBlast"), "TcpBandwidthBench.xdlinkWrite", true, 0.90),
            new Target("xdlink WRITE bandwidth on one TCP rail, 1 MiB, 127.0.0.1, over the quicker of both blasts",
                    PLAIN_BLASTS, "TcpBandwidthBench.xdlinkWrite", true, 0.90),
            new Target("xdlink 2-byte WRITE round trip, 127.0.0.1", List.of("TcpLatencyBench.plainPingPong"),
                    "TcpLatencyBench.xdlinkWritePingPong", false, 1.5),
            new Target("bare TCP rail bandwidth (transport alone)", PLAIN_BLASTS,
                    "TcpBandwidthBench.tcpRailFrames", true, 0.90),
            new Target("bare TCP rail 2-byte round trip (transport alone)", List.of("TcpLatencyBench.plainPingPong"),
                    "TcpLatencyBench.tcpRailPingPong", false, 1.5),
    };

    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        OptionsBuilder options = new OptionsBuilder();
        options.parent(new CommandLineOptions(args));
        options.include(TcpBandwidthBench.class.getSimpleName());
        options.include(TcpLatencyBench.class.getSimpleName());
        Collection<RunResult> results = new Runner(options.build()).run();
        Map<String, RunResult> byName = new LinkedHashMap<>();
        for (RunResult r : results) {
            String full = r.getParams().getBenchmark();
            String[] parts = full.split("\\.");
            byName.put(parts[parts.length - 2] + "." + parts[parts.length - 1], r);
        }
        System.out.println();
        // Every figure here is wall-clock: on a machine with more runnable threads than cores they say little.
        System.out.printf(Locale.ROOT, "load average %.2f on %d processors%n",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                Runtime.getRuntime().availableProcessors());
        for (Target t : TARGETS) {
            RunResult cand = byName.get(t.candidate());
            String best = null;
            double baseline = 0;
            for (String b : t.baselines()) {
                RunResult r = byName.get(b);
                if (r != null) {
                    double v = r.getPrimaryResult().getScore();
                    if (best == null || (t.higherIsBetter() ? v > baseline : v < baseline)) {
                        best = b;
                        baseline = v;
                    }
                }
            }
            if (best == null || cand == null) {
                System.out.println(t.title() + ": not run (" + t.baselines() + ", " + t.candidate() + ")");
                continue;
            }
            System.out.println(describe(t, best, baseline, cand.getPrimaryResult().getScore(),
                    cand.getPrimaryResult().getScoreUnit()));
        }
    }

    static String describe(Target t, String baselineName, double baseline, double candidate, String unit) {
        double ratio = candidate / baseline;
        boolean met = t.higherIsBetter() ? ratio >= t.limit() : ratio <= t.limit();
        String shown = t.higherIsBetter()
                ? String.format(Locale.ROOT, "%.1f%% (the lab's target: >= %.0f%%)", ratio * 100, t.limit() * 100)
                : String.format(Locale.ROOT, "%.2fx (the lab's target: <= %.2fx)", ratio, t.limit());
        return String.format(Locale.ROOT, "%s: %s %.3f %s, %s %.3f %s, ratio %s, %s here (a diagnosis: targets are "
                        + "measured by bench/lab-ratios.sh)", t.title(), baselineName, baseline, unit, t.candidate(),
                candidate, unit, shown, met ? "within" : "outside");
    }
}
