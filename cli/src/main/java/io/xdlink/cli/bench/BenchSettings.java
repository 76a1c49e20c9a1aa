package io.xdlink.cli.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.ArrayList;

/**
 * One benchmark invocation, validated.
 *
 * @param test        which test
 * @param server      the server's address (client mode), or null (server mode, or loopback)
 * @param sizes       message sizes in order: one, or 2 .. 8 MiB for {@code -a}
 * @param iterations  iterations per size (iteration mode)
 * @param duration    run length in duration mode ({@code -D}), or null
 * @param unit        bandwidth unit
 * @param port        rendezvous port
 * @param qps         queue pairs
 * @param txDepth     outstanding requests the client keeps posted
 * @param cqMod       completion moderation: one signalled completion per this many requests
 * @param rails       {@code --rail} interfaces or addresses, empty for every rail the fabric offers
 * @param loopback    both ends in this process over the simulator
 * @param params      explicit xdlink parameters ({@code --loopback}, {@code --link}, then {@code --param} and
 *                    {@code --stripe-min} in command-line order)
 * @param json        where to write the results, or null
 * @param plot        where to draw them, or null
 * @param compare     earlier result files to draw beside this run
 * @param baselineRaw also run the same transfer over a plain TCP socket and print the ratio
 * @param baselinePolls with the baseline: both of its ends poll non-blocking calls in a spin instead of blocking
 * @param turns       with the baseline: turns per size, xdlink's and the socket's alternating; 1 runs the socket
 *                    after every size of xdlink's
 * @param timeout     how long to wait for the peer at any step
 * @param progress    draw a progress bar on stderr for {@code -a}
 * @param warmUp      run each size unmeasured before measuring it
 * @param sizesGiven  {@code -s} or {@code -a} was on this side's command line (not a default)
 * @param itersGiven  {@code -n} was on this side's command line
 */
public record BenchSettings(BenchTest test, String server, List<Long> sizes, long iterations, Duration duration,
                            ReportUnit unit, int port, int qps, int txDepth, int cqMod, List<String> rails,
                            boolean loopback, BenchParams.Explicit params, Path json, Path plot, List<Path> compare,
                            boolean baselineRaw, boolean baselinePolls, int turns, Duration timeout,
                            boolean progress, boolean warmUp, boolean sizesGiven, boolean itersGiven) {

    /** The SETUP record's {@code raw} for a polling baseline (1: a blocking one, 0: none). */
    private static final long RAW_POLLS = 2;

    /** perftest's {@code -a}: every power of two from 2 bytes to 8 MiB. */
    public static final List<Long> ALL_SIZES;

    static {
        Long[] s = new Long[23];
        for (int i = 1; i <= 23; i++) {
            s[i - 1] = 1L << i;
        }
        ALL_SIZES = List.of(s);
    }

    public BenchSettings {
        sizes = List.copyOf(sizes);
        rails = List.copyOf(rails);
        compare = List.copyOf(compare);
    }

    /** True on the side that waits for the other (perftest's server); false on the client and in loopback. */
    public boolean isServer() {
        return server == null && !loopback;
    }

    public boolean durationMode() {
        return duration != null;
    }

    /** The largest message size: what every buffer of the run must hold. */
    public long maxSize() {
        return sizes.stream().mapToLong(Long::longValue).max().orElseThrow();
    }

    /** The baseline runs in turns with xdlink, size by size, rather than after all of xdlink's sizes. */
    public boolean inTurns() {
        return baselineRaw && turns > 1;
    }

    /** This run's settings as the client hands them to the server, which then runs exactly the same test. */
    public BenchRecord toRecord() {
        BenchRecord r = BenchRecord.of("SETUP").with("test", test.command())
                .with("sizes", sizesField(sizes))
                .with("iters", iterations).with("duration", durationMode() ? duration.toSeconds() : 0)
                .with("qps", qps).with("txdepth", txDepth).with("cqmod", cqMod)
                .with("gbits", unit == ReportUnit.GBIT_PER_SEC ? 1 : 0)
                .with("raw", baselineRaw ? (baselinePolls ? RAW_POLLS : 1) : 0)
                .with("warm", warmUp ? 1 : 0);
        // Only when it says something: a record holds 255 bytes, and -a with the client's buffer takes most of them.
        return turns > 1 ? r.with("turns", turns) : r;
    }

    /**
     * The server's settings for the client's SETUP record: the client decides the test, sizes and counts, as a
     * perftest server run with the same options would; the server keeps its own rails, parameters and files.
     */
    public BenchSettings adopt(BenchRecord setup) {
        BenchTest t = BenchTest.ofCommand(setup.get("test"));
        if (t == null) {
            throw new BenchException("the client asked for an unknown test '" + setup.get("test") + "'");
        }
        if (t != test) {
            throw new BenchException("the client runs " + t.command() + " but this server was started for "
                    + test.command() + "; start both sides with the same test");
        }
        List<Long> sz = parseSizes("SETUP", "sizes", setup.get("sizes"));
        long d = setup.getLong("duration", 0, BenchOptions.MAX_DURATION_SECONDS);
        long raw = setup.getLong("raw", 0, RAW_POLLS);
        return new BenchSettings(test, null, sz, setup.getLong("iters", BenchOptions.MIN_ITERS, BenchOptions.MAX_ITERS),
                d == 0 ? null : Duration.ofSeconds(d),
                setup.getLong("gbits", 0, 1) == 1 ? ReportUnit.GBIT_PER_SEC : ReportUnit.MIB_PER_SEC, port,
                (int) setup.getLong("qps", 1, BenchOptions.MAX_QPS),
                (int) setup.getLong("txdepth", 1, BenchOptions.MAX_TX_DEPTH),
                (int) setup.getLong("cqmod", 1, BenchOptions.MAX_CQ_MOD), rails, false, params, json, plot, compare,
                raw > 0, raw == RAW_POLLS,
                setup.values().get("turns") == null ? 1 : (int) setup.getLong("turns", 1, BenchOptions.MAX_TURNS),
                timeout, false, setup.getLong("warm", 0, 1) == 1, false, false);
    }

    /**
     * One warning for each of {@code -s} and {@code -n} the two sides were started with differently. A value is null
     * where that side's command line did not give it (its default says nothing about what the user wanted); only
     * values both sides have are compared. Both sides run the client's, as a perftest server run with the same
     * options would.
     *
     * @param side "server" or "client": the side that warns
     */
    static List<String> mismatches(String side, List<Long> ourSizes, Long ourIters, List<Long> theirSizes,
                                   Long theirIters) {
        String other = side.equals("server") ? "client" : "server";
        List<String> out = new ArrayList<>();
        if (ourSizes != null && theirSizes != null && !ourSizes.equals(theirSizes)) {
            out.add("this " + side + " was started with " + sizesText(ourSizes) + " but the " + other + " with "
                    + sizesText(theirSizes) + "; both run the client's sizes");
        }
        if (ourIters != null && theirIters != null && !ourIters.equals(theirIters)) {
            out.add("this " + side + " was started with -n " + ourIters + " but the " + other + " with -n "
                    + theirIters + "; both run the client's count");
        }
        return out;
    }

    /**
     * Sizes as a record carries them: {@code all} for {@code -a}'s, whose list alone would take 150 of a record's 255
     * bytes, else the list.
     */
    static String sizesField(List<Long> sizes) {
        return sizes.equals(ALL_SIZES) ? "all" : String.join(",", sizes.stream().map(String::valueOf).toList());
    }

    /** Reads {@link #sizesField} from the peer's {@code kind} record; every problem names the record and the field. */
    static List<Long> parseSizes(String kind, String key, String text) {
        if (text.equals("all")) {
            return ALL_SIZES;
        }
        String[] s = text.split(",", 32);
        if (s.length > ALL_SIZES.size()) {
            throw new BenchException("the peer's " + kind + " record lists more than " + ALL_SIZES.size() + " sizes");
        }
        List<Long> sizes = new ArrayList<>();
        for (String one : s) {
            sizes.add(BenchRecord.wholeNumber(kind, key, one, 1, BenchOptions.MAX_SIZE));
        }
        return sizes;
    }

    static String sizesText(List<Long> sizes) {
        return sizes.equals(ALL_SIZES) ? "-a" : sizes.size() == 1 ? "-s " + sizes.getFirst()
                : "sizes " + sizes.getFirst() + ".." + sizes.getLast();
    }
}
