package io.xdlink.bench;

import java.util.Arrays;
import java.util.Locale;

/**
 * The 2-byte round trip over 127.0.0.1 three ways in one process and one run: a plain socket ping-pong, the bare
 * TCP rail's frames, and xdlink WRITEs answered by WRITEs through the whole stack ({@link TcpLatencyBench}'s
 * states, so the code under test is the JMH benchmark's). The ways take turns in rounds, each round in a rotated
 * order, so whatever else a shared machine does in the meantime falls on all of them alike; the ratio the target
 * speaks of is taken per round (xdlink's median over plain's median of the same round) and its median reported
 * with quartiles. JMH's {@link Ratios} runs the ways one after the other instead, minutes apart on a busy box.
 *
 * <p>Arguments: {@code --rounds N} (default 60), {@code --round-trips N} per way per round (default 2000),
 * {@code --warmup-rounds N} (default 5, not counted).
 */
public final class TcpLatency {
    static final double TARGET = 1.5;
    private static final String[] NAMES = {"plain socket", "bare TCP rail", "xdlink WRITE"};

    private TcpLatency() {
    }

    /** One way of making a round trip; returns nothing of interest, but the benchmark's value keeps it honest. */
    @FunctionalInterface
    private interface Trip {
        int run() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args, 60, 2000, 5);
        String loadBefore = Quantiles.loadAverage();
        TcpLatencyBench bench = new TcpLatencyBench();
        TcpLatencyBench.PlainPingPong plain = new TcpLatencyBench.PlainPingPong();
        TcpLatencyBench.RailPingPong rail = new TcpLatencyBench.RailPingPong();
        TcpLatencyBench.XdlinkPingPong xdlink = new TcpLatencyBench.XdlinkPingPong();
        plain.open();
        rail.open();
        xdlink.open();
        Trip[] ways = {() -> bench.plainPingPong(plain), () -> bench.tcpRailPingPong(rail),
            () -> bench.xdlinkWritePingPong(xdlink)};
        int n = ways.length;
        long[][] samples = new long[n][o.rounds() * o.trips()];
        double[][] roundMedians = new double[n][o.rounds()];
        long[] scratch = new long[o.trips()];
        long sink = 0;
        try {
            for (int r = -o.warmups(); r < o.rounds(); r++) {
                for (int k = 0; k < n; k++) {
                    int w = Math.floorMod(r + k, n);
                    long[] into = r < 0 ? scratch : samples[w];
                    int at = r < 0 ? 0 : r * o.trips();
                    for (int i = 0; i < o.trips(); i++) {
                        long t0 = System.nanoTime();
                        sink += ways[w].run();
                        into[at + i] = System.nanoTime() - t0;
                    }
                    if (r >= 0) {
                        long[] round = Arrays.copyOfRange(samples[w], at, at + o.trips());
                        Arrays.sort(round);
                        roundMedians[w][r] = Quantiles.percentile(round, 0.5) / 1e3;
                    }
                }
            }
        } finally {
            xdlink.close();
            rail.close();
            plain.close();
        }
        if (sink == 42) {
            System.out.print("");
        }
        report(o, samples, roundMedians, loadBefore, Quantiles.loadAverage());
    }

    private static void report(Options o, long[][] samples, double[][] roundMedians, String loadBefore,
                               String loadAfter) {
        line("2-byte round trips over 127.0.0.1: %d rounds (after %d warm-up rounds) of %d round trips per way, "
                + "ways rotating; load average %s before, %s after (%d processors)", o.rounds(), o.warmups(),
                o.trips(), loadBefore, loadAfter, Runtime.getRuntime().availableProcessors());
        for (int w = 0; w < samples.length; w++) {
            long[] all = samples[w].clone();
            Arrays.sort(all);
            line("  %-14s round trip median %8.2f us  p90 %8.2f us  p99 %9.2f us", NAMES[w],
                    Quantiles.percentile(all, 0.5) / 1e3, Quantiles.percentile(all, 0.9) / 1e3,
                    Quantiles.percentile(all, 0.99) / 1e3);
        }
        for (int w = 1; w < samples.length; w++) {
            double[] ratio = new double[o.rounds()];
            for (int r = 0; r < o.rounds(); r++) {
                ratio[r] = roundMedians[w][r] / roundMedians[0][r];
            }
            Arrays.sort(ratio);
            double median = Quantiles.quantile(ratio, 0.5);
            line("  %s over plain socket, per round: median %.2fx, quartiles %.2fx .. %.2fx (target <= %.1fx): %s",
                    NAMES[w], median, Quantiles.quantile(ratio, 0.25), Quantiles.quantile(ratio, 0.75), TARGET,
                    median <= TARGET ? "MET" : "MISSED");
        }
    }

    private static void line(String format, Object... args) {
        System.out.println(String.format(Locale.ROOT, format, args));
    }

    /** {@code --rounds}, {@code --round-trips}, {@code --warmup-rounds}; anything else is an error naming it. */
    record Options(int rounds, int trips, int warmups) {
        static Options parse(String[] args, int rounds, int trips, int warmups) {
            int[] v = {rounds, trips, warmups};
            String[] names = {"--rounds", "--round-trips", "--warmup-rounds"};
            for (int i = 0; i < args.length; i += 2) {
                int k = Arrays.asList(names).indexOf(args[i]);
                if (k < 0) {
                    throw new IllegalArgumentException("unknown option " + args[i] + "; known: "
                            + Arrays.toString(names));
                }
                if (i + 1 == args.length) {
                    throw new IllegalArgumentException(args[i] + " needs a value");
                }
                try {
                    v[k] = Integer.parseInt(args[i + 1]);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(args[i] + " is not a number: " + args[i + 1], e);
                }
                if (v[k] < (k == 2 ? 0 : 1)) {
                    throw new IllegalArgumentException(args[i] + " must be at least " + (k == 2 ? 0 : 1)
                            + ", got " + v[k]);
                }
            }
            return new Options(v[0], v[1], v[2]);
        }
    }
}
