package io.xdlink.cli.bench;

/**
 * perftest's two bandwidth units: MiB/s by default (1 MiB = 2^20 bytes, labelled {@code MB/sec}) and Gb/s with
 * {@code --report_gbits} (1 Gb = 10^9 bits).
 */
public enum ReportUnit {
    MIB_PER_SEC(0x100000L, "MB/sec"),
    GBIT_PER_SEC(125_000_000L, "Gb/sec");

    private final long bytesPerUnitSecond;
    private final String label;

    ReportUnit(long bytesPerUnitSecond, String label) {
        this.bytesPerUnitSecond = bytesPerUnitSecond;
        this.label = label;
    }

    /** perftest's {@code format_factor}: bytes per second in one unit. */
    public long bytesPerUnitSecond() {
        return bytesPerUnitSecond;
    }

    /** The label inside the table header's brackets. */
    public String label() {
        return label;
    }
}
