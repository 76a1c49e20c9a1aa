package io.xdlink.bench;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.util.Locale;

/**
 * Runs {@link CclPingPongBench} and {@link CclCallBench} and prints the 8-byte round trip through the native tables beside the same round
 * trip through the Java API, and the difference (target: at most 2 us), then what one call costs each way. Arguments are JMH's own. Run with the
 * fabric in {@code XDLINK_PARAMS}:
 * {@code XDLINK_PARAMS=loopback=1 java -cp bench/target/xdlink-benchmarks.jar io.xdlink.bench.CclLatency}.
 */
public final class CclLatency {
    static final double TARGET_US = 2.0;

    private CclLatency() {
    }

    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        OptionsBuilder options = new OptionsBuilder();
        options.parent(new CommandLineOptions(args));
        options.include(CclPingPongBench.class.getSimpleName());
        options.include(CclCallBench.class.getSimpleName());
        double java = Double.NaN;
        double nat = Double.NaN;
        double javaCall = Double.NaN;
        double natCall = Double.NaN;
        for (RunResult r : new Runner(options.build()).run()) {
            String name = r.getParams().getBenchmark();
            double score = r.getPrimaryResult().getScore();
            if (name.endsWith("javaApiPingPong")) {
                java = score;
            } else if (name.endsWith("nativeTablesPingPong")) {
                nat = score;
            } else if (name.endsWith("javaApiTest")) {
                javaCall = score;
            } else if (name.endsWith("nativeTablesTest")) {
                natCall = score;
            }
        }
        double diff = nat - java;
        System.out.printf(Locale.ROOT, "%n8-byte ping-pong round trip: Java API %.3f us, native tables %.3f us, "
                + "native costs %.3f us more (target <= %.1f us) %s%n", java, nat, diff, TARGET_US,
                diff <= TARGET_US ? "MET" : "MISSED");
        System.out.printf(Locale.ROOT, "one test() call: Java API %.1f ns, native tables %.1f ns, native costs %.1f ns "
                + "more per call%n", javaCall, natCall, natCall - javaCall);
    }
}
