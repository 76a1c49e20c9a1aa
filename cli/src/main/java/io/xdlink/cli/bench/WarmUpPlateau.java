package io.xdlink.cli.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Decides when a warm-up has reached the rate the path keeps (messages of a bandwidth test, round trips of a latency
 * test), and runs one ({@link #run}): the warm-up runs in rounds of about {@link Pace#roundNanos} each and stops once
 * the median rate of the last {@link Pace#span} rounds is no more than {@link #GAIN} above the median of the ones
 * before them (fewer rounds where rounds run longer, see {@link #span}) and the compilers spent no more than
 * {@link #COMPILING} of each of the last {@link Pace#span} rounds, or after {@link Pace#maxNanos} whatever the rates.
 * The first size of a run warms up at the {@link Pace#FIRST} pace; every later size ({@code -a}, as perftest warms
 * up before each size) at the {@link Pace#AGAIN} pace, since most of the path is compiled by then. The compilers
 * counted are this process's and the peer's ({@link PeerCompilers}): a server's engine that meets a new size
 * recompiles too.
 *
 * <p>Why not a fixed count: in the two-host lab the compiler is still finishing the path seconds into a run, and a
 * fixed warm-up ends wherever the count runs out. A 64 KiB write_bw timed right after 1 GiB of warm-up ran at
 * 6-9 Gb/s; cable counters read every half second showed the same run climbing from 5 to 20-28 Gb/s over its
 * first 4-8 seconds and staying there. The rate itself says when the climb is over, and it says it at once on a
 * paced cable that never climbs. The compilers' own time guards against a pause in the climb: the same run held at
 * 8 Gb/s for a second while this process's compilers still worked 40-100% of each round. A whole span of quiet
 * rounds, not just the last: in an {@code -a} sweep a size's warm-up that ended on one quiet round left the client's
 * compilers replacing its send path's methods during the 16 KiB row's 5000 messages, which moved 4.2 Gb/s against
 * a peak of 12.7.
 */
final class WarmUpPlateau {
    /** How long one round of the first size's warm-up should take: long enough to average over a shared host's noise. */
    static final long ROUND_NANOS = 250_000_000L;
    /** Rounds compared on each side of the last step, in the first size's warm-up. */
    static final int SPAN = 4;
    /** How much faster the last rounds may still be and count as level. */
    static final double GAIN = 1.10;
    /** The longest the first size's warm-up goes on, climbing or not. */
    static final long MAX_NANOS = 15_000_000_000L;

    /**
     * How a warm-up runs: rounds of about {@code roundNanos}, {@code span} of them compared on each side of the last
     * step, for at most {@code maxNanos}.
     */
    record Pace(long roundNanos, int span, long maxNanos) {
        /** The first size: class loading and compiling the whole path, which takes seconds on a small host. */
        static final Pace FIRST = new Pace(ROUND_NANOS, SPAN, MAX_NANOS);
        /**
         * A later size: the path is compiled, and what a new size changes is a few methods (another branch taken,
         * a payload now cut in frames). Without this, each later row of an {@code -a} table in the two-host lab met
         * those compilations: a peer's compiler thread took the processor from its engine for 4 ms (a scheduler
         * trace), and 5000 messages of 4 B to 8 KiB moved 0.08-0.45 M messages a second against 1.2-2.1 M with a
         * warm-up before each size.
         */
        static final Pace AGAIN = new Pace(50_000_000L, 2, 2_000_000_000L);
    }

    private final Pace pace;

    /** A round's messages at most: the run keeps two time stamps per message. */
    static final long MAX_ROUND_MESSAGES = 1L << 22;

    /** The compilers' share of a round above which the path is taken to be still compiling. */
    static final double COMPILING = 0.10;

    /** Most bytes a warm-up's first round moves (each way), whatever its count: its rate sizes the next round. */
    static final long FIRST_ROUND_BYTES = 64L << 20;

    private final List<Double> rates = new ArrayList<>();
    /** Rounds in a row, up to the last, in which the compilers worked no more than {@link #COMPILING} of it. */
    private int quietRounds;
    private long elapsed;
    private long lastNanos;

    /** A warm-up at the {@link Pace#FIRST} pace. */
    WarmUpPlateau() {
        this(Pace.FIRST);
    }

    WarmUpPlateau(Pace pace) {
        this.pace = pace;
        this.lastNanos = pace.roundNanos();
    }

    /** One warm-up round: runs {@code n} messages or round trips. */
    @FunctionalInterface
    interface Round<E extends Exception> {
        void run(long n) throws E;
    }

    /** For a warm-up whose peer's compilers are this process's own or play no part (a plain socket's). */
    static final LongSupplier NO_PEER = () -> 0;

    /**
     * Runs a warm-up at {@code pace}: a first round of {@code first} messages or round trips, then rounds sized to
     * take about the pace's round at the last round's rate (at least {@code floor}), until the rate is {@link #level}.
     * A round counts as compiling when this process's compilers or the peer's ({@code peerCompilerMillis}, asked
     * between rounds) worked more than {@link #COMPILING} of it.
     */
    static <E extends Exception> void run(Pace pace, long first, long floor, LongSupplier peerCompilerMillis,
                                          Round<E> round) throws E {
        WarmUpPlateau plateau = new WarmUpPlateau(pace);
        long n = first;
        long peerCompiled = peerCompilerMillis.getAsLong();
        while (true) {
            long compiled = compilerMillis();
            long start = System.nanoTime();
            round.run(n);
            long nanos = System.nanoTime() - start;
            long ours = compilerMillis() - compiled;
            long peerNow = peerCompilerMillis.getAsLong();
            long theirs = peerNow - peerCompiled;
            peerCompiled = peerNow;
            // Saturating: the peer's figure is its word, and a running total that jumps (a hostile or broken peer)
            // must read as a busy round, not overflow into a negative one.
            plateau.round(n, nanos, TimeUnit.MILLISECONDS.toNanos(Math.max(0, Math.max(ours, theirs))));
            if (plateau.level()) {
                return;
            }
            n = plateau.nextMessages(1, floor);
        }
    }

    /** A first round of at most {@code count} messages of {@code size} bytes and {@link #FIRST_ROUND_BYTES}. */
    static long firstRound(long count, long size) {
        return Math.max(1, Math.min(count, FIRST_ROUND_BYTES / size));
    }

    /**
     * One round moved {@code bytes} (or messages, or round trips: only rates are compared) in {@code nanos}, while
     * this process's compilers worked {@code compileNanos} (summed over their threads; 0 where the JVM cannot tell).
     */
    void round(long bytes, long nanos, long compileNanos) {
        if (bytes < 0 || nanos <= 0 || compileNanos < 0) {
            throw new IllegalArgumentException("a round of " + bytes + " bytes in " + nanos + " ns, compiling "
                    + compileNanos + " ns");
        }
        rates.add((double) bytes / nanos);
        quietRounds = compileNanos > COMPILING * nanos ? 0 : quietRounds + 1;
        elapsed += nanos;
        lastNanos = nanos;
    }

    /** Whether the rate has stopped climbing, or the warm-up has taken as long as it may. */
    boolean level() {
        if (elapsed >= pace.maxNanos()) {
            return true;
        }
        int n = rates.size();
        int span = span();
        if (n < 2 * span || quietRounds < span) {
            return false;
        }
        return median(n - span, n) <= GAIN * median(n - 2 * span, n - span);
    }

    /**
     * Rounds compared on each side: the pace's span of the intended length, fewer where the last round was longer,
     * so each side covers about {@code span * roundNanos} whatever a round lasts. A round is at least a TX depth of
     * messages: 128 writes of 1 MiB take 2.1 s on a 500 Mbit/s cable, where eight rounds ran into the 15 s limit on
     * a rate that was level from the first.
     */
    private int span() {
        long last = lastNanos;
        long perSide = (long) pace.span() * pace.roundNanos();
        return (int) Math.max(1, Math.min(pace.span(), (perSide + last / 2) / last));
    }

    /** Rounds so far. */
    int rounds() {
        return rates.size();
    }

    /**
     * Messages for the next round, each of {@code messageBytes}: as many as the last round's rate moves in the pace's
     * round, at least {@code floor}, at most {@link #MAX_ROUND_MESSAGES}.
     */
    long nextMessages(long messageBytes, long floor) {
        if (rates.isEmpty()) {
            return floor;
        }
        double perRound = rates.getLast() * pace.roundNanos() / messageBytes;
        return Math.max(floor, (long) Math.min(perRound, MAX_ROUND_MESSAGES));
    }

    /** Milliseconds this JVM's compilers have worked, summed over their threads; 0 where it cannot tell. */
    static long compilerMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }

    private double median(int from, int to) {
        double[] r = rates.subList(from, to).stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(r);
        return r[r.length / 2];
    }
}
