package io.xdlink.cli.bench;

/**
 * One latency row, microseconds, as perftest's {@code print_report_lat} prints it.
 *
 * @param size       message size in bytes
 * @param iterations iterations run
 * @param min        smallest sample
 * @param max        perftest's t_max (see {@link LatencyStatistics})
 * @param typical    median of the kept samples
 * @param average    mean of the kept samples
 * @param stdev      population standard deviation of the kept samples
 * @param p99        99% percentile
 * @param p999       99.9% percentile
 */
public record LatencyResult(long size, long iterations, double min, double max, double typical, double average,
                            double stdev, double p99, double p999) {
}
