package io.xdlink.cli.bench;

/**
 * One bandwidth row: what perftest's {@code bw_report_data} holds and prints.
 *
 * @param size       message size in bytes
 * @param iterations completed messages
 * @param peak       peak bandwidth in {@code unit}; 0 when not measured
 * @param average    average bandwidth in {@code unit}
 * @param msgRateMpps average message rate, millions of messages per second
 * @param unit       the unit of peak and average
 * @param peakMeasured false in duration mode or beyond 20000 iterations, where perftest does not measure a peak
 */
public record BwResult(long size, long iterations, double peak, double average, double msgRateMpps, ReportUnit unit,
                       boolean peakMeasured) {
}
