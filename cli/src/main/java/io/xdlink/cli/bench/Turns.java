package io.xdlink.cli.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code --turns N} with {@code --baseline raw}: each size's iterations in N turns, xdlink's and the plain socket's
 * one after the other, so that the two runs span the same stretch of time instead of one following the other, and a
 * change over that stretch (the load, the host's other guests) falls on both. What it does not even out, in the
 * two-host lab: the two states a 64 KiB round trip has there belong to each connection, and xdlink's and the socket's
 * were often in different ones within one run (docs/benchmarks.md).
 */
final class Turns {
    /**
     * Round trips each latency turn makes before its measured ones, on either side. A turn begins after the other
     * side's, through which this side's threads slept: on a 2-core virtual machine the first round trips after that
     * took 0.3-1.1 ms where the rest took 45 us (64 KiB in the two-host lab), for ten to twenty of them: with ten
     * turns of a thousand, enough to set the 99th percentile. That is the alternation's cost, not either side's, and
     * a run without turns never pays it.
     */
    static final int LEAD_IN = 20;

    private Turns() {
    }

    /** The iterations of turn {@code k} of {@code turns}: an equal share, the first ones taking the remainder. */
    static long share(long iterations, int turns, int k) {
        if (turns < 1 || k < 0 || k >= turns) {
            throw new IllegalArgumentException("turn " + k + " of " + turns);
        }
        return iterations / turns + (k < iterations % turns ? 1 : 0);
    }

    /** The round trips between consecutive stamps, the last stamp taken after the last round trip ended. */
    static long[] roundTrips(long[] stamps) {
        long[] rt = new long[stamps.length - 1];
        for (int i = 0; i < rt.length; i++) {
            rt[i] = stamps[i + 1] - stamps[i];
        }
        return rt;
    }

    /** One side's turns of one size, made into its row once every turn has run. */
    static final class Tally {
        private final long size;
        private final boolean latency;
        private final List<BwResult> bandwidth = new ArrayList<>();
        private long[] roundTrips;
        private int count;

        /**
         * @param iterations the size's iterations over all turns: room for a latency test's round trips, made once
         * @param latency    a latency test's tally (round trips), else a bandwidth test's (turns' rows)
         */
        Tally(long size, long iterations, boolean latency) {
            this.size = size;
            this.latency = latency;
            this.roundTrips = new long[latency ? Math.toIntExact(iterations) : 0];
        }

        void add(BwResult turn) {
            bandwidth.add(turn);
        }

        void add(long[] turnRoundTrips) {
            if (count + turnRoundTrips.length > roundTrips.length) {
                roundTrips = Arrays.copyOf(roundTrips, count + turnRoundTrips.length);
            }
            System.arraycopy(turnRoundTrips, 0, roundTrips, count, turnRoundTrips.length);
            count += turnRoundTrips.length;
        }

        /**
         * The row: the bandwidth turns combined, or perftest's latency statistics, which sort the round trips in
         * place: the tally's last use.
         */
        BenchResult row() {
            if (!latency) {
                return new BenchResult.Bw(BwStatistics.combine(bandwidth));
            }
            long[] all = count == roundTrips.length ? roundTrips : Arrays.copyOf(roundTrips, count);
            return new BenchResult.Lat(LatencyStatistics.ofRoundTrips(size, count, all, 2));
        }
    }
}
