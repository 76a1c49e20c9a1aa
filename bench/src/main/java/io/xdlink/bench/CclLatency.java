package io.xdlink.bench;

import io.xdlink.ccl.CclLog;
import io.xdlink.ccl.CclNet;
import io.xdlink.ccl.CclNets;
import io.xdlink.ccl.abi.NativeBridge;

import picocli.CommandLine;

import java.lang.foreign.Arena;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;
import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;

/**
 * The 8-byte ping-pong through the plugin's native {@code ncclNetPlugin_v12} table beside the same ping-pong through
 * the Java API, in one process and one run, the ways in every order in turn so that whatever else the machine does
 * in the meantime falls on all alike. Each way has its own connection pair over its own device of the fabric
 * {@code XDLINK_PARAMS} names (e.g. {@code loopback=1}), the same loop on both sides and the same waiting (yield
 * after a call that could not go on; the echo spins, yields, then sleeps).
 *
 * <p>The ways: the Java API, called by Java loops; the native table called by C loops ({@link CHostPingPong}), as
 * a collective library's proxy thread calls it, reaching Java through the C trampoline and the upcall where the
 * shim cannot answer by itself; the same native table called by the Java loops through a downcall per call (a cost
 * no C host pays, shown for comparison); and the Java API again on a network of its own, the control: how far two
 * identical ways differ in this run is the floor under any difference it can show. Every round also times one
 * {@code test()} of a receive nothing completes, for each way.
 *
 * <p>Prints the median and 99th percentile of every round trip of each way, the per-round difference of the
 * medians (median, quartiles, range over the rounds) of each way against the Java API, the verdict of the native
 * table from C against the 2 us target, and the load average before and after, since a busy machine widens
 * everything. Arguments: {@code --rounds N} (default 100), {@code --round-trips N} per way per round (default 500),
 * {@code --warmup-rounds N} (default 5, not counted), {@code --calls N} test() calls per way per round (default
 * 20000).
 */
public final class CclLatency {
    static final double TARGET_US = 2.0;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private CclLatency() {
    }

    /** One way of calling the plugin: its ping-pong, and a receive nothing completes for timing single calls. */
    private interface Way extends AutoCloseable {
        /** Times {@code n} round trips into {@code out} from {@code at}, in nanoseconds. */
        void pingPong(long[] out, int at, int n) throws Throwable;

        /**
         * Processor nanoseconds per {@code test()} of the idle receive, over {@code n} calls: the calling thread's
         * own time, which being descheduled on a busy machine does not inflate.
         */
        double call(int n) throws Throwable;

        /** test() calls both sides of the ping-pong made so far, or -1 when the way does not count them. */
        long tests() throws Throwable;

        /** isend() calls both sides of the ping-pong made so far, retries included, or -1 as for tests(). */
        long sends() throws Throwable;
    }

    /** A way whose loops run in Java: its ping-pong pair with an echo thread, and an idle receive. */
    private record JavaLoops(String name, PingPongSide near, PingPongSide far, Spinner echo, PingPongSide idle,
                             AutoCloseable owner) implements Way {

        static JavaLoops open(String name, Opener opener, AutoCloseable owner) throws Throwable {
            PingPongSide[] pair = opener.pair();
            PingPongSide idle = opener.pair()[0];
            if (!idle.postReceive()) {
                throw new IllegalStateException(name + ": the idle receive did not post");
            }
            Spinner echo = new Spinner("xdlink-bench-ccl-echo-" + name, new PingPongSide.Echo(pair[1]));
            return new JavaLoops(name, pair[0], pair[1], echo, idle, owner);
        }

        @Override
        public long tests() {
            return near instanceof NativeTablesSide a && far instanceof NativeTablesSide b ? a.tests() + b.tests()
                    : -1;
        }

        @Override
        public long sends() {
            return near instanceof NativeTablesSide a && far instanceof NativeTablesSide b ? a.sends() + b.sends()
                    : -1;
        }

        @Override
        public void pingPong(long[] out, int at, int n) throws Throwable {
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                near.ping();
                out[at + i] = System.nanoTime() - t0;
            }
            echo.check();
        }

        @Override
        public double call(int n) throws Throwable {
            long t0 = THREADS.getCurrentThreadCpuTime();
            boolean any = false;
            for (int i = 0; i < n; i++) {
                any |= idle.receiveDone();
            }
            long t = THREADS.getCurrentThreadCpuTime() - t0;
            if (any) {
                throw new IllegalStateException(name + ": a receive nothing sends to completed");
            }
            return (double) t / n;
        }

        @Override
        public void close() throws Exception {
            echo.close();
            near.close();
            far.close();
            idle.close();
            if (owner != null) {
                owner.close();
            }
        }
    }

    /** The native tables called from C loops, as a host's proxy thread calls them ({@link CHostPingPong}). */
    private record CLoops(CHostPingPong host) implements Way {
        @Override
        public void pingPong(long[] out, int at, int n) throws Throwable {
            host.pingPong(out, at, n);
        }

        @Override
        public double call(int n) throws Throwable {
            return host.call(n);
        }

        @Override
        public long tests() throws Throwable {
            return host.tests();
        }

        @Override
        public long sends() throws Throwable {
            return host.sends();
        }

        @Override
        public void close() throws Exception {
            host.close();
        }
    }

    @FunctionalInterface
    private interface Opener {
        PingPongSide[] pair() throws Throwable;
    }

    /** The harness's options, with their defaults. */
    @CommandLine.Command(
            description = "The 8-byte ping-pong through the plugin's native table beside the Java API, in turns.")
    static final class Args {
        @CommandLine.Option(names = {"-h", "--help"}, usageHelp = true, description = "prints this help")
        boolean help;
        @CommandLine.Option(names = "--rounds", paramLabel = "N", description = "measured rounds (default 100)")
        int rounds = 100;
        @CommandLine.Option(names = "--round-trips", paramLabel = "N",
                description = "round trips per way per round (default 500)")
        int trips = 500;
        @CommandLine.Option(names = "--warmup-rounds", paramLabel = "N",
                description = "rounds not counted (default 5)")
        int warmups = 5;
        @CommandLine.Option(names = "--calls", paramLabel = "N",
                description = "test() calls per way per round (default 20000)")
        int calls = 20000;

        /** Parsed and checked; null when only usage help was asked for. */
        static Args parse(String[] args) {
            Args a = new Args();
            if (!HarnessArgs.parse("CclLatency", a, args)) {
                return null;
            }
            HarnessArgs.atLeast("--rounds", a.rounds, 1);
            HarnessArgs.atLeast("--round-trips", a.trips, 1);
            HarnessArgs.atLeast("--warmup-rounds", a.warmups, 0);
            HarnessArgs.atLeast("--calls", a.calls, 1);
            return a;
        }
    }

    public static void main(String[] args) throws Throwable {
        Args a = HarnessArgs.orExit(() -> Args.parse(args));
        if (a == null) {
            return;
        }
        int rounds = a.rounds;
        int trips = a.trips;
        int warmups = a.warmups;
        int calls = a.calls;
        String params = System.getenv().getOrDefault("XDLINK_PARAMS", "");
        String loadBefore = Quantiles.loadAverage();

        Arena arena = Arena.ofShared();
        CclNet net = CclNets.fromEnvironment(CclLog.system());
        // The control is the Java API again, on a network of its own as the native tables have theirs: what it
        // differs from the first way by is noise and placement, the floor under any difference this run can show.
        CclNet controlNet = CclNets.fromEnvironment(CclLog.system());
        Way[] ways = {
            JavaLoops.open("java", () -> JavaApiSide.pair(net, arena), net),
            new CLoops(CHostPingPong.open(arena)),
            JavaLoops.open("native-from-java", () -> NativeTablesSide.pair(arena), null),
            JavaLoops.open("control", () -> JavaApiSide.pair(controlNet, arena), controlNet),
        };
        int n = ways.length;
        long[][] samples = new long[n][rounds * trips];
        double[][] roundMedians = new double[n][rounds];
        double[][] callNs = new double[n][rounds];
        double[][] cpuPerTrip = new double[n][rounds];
        long[] scratch = new long[trips];
        // Per way: test() calls of its ping-pong and how many the shim handed to Java; likewise isend() calls,
        // retries included (all 0 for the Java API ways, which do not count them).
        long[][] counted = new long[n][4];
        try {
            for (int r = -warmups; r < rounds; r++) {
                // Each way first in turn, the order reversed every other cycle, so none always follows another.
                int rotation = Math.floorMod(r, n);
                boolean reversed = Math.floorMod(Math.floorDiv(r, n), 2) == 1;
                for (int k = 0; k < n; k++) {
                    int w = (rotation + (reversed ? n - 1 - k : k)) % n;
                    if (r < 0) {
                        ways[w].pingPong(scratch, 0, trips);
                        ways[w].call(calls);
                        continue;
                    }
                    long cpu0 = OS.getProcessCpuTime();
                    long tests0 = ways[w].tests();
                    long upcalls0 = NativeBridge.testUpcalls();
                    long sends0 = ways[w].sends();
                    long sendUpcalls0 = NativeBridge.isendUpcalls();
                    ways[w].pingPong(samples[w], r * trips, trips);
                    cpuPerTrip[w][r] = (OS.getProcessCpuTime() - cpu0) / 1e3 / trips;
                    if (tests0 >= 0) {
                        counted[w][0] += ways[w].tests() - tests0;
                        counted[w][1] += NativeBridge.testUpcalls() - upcalls0;
                        counted[w][2] += ways[w].sends() - sends0;
                        counted[w][3] += NativeBridge.isendUpcalls() - sendUpcalls0;
                    }
                    long[] round = Arrays.copyOfRange(samples[w], r * trips, (r + 1) * trips);
                    Arrays.sort(round);
                    roundMedians[w][r] = Quantiles.percentile(round, 0.5) / 1e3;
                    callNs[w][r] = ways[w].call(calls);
                }
            }
        } finally {
            for (Way w : ways) {
                w.close();
            }
        }
        report(params, rounds, trips, warmups, calls, samples, roundMedians, callNs, cpuPerTrip, loadBefore,
                Quantiles.loadAverage());
        double perTrip = (double) rounds * trips;
        for (int w = 1; w <= 2; w++) {
            System.out.println(String.format(Locale.ROOT, "  %s: %.1f test() calls per round trip (both sides), "
                    + "%.2f of them reached Java (the rest the shim answered itself); %.2f isend() calls (retries "
                    + "included), %.2f of them reached Java", NAMES[w], counted[w][0] / perTrip,
                    counted[w][1] / perTrip, counted[w][2] / perTrip, counted[w][3] / perTrip));
        }
    }

    /** The ways, in the order they are opened: the target compares the second with the first. */
    private static final String[] NAMES = {"Java API", "native v12 table from C", "native v12 table from Java",
        "Java API again"};

    private static void report(String params, int rounds, int trips, int warmups, int calls, long[][] samples,
                               double[][] roundMedians, double[][] callNs, double[][] cpuPerTrip,
                               String loadBefore, String loadAfter) {
        PrintStreamLines out = new PrintStreamLines();
        out.line("8-byte ping-pong through the collective-library plugin, XDLINK_PARAMS=\"%s\"", params);
        out.line("%d rounds (after %d warm-up rounds) of %d round trips per way, ways in every order in turn; "
                + "load average %s before, %s after (%d processors)", rounds, warmups, trips, loadBefore, loadAfter,
                Runtime.getRuntime().availableProcessors());
        String[] names = NAMES;
        for (int w = 0; w < names.length; w++) {
            long[] all = samples[w].clone();
            Arrays.sort(all);
            double[] cpu = cpuPerTrip[w].clone();
            Arrays.sort(cpu);
            out.line("  %-26s round trip median %8.3f us  p99 %9.3f us  (half round trip median %.3f us); "
                    + "process CPU per round trip %.1f us", names[w], Quantiles.percentile(all, 0.5) / 1e3,
                    Quantiles.percentile(all, 0.99) / 1e3, Quantiles.percentile(all, 0.5) / 2e3, Quantiles.quantile(cpu, 0.5));
        }
        double nativeMinusJava = difference(out, "native from C minus Java", roundMedians[1], roundMedians[0]);
        difference(out, "native from Java (downcall per call) minus Java", roundMedians[2], roundMedians[0]);
        double control = difference(out, "control: Java again minus Java (the noise floor)", roundMedians[3],
                roundMedians[0]);
        double[] call = new double[3];
        for (int w = 0; w < call.length; w++) {
            double[] c = callNs[w].clone();
            Arrays.sort(c);
            call[w] = Quantiles.quantile(c, 0.5);
        }
        out.line("  one test() of a receive not done, processor time (median of rounds, %d calls each): Java API "
                + "%.1f ns, native v12 table from C %.1f ns, from Java %.1f ns (with the benchmark's downcall)", calls,
                call[0], call[1], call[2]);
        out.line("8-byte ping-pong: native tables cost %+.3f us per round trip more than the Java API "
                + "(target <= %.1f us; the control differs by %+.3f us): %s", nativeMinusJava, TARGET_US, control,
                nativeMinusJava <= TARGET_US ? "MET" : "MISSED");
    }

    /** Prints the per-round difference of the round-trip medians of two ways; returns its median. */
    private static double difference(PrintStreamLines out, String what, double[] a, double[] b) {
        int rounds = a.length;
        double[] diff = new double[rounds];
        int slower = 0;
        for (int r = 0; r < rounds; r++) {
            diff[r] = a[r] - b[r];
            if (diff[r] > 0) {
                slower++;
            }
        }
        Arrays.sort(diff);
        double median = Quantiles.quantile(diff, 0.5);
        out.line("  %s, per round (round trip medians): median %+.3f us, quartiles %+.3f .. %+.3f us, range "
                + "%+.3f .. %+.3f us; slower in %d of %d rounds", what, median, Quantiles.quantile(diff, 0.25),
                Quantiles.quantile(diff, 0.75), diff[0], diff[rounds - 1], slower, rounds);
        return median;
    }

    /** Prints formatted lines in the root locale. */
    private static final class PrintStreamLines {
        void line(String format, Object... args) {
            System.out.println(String.format(Locale.ROOT, format, args));
        }
    }
}
