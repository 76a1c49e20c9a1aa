package io.xdlink.cli.bench;

import io.xdlink.cli.UsageException;
import io.xdlink.xdomain.sysfs.Text;
import picocli.CommandLine.IParameterConsumer;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Stack;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The options every {@code xdlink bench} test takes, perftest's where perftest has one. */
public final class BenchOptions {
    static final long MAX_SIZE = 64L << 20;
    static final long MIN_ITERS = 5;
    static final long MAX_ITERS = 100_000_000;
    static final long MAX_DURATION_SECONDS = 3600;
    static final int MAX_QPS = 64;
    static final int MAX_TX_DEPTH = 15000;
    static final int MAX_CQ_MOD = 1024;
    /** Turns per size with the baseline: each costs two exchanges with the server. */
    static final int MAX_TURNS = 1000;
    private static final Pattern LINK = Pattern.compile("gen([234])x([12])");

    @Parameters(index = "0", arity = "0..1", paramLabel = "SERVER",
            description = "The server's address. Without it this side is the server and waits for a client.")
    String server;

    @Option(names = {"-s", "--size"}, paramLabel = "SIZE",
            description = "Message size in bytes, K/M suffixes allowed (default: 65536 for bandwidth, 2 for latency).")
    String size;

    @Option(names = {"-n", "--iters"}, paramLabel = "N",
            description = "Iterations per size (default: 5000 for write_bw, 1000 otherwise).")
    Long iterations;

    @Option(names = {"-a", "--all"}, description = "Run every size from 2 bytes to 8 MiB.")
    boolean all;

    @Option(names = {"-D", "--duration"}, paramLabel = "SECONDS", description = "Run for this long instead of -n.")
    Long durationSeconds;

    @Option(names = {"--report_gbits", "--report-gbits"}, description = "Report Gb/s (10^9 bits) instead of MiB/s.")
    boolean gbits;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", description = "Rendezvous TCP port (default: 18515).")
    int port = Rendezvous.DEFAULT_PORT;

    @Option(names = {"-q", "--qp"}, paramLabel = "QPS", description = "Queue pairs (default: 1).")
    int qps = 1;

    @Option(names = {"-t", "--tx-depth"}, paramLabel = "N",
            description = "Requests kept outstanding (default: 128 for bandwidth, 1 for latency).")
    Integer txDepth;

    @Option(names = {"-Q", "--cq-mod"}, paramLabel = "N",
            description = "One signalled completion per N requests (default: 100).")
    int cqMod = 100;

    @Option(names = "--rail", paramLabel = "IFACE_OR_ADDR",
            description = "Use this rail interface or local address; repeat for more (default: every rail to the peer).")
    List<String> rails = new ArrayList<>();

    @Option(names = "--stripe-min", paramLabel = "SIZE", parameterConsumer = InOrder.class,
            description = "Stripe writes of at least this size over every rail (xdlink parameter stripe_min_bytes).")
    String stripeMin;

    @Option(names = "--loopback",
            description = "Run both ends in this process over the simulated fabric, in real time: no hardware needed.")
    boolean loopback;

    @Option(names = "--perform_warm_up", negatable = true,
            description = "Before each size is measured, run it unmeasured until its rate stops climbing (the first "
                    + "size for up to 15 s, each later one of -a briefly): a bandwidth test moves its messages, a "
                    + "latency test makes its round trips (default: on, so the first table times a warm path, not "
                    + "class loading and compilation; --no-perform_warm_up measures the cold start).")
    Boolean warmUp;

    @Option(names = "--link", paramLabel = "GENxLANES",
            description = "With --loopback: the simulated cable, gen2x1 .. gen4x2 (default: gen3x2, 40 Gb/s).")
    String link;

    @Option(names = {"-P", "--param"}, paramLabel = "NAME=VALUE", parameterConsumer = InOrder.class,
            description = "Set any xdlink parameter for this run (see xdlink params); repeatable. A name given twice,"
                    + " in any spelling or through --stripe-min, keeps the later value, with a warning.")
    List<String> params = new ArrayList<>();

    @Option(names = "--json", paramLabel = "FILE", description = "Write the results as JSON.")
    Path json;

    @Option(names = "--plot", paramLabel = "FILE.png",
            description = "Draw bandwidth and latency against size, with any --compare runs beside this one.")
    Path plot;

    @Option(names = "--compare", paramLabel = "FILE.json",
            description = "An earlier --json result to draw beside this run in --plot; repeatable.")
    List<Path> compare = new ArrayList<>();

    @Option(names = "--baseline", paramLabel = "raw|poll",
            description = "raw: also run the same transfer over a plain TCP socket and print the ratio; poll: the "
                    + "same, with both ends of the socket polling non-blocking calls in a spin, as xdlink's ends "
                    + "poll, rather than waiting in blocking ones.")
    String baseline;

    @Option(names = "--turns", paramLabel = "N",
            description = "With --baseline: run each size's iterations in N turns, xdlink's and the socket's "
                    + "alternating, so that both span the same stretch of time (default: 1, the socket after "
                    + "xdlink).")
    Integer turns;

    @Option(names = "--timeout", paramLabel = "SECONDS",
            description = "How long a silent peer is waited for at any step (default: 60); a run that keeps "
                    + "moving, however slowly, is waited for to its end.")
    long timeoutSeconds = 60;

    /** Validates the options for {@code test}; every problem is one line naming the option. */
    BenchSettings settings(BenchTest test, boolean stderrIsTerminal) {
        if (loopback && server != null) {
            throw new UsageException("--loopback runs both ends here; drop the server address " + Text.quote(server));
        }
        if (link != null && !loopback) {
            throw new UsageException("--link chooses the simulated cable and needs --loopback; a real link is "
                    + "whatever the hosts negotiated");
        }
        if (all && size != null) {
            throw new UsageException("-a runs every size; drop -s " + Text.quote(size));
        }
        if (all && durationSeconds != null) {
            throw new UsageException("-D runs one size for a time; it cannot be combined with -a");
        }
        if (durationSeconds != null && iterations != null) {
            throw new UsageException("-D and -n both say when to stop; give one");
        }
        List<Long> sizes = all ? BenchSettings.ALL_SIZES : List.of(size == null ? test.defaultSize() : parseSize(size));
        long iters = iterations == null ? test.defaultIterations() : iterations;
        range("-n", iters, MIN_ITERS, MAX_ITERS);
        if (!test.isBandwidth() && iters < 4) {
            throw new UsageException("-n must be at least 4 for a latency test");
        }
        Duration duration = null;
        if (durationSeconds != null) {
            range("-D", durationSeconds, 1, MAX_DURATION_SECONDS);
            duration = Duration.ofSeconds(durationSeconds);
        }
        range("-p", port, 1, 65535);
        range("-q", qps, 1, MAX_QPS);
        if (!test.isBandwidth() && qps != 1) {
            throw new UsageException("latency tests ping-pong on one queue pair; drop -q " + qps);
        }
        int depth = txDepth == null ? test.defaultTxDepth() : txDepth;
        range("-t", depth, 1, MAX_TX_DEPTH);
        range("-Q", cqMod, 1, MAX_CQ_MOD);
        // As perftest: a signalled completion every -Q requests with fewer than -Q outstanding would never come,
        // and the run would wait out its timeout, so the moderation follows the depth down.
        int moderation = Math.min(cqMod, depth);
        range("--timeout", timeoutSeconds, 1, 86_400);
        for (String r : rails) {
            if (r.isBlank() || r.length() > 64) {
                throw new UsageException("--rail needs an interface name or an address, got " + Text.quote(r));
            }
        }
        if (baseline != null && !baseline.equals("raw") && !baseline.equals("poll")) {
            throw new UsageException("--baseline knows 'raw' (a blocking socket) and 'poll' (a polling one), got "
                    + Text.quote(baseline));
        }
        if (turns != null) {
            if (baseline == null) {
                throw new UsageException(
                        "--turns alternates xdlink with the plain socket; give --baseline raw or poll too");
            }
            range("--turns", turns, 1, MAX_TURNS);
            if (duration != null && turns > 1) {
                throw new UsageException("--turns splits -n's iterations; it cannot be combined with -D");
            }
            if (turns > iters) {
                throw new UsageException("--turns " + turns + " needs at least as many iterations, got -n " + iters);
            }
        }
        if (plot != null && !plot.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".png")) {
            throw new UsageException("--plot writes a PNG; name the file *.png, got " + Text.quote(plot.toString()));
        }
        if (!compare.isEmpty() && plot == null) {
            throw new UsageException("--compare adds runs to a plot; give --plot FILE.png too");
        }
        List<Map.Entry<String, String>> given = new ArrayList<>();
        for (String p : params) {
            int eq = p.indexOf('=');
            if (eq <= 0) {
                throw new UsageException("-P needs NAME=VALUE, got " + Text.quote(p));
            }
            given.add(Map.entry(p.substring(0, eq), p.substring(eq + 1)));
        }
        // What --loopback and --link imply comes first, so a -P naming the same parameter overrides it.
        Map<String, String> implied = new LinkedHashMap<>();
        if (loopback) {
            implied.put("loopback", "1");
            implied.put("loopback_clock", "real");
            if (link != null) {
                Matcher m = LINK.matcher(link.toLowerCase(Locale.ROOT));
                if (!m.matches()) {
                    throw new UsageException("--link must be gen2x1, gen2x2, gen3x1, gen3x2 or gen4x2, got "
                            + Text.quote(link));
                }
                if (m.group(1).equals("4") && m.group(2).equals("1")) {
                    throw new UsageException("--link gen4x1 does not exist: Gen 4 links always run both lanes");
                }
                implied.put("loopback_gen", "gen" + m.group(1));
                implied.put("loopback_lanes", m.group(2));
            }
        }
        return new BenchSettings(test, server, sizes, iters, duration,
                gbits ? ReportUnit.GBIT_PER_SEC : ReportUnit.MIB_PER_SEC, port, qps, depth, moderation, rails, loopback,
                new BenchParams.Explicit(implied, given), json, plot, compare, baseline != null,
                "poll".equals(baseline), turns == null ? 1 : turns, Duration.ofSeconds(timeoutSeconds),
                all && stderrIsTerminal, warmUp == null || warmUp,
                all || size != null, iterations != null);
    }

    /**
     * Keeps {@code -P} and {@code --stripe-min} in one list in command-line order, so that whichever names a
     * parameter last wins; picocli would otherwise hand them over as two unrelated fields.
     */
    static final class InOrder implements IParameterConsumer {
        @Override
        public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec commandSpec) {
            OptionSpec option = (OptionSpec) argSpec;
            if (args.isEmpty()) {
                throw new ParameterException(commandSpec.commandLine(), "Missing required parameter for option '"
                        + option.longestName() + "' (" + option.paramLabel() + ")");
            }
            String value = args.pop();
            List<String> ordered = commandSpec.findOption("--param").getValue();
            ordered.add(option.longestName().equals("--stripe-min") ? "stripe_min_bytes=" + value : value);
        }
    }

    static long parseSize(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        long mult = 1;
        if (t.endsWith("K") || t.endsWith("M")) {
            mult = t.endsWith("K") ? 1024 : 1024 * 1024;
            t = t.substring(0, t.length() - 1);
        }
        long v;
        try {
            v = Math.multiplyExact(Long.parseLong(t), mult);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new UsageException("-s needs a size in bytes (K and M suffixes allowed), got " + Text.quote(text));
        }
        range("-s", v, 1, MAX_SIZE);
        return v;
    }

    private static void range(String option, long value, long min, long max) {
        if (value < min || value > max) {
            throw new UsageException(option + " must be between " + min + " and " + max + ", got " + value);
        }
    }
}
