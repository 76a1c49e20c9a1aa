package io.xdlink.cli.bench;

import java.util.Arrays;

/**
 * Latency statistics computed as perftest's {@code print_report_lat} computes them.
 *
 * <p>In a ping-pong each side stamps the moment it posts; the {@code iterations - 1} differences between consecutive
 * stamps are round trips, and a sample is half of one (WRITE and SEND; READ would use the whole trip). The samples
 * are sorted and the two largest dropped from the count. t_min is the smallest sample; t_typical the median of the
 * kept ones (the mean of the two middle ones for an even count); t_avg and t_stdev their mean and population standard
 * deviation; the percentiles are {@code d[ceil(n x 0.99)]} and {@code d[ceil(n x 0.999)]} with n the kept count.
 * perftest prints {@code d[n]} as t_max, the smaller of the two dropped samples, and so do we so that rows compare.
 */
public final class LatencyStatistics {
    /** Samples perftest drops from the top of the sorted set. */
    static final int MEASURE_TAIL = 2;

    private LatencyStatistics() {
    }

    /**
     * @param size       message size
     * @param stamps     post times of each iteration, ns; at least 4
     * @param count      iterations stamped (a prefix of {@code stamps})
     * @param rttFactor  2 for WRITE and SEND (a sample is half a round trip), 1 for READ
     */
    public static LatencyResult compute(long size, long[] stamps, int count, int rttFactor) {
        if (count < MEASURE_TAIL + 2 || count > stamps.length) {
            throw new IllegalArgumentException("need at least " + (MEASURE_TAIL + 2) + " iterations, got " + count);
        }
        int measured = count - 1;
        long[] delta = new long[measured];
        for (int i = 0; i < measured; i++) {
            delta[i] = stamps[i + 1] - stamps[i];
        }
        return ofRoundTrips(size, count, delta, rttFactor);
    }

    /**
     * The same statistics from round trips timed in turns ({@code --turns}): each turn's stamps give its round trips,
     * the last one ended by a stamp after it, so {@code delta} holds one per iteration and they are treated as one
     * run's.
     *
     * @param count iterations the row reports
     * @param delta round trips, ns; at least 3; sorted in place
     */
    public static LatencyResult ofRoundTrips(long size, long count, long[] delta, int rttFactor) {
        if (delta.length < MEASURE_TAIL + 1) {
            throw new IllegalArgumentException("need at least " + (MEASURE_TAIL + 1) + " round trips, got "
                    + delta.length);
        }
        if (rttFactor != 1 && rttFactor != 2) {
            throw new IllegalArgumentException("rtt factor must be 1 or 2: " + rttFactor);
        }
        int measured = delta.length;
        Arrays.sort(delta);
        int n = measured - MEASURE_TAIL;
        double q = 1000.0 * rttFactor; // ns to us, and a round trip to one way
        long median = (n - 1) % 2 != 0 ? (delta[n / 2] + delta[n / 2 - 1]) / 2 : delta[n / 2];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += delta[i] / q;
        }
        double average = sum / n;
        double var = 0;
        for (int i = 0; i < n; i++) {
            double d = average - delta[i] / q;
            var += d * d;
        }
        int i99 = (int) Math.ceil(n * 0.99);
        int i999 = (int) Math.ceil(n * 0.999);
        return new LatencyResult(size, count, delta[0] / q, delta[n] / q, median / q, average,
                Math.sqrt(var / n), delta[i99] / q, delta[i999] / q);
    }

    /** Duration-mode latency: the whole run divided by iterations, and transactions per second. */
    public static double[] duration(long elapsedNs, long iterations, int rttFactor) {
        if (iterations < 1 || elapsedNs <= 0) {
            throw new IllegalArgumentException("no iterations measured");
        }
        double us = elapsedNs / 1000.0;
        return new double[] {us / rttFactor / iterations, iterations / (elapsedNs / 1e9)};
    }
}
