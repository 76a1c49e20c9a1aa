package io.xdlink.bench;

import picocli.CommandLine;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.function.IntToDoubleFunction;

/**
 * Runs several ways of doing the same operation in one process, taking turns in rounds, each round in a rotated
 * order, and times every operation: whatever else a shared machine does meanwhile falls on all ways alike, so a
 * ratio taken within each round means something even where figures taken minutes apart (JMH's one benchmark after
 * another) do not. The first way is the baseline the others are held against.
 */
final class SideBySide {
    /** One operation (a round trip, a mebibyte sent); its result is summed so nothing is optimised away. */
    @FunctionalInterface
    interface Op {
        long run() throws Exception;
    }

    record Way(String name, Op op) {
    }

    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** Per way: every operation's nanoseconds, round after round. */
    private final long[][] samples;
    /** Per way and round: processor nanoseconds the whole process used (every thread of the way, both ends). */
    private final long[][] cpu;
    private final List<Way> ways;
    private final Options options;
    final String loadBefore;
    String loadAfter;
    /** Where the operations' results end up, so the JIT cannot drop the work that made them. */
    private static volatile long sink;

    private SideBySide(List<Way> ways, Options options) {
        this.ways = ways;
        this.options = options;
        this.samples = new long[ways.size()][options.rounds() * options.ops()];
        this.cpu = new long[ways.size()][options.rounds()];
        this.loadBefore = Quantiles.loadAverage();
    }

    /** Runs the warm-up rounds (not kept), then the measured ones. */
    static SideBySide run(List<Way> ways, Options options) throws Exception {
        SideBySide s = new SideBySide(ways, options);
        long[] scratch = new long[options.ops()];
        long results = 0;
        int n = ways.size();
        for (int r = -options.warmups(); r < options.rounds(); r++) {
            for (int k = 0; k < n; k++) {
                int w = Math.floorMod(r + k, n);
                long[] into = r < 0 ? scratch : s.samples[w];
                int at = r < 0 ? 0 : r * options.ops();
                Op op = ways.get(w).op();
                long cpu0 = OS.getProcessCpuTime();
                for (int i = 0; i < options.ops(); i++) {
                    long t0 = System.nanoTime();
                    results += op.run();
                    into[at + i] = System.nanoTime() - t0;
                }
                if (r >= 0) {
                    s.cpu[w][r] = OS.getProcessCpuTime() - cpu0;
                }
            }
        }
        s.loadAfter = Quantiles.loadAverage();
        sink = results;
        return s;
    }

    /** The median operation of way {@code w} in round {@code r}, in nanoseconds. */
    double roundMedian(int w, int r) {
        long[] round = Arrays.copyOfRange(samples[w], r * options.ops(), (r + 1) * options.ops());
        Arrays.sort(round);
        return Quantiles.percentile(round, 0.5);
    }

    /** The time way {@code w} took for all its operations of round {@code r}, in nanoseconds. */
    double roundTotal(int w, int r) {
        long t = 0;
        for (int i = r * options.ops(); i < (r + 1) * options.ops(); i++) {
            t += samples[w][i];
        }
        return t;
    }

    /**
     * Processor time per operation of way {@code w} in round {@code r}, in nanoseconds, over every thread of the
     * process: what the way costs in work, which, unlike its wall-clock time, a neighbour on the machine does not
     * stretch. (The other ways' threads sleep in the kernel meanwhile and add next to nothing.)
     */
    double roundCpuPerOp(int w, int r) {
        return (double) cpu[w][r] / options.ops();
    }

    /** Every operation of way {@code w}, sorted. */
    long[] sorted(int w) {
        long[] all = samples[w].clone();
        Arrays.sort(all);
        return all;
    }

    int ways() {
        return ways.size();
    }

    String name(int w) {
        return ways.get(w).name();
    }

    /** The per-round values of {@code f}, sorted, for quartiles. */
    double[] perRound(IntToDoubleFunction f) {
        double[] v = new double[options.rounds()];
        for (int r = 0; r < v.length; r++) {
            v[r] = f.applyAsDouble(r);
        }
        Arrays.sort(v);
        return v;
    }

    String header(String what) {
        return String.format(Locale.ROOT, "%s: %d rounds (after %d warm-up rounds) of %d operations per way, ways "
                + "rotating; load average %s before, %s after (%d processors)", what, options.rounds(),
                options.warmups(), options.ops(), loadBefore, loadAfter, Runtime.getRuntime().availableProcessors());
    }

    /** {@code --rounds}, {@code --ops} per way per round, {@code --warmup-rounds}; anything else is an error naming it. */
    record Options(int rounds, int ops, int warmups) {

        /** What picocli fills: the harness's defaults, then what the arguments name. */
        @CommandLine.Command(
                description = "Runs the ways in turn, round after round, and prints each way's figures side by side.")
        private static final class Args {
            @CommandLine.Option(names = {"-h", "--help"}, usageHelp = true, description = "prints this help")
            boolean help;
            @CommandLine.Option(names = "--rounds", paramLabel = "N", description = "measured rounds")
            int rounds;
            @CommandLine.Option(names = "--ops", paramLabel = "N", description = "operations per way per round")
            int ops;
            @CommandLine.Option(names = "--warmup-rounds", paramLabel = "N", description = "rounds not counted")
            int warmups;
        }

        /** The options {@code args} give over the defaults; null when only usage help was asked for. */
        static Options parse(String harness, String[] args, int rounds, int ops, int warmups) {
            Args a = new Args();
            a.rounds = rounds;
            a.ops = ops;
            a.warmups = warmups;
            if (!HarnessArgs.parse(harness, a, args)) {
                return null;
            }
            return new Options(HarnessArgs.atLeast("--rounds", a.rounds, 1), HarnessArgs.atLeast("--ops", a.ops, 1),
                    HarnessArgs.atLeast("--warmup-rounds", a.warmups, 0));
        }
    }
}
