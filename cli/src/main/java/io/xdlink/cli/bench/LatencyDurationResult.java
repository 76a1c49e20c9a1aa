package io.xdlink.cli.bench;

/**
 * A duration-mode latency row ({@code -D}): perftest reports only the mean half round trip and the transactions per
 * second there.
 *
 * @param size       message size in bytes
 * @param iterations round trips in the sampling window
 * @param average    mean half round trip, microseconds
 * @param tps        round trips per second
 */
public record LatencyDurationResult(long size, long iterations, double average, double tps) {
}
