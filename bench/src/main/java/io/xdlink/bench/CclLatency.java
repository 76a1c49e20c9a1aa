package io.xdlink.bench;

import io.xdlink.ccl.CclLog;
import io.xdlink.ccl.CclNet;
import io.xdlink.ccl.CclNets;
import io.xdlink.ccl.abi.NativeBridge;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * The 8-byte ping-pong through the plugin's native {@code ncclNetPlugin_v12} table beside the same ping-pong through
 * the Java API, in one process and one run, the ways in every order in turn (A B C, B C A, ..., C B A) so that
 * whatever else the machine does in the meantime falls on all alike. Each way has its own connection pair over its own device of
 * the fabric {@code XDLINK_PARAMS} names (e.g. {@code loopback=1}), the same echo thread logic and the same waiting
 * on both sides; the native way reaches Java through a downcall, the C trampoline and the upcall, as a host's call
 * does (plus the downcall a C host does not make). A third way, the Java API again on a network of its own, is the
 * control: how far two identical ways differ in this run is the floor under any difference it can show. Every
 * round also times one {@code test()} of a receive nothing completes.
 *
 * <p>Prints the median and 99th percentile of every round trip of each way, the per-round difference of the
 * medians (median, quartiles, range over the rounds) of native and control against Java, the verdict against the
 * 2 us target, and the load average before and after, since a busy machine widens everything. Arguments: {@code --rounds N} (default 100), {@code --round-trips
 * N} per way per round (default 500), {@code --warmup-rounds N} (default 5, not counted), {@code --calls N} test()
 * calls per way per round (default 20000).
 */
public final class CclLatency {
    static final double TARGET_US = 2.0;
    private static final java.lang.management.ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private CclLatency() {
    }

    /** One way of calling: its ping-pong pair with an echo thread, and an idle receive for timing single calls. */
    private record Way(String name, PingPongSide near, PingPongSide far, Spinner echo, PingPongSide idle,
                       AutoCloseable owner) implements AutoCloseable {

        static Way open(String name, Opener opener, AutoCloseable owner) throws Throwable {
            PingPongSide[] pair = opener.pair();
            PingPongSide idle = opener.pair()[0];
            if (!idle.postReceive()) {
                throw new IllegalStateException(name + ": the idle receive did not post");
            }
            Spinner echo = new Spinner("xdlink-bench-ccl-echo-" + name, new PingPongSide.Echo(pair[1]));
            return new Way(name, pair[0], pair[1], echo, idle, owner);
        }

        /** test() calls both sides of the ping-pong made so far, or -1 when the way does not count them. */
        long tests() {
            return near instanceof NativeTablesSide a && far instanceof NativeTablesSide b ? a.tests() + b.tests()
                    : -1;
        }

        /** isend() calls both sides of the ping-pong made so far, retries included, or -1 as for tests(). */
        long sends() {
            return near instanceof NativeTablesSide a && far instanceof NativeTablesSide b ? a.sends() + b.sends()
                    : -1;
        }

        /** Times {@code n} round trips into {@code out} from {@code at}, in nanoseconds. */
        void pingPong(long[] out, int at, int n) throws Throwable {
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                near.ping();
                out[at + i] = System.nanoTime() - t0;
            }
            echo.check();
        }

        /**
         * Processor nanoseconds per {@code test()} of the idle receive, over {@code n} calls: the calling thread's
         * own time, which being descheduled on a busy machine does not inflate.
         */
        double call(int n) throws Throwable {
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

    @FunctionalInterface
    private interface Opener {
        PingPongSide[] pair() throws Throwable;
    }

    public static void main(String[] args) throws Throwable {
        int rounds = option(args, "--rounds", 100);
        int trips = option(args, "--round-trips", 500);
        int warmups = option(args, "--warmup-rounds", 5);
        int calls = option(args, "--calls", 20000);
        String params = System.getenv().getOrDefault("XDLINK_PARAMS", "");
        String loadBefore = loadAverage();

        Arena arena = Arena.ofShared();
        CclNet net = CclNets.fromEnvironment(CclLog.system());
        // The control is the Java API again, on a network of its own as the native tables have theirs: what it
        // differs from the first way by is noise and placement, the floor under any difference this run can show.
        CclNet controlNet = CclNets.fromEnvironment(CclLog.system());
        Way[] ways = {
            Way.open("java", () -> JavaApiSide.pair(net, arena), net),
            Way.open("native", () -> NativeTablesSide.pair(arena), null),
            Way.open("control", () -> JavaApiSide.pair(controlNet, arena), controlNet),
        };
        int n = ways.length;
        long[][] samples = new long[n][rounds * trips];
        double[][] roundMedians = new double[n][rounds];
        double[][] callNs = new double[n][rounds];
        double[][] cpuPerTrip = new double[n][rounds];
        long[] scratch = new long[trips];
        // test() calls of the native way's ping-pong, and how many of them the shim handed to Java.
        long[] nativeTests = new long[2];
        // Likewise isend() calls, retries included, and how many reached Java.
        long[] nativeSends = new long[2];
        try {
            for (int r = -warmups; r < rounds; r++) {
                // Every order of the ways once in six rounds, so none always runs right after another.
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
                        nativeTests[0] += ways[w].tests() - tests0;
                        nativeTests[1] += NativeBridge.testUpcalls() - upcalls0;
                        nativeSends[0] += ways[w].sends() - sends0;
                        nativeSends[1] += NativeBridge.isendUpcalls() - sendUpcalls0;
                    }
                    long[] round = Arrays.copyOfRange(samples[w], r * trips, (r + 1) * trips);
                    Arrays.sort(round);
                    roundMedians[w][r] = percentile(round, 0.5) / 1e3;
                    callNs[w][r] = ways[w].call(calls);
                }
            }
        } finally {
            for (Way w : ways) {
                w.close();
            }
        }
        report(params, rounds, trips, warmups, calls, samples, roundMedians, callNs, cpuPerTrip, loadBefore,
                loadAverage());
        System.out.println(String.format(Locale.ROOT, "  native way: %.1f test() calls per round trip (both sides), "
                + "%.2f of them reached Java (the rest the shim answered itself)",
                (double) nativeTests[0] / ((long) rounds * trips), (double) nativeTests[1] / ((long) rounds * trips)));
        System.out.println(String.format(Locale.ROOT, "  native way: %.2f isend() calls per round trip (both sides, "
                + "retries included), %.2f of them reached Java", (double) nativeSends[0] / ((long) rounds * trips),
                (double) nativeSends[1] / ((long) rounds * trips)));
    }

    private static void report(String params, int rounds, int trips, int warmups, int calls, long[][] samples,
                               double[][] roundMedians, double[][] callNs, double[][] cpuPerTrip,
                               String loadBefore, String loadAfter) {
        PrintStreamLines out = new PrintStreamLines();
        out.line("8-byte ping-pong through the collective-library plugin, XDLINK_PARAMS=\"%s\"", params);
        out.line("%d rounds (after %d warm-up rounds) of %d round trips per way, ways in every order in turn; "
                + "load average %s before, %s after (%d processors)", rounds, warmups, trips, loadBefore, loadAfter,
                Runtime.getRuntime().availableProcessors());
        String[] names = {"Java API", "native v12 table", "Java API again"};
        for (int w = 0; w < names.length; w++) {
            long[] all = samples[w].clone();
            Arrays.sort(all);
            double[] cpu = cpuPerTrip[w].clone();
            Arrays.sort(cpu);
            out.line("  %-17s round trip median %8.3f us  p99 %9.3f us  (half round trip median %.3f us); "
                    + "process CPU per round trip %.1f us", names[w], percentile(all, 0.5) / 1e3,
                    percentile(all, 0.99) / 1e3, percentile(all, 0.5) / 2e3, quantile(cpu, 0.5));
        }
        double nativeMinusJava = difference(out, "native minus Java", roundMedians[1], roundMedians[0]);
        double control = difference(out, "control: Java again minus Java (the noise floor)", roundMedians[2],
                roundMedians[0]);
        double[] javaCall = callNs[0].clone();
        double[] nativeCall = callNs[1].clone();
        Arrays.sort(javaCall);
        Arrays.sort(nativeCall);
        out.line("  one test() of a receive not done, processor time (median of rounds, %d calls each): Java API "
                + "%.1f ns, native v12 table %.1f ns (with this benchmark's own downcall)", calls,
                quantile(javaCall, 0.5), quantile(nativeCall, 0.5));
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
        double median = quantile(diff, 0.5);
        out.line("  %s, per round (round trip medians): median %+.3f us, quartiles %+.3f .. %+.3f us, range "
                + "%+.3f .. %+.3f us; slower in %d of %d rounds", what, median, quantile(diff, 0.25),
                quantile(diff, 0.75), diff[0], diff[rounds - 1], slower, rounds);
        return median;
    }

    /** Prints formatted lines in the root locale. */
    private static final class PrintStreamLines {
        void line(String format, Object... args) {
            System.out.println(String.format(Locale.ROOT, format, args));
        }
    }

    /** The value at quantile q of sorted samples (nearest rank). */
    static double percentile(long[] sorted, double q) {
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    /** Linear interpolation between closest ranks of sorted values. */
    static double quantile(double[] sorted, double q) {
        double pos = q * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(sorted.length - 1, lo + 1);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
    }

    private static final java.util.List<String> OPTIONS =
            java.util.List.of("--rounds", "--round-trips", "--warmup-rounds", "--calls");

    /** The value of {@code --name N}, else the fallback; an unknown option or a bad number is an error naming it. */
    private static int option(String[] args, String name, int fallback) {
        int value = fallback;
        for (int i = 0; i < args.length; i += 2) {
            if (!OPTIONS.contains(args[i])) {
                throw new IllegalArgumentException("unknown option " + args[i] + "; known: " + OPTIONS);
            }
            if (i + 1 == args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            if (!args[i].equals(name)) {
                continue;
            }
            try {
                value = Integer.parseInt(args[i + 1]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " is not a number: " + args[i + 1], e);
            }
            int min = name.equals("--warmup-rounds") ? 0 : 1;
            if (value < min) {
                throw new IllegalArgumentException(name + " must be at least " + min + ", got " + value);
            }
        }
        return value;
    }

    /** The 1, 5 and 15 minute load averages, from /proc when there is one. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return String.format(Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean()
                    .getSystemLoadAverage());
        }
    }
}
