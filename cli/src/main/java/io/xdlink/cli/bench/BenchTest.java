package io.xdlink.cli.bench;

import java.util.Locale;

/** The four perftest tests xdlink bench runs, with perftest's names for them. */
public enum BenchTest {
    WRITE_BW("RDMA_Write BW Test", Verb.WRITE, true),
    WRITE_LAT("RDMA_Write Latency Test", Verb.WRITE, false),
    SEND_BW("Send BW Test", Verb.SEND, true),
    SEND_LAT("Send Latency Test", Verb.SEND, false);

    /** The operation each iteration performs. */
    public enum Verb { WRITE, SEND }

    private final String title;
    private final Verb verb;
    private final boolean bandwidth;

    BenchTest(String title, Verb verb, boolean bandwidth) {
        this.title = title;
        this.verb = verb;
        this.bandwidth = bandwidth;
    }

    /** The command name: {@code write_bw}, {@code write_lat}, {@code send_bw}, {@code send_lat}. */
    public String command() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The banner title perftest prints for this test. */
    public String title() {
        return title;
    }

    public Verb verb() {
        return verb;
    }

    public boolean isBandwidth() {
        return bandwidth;
    }

    /** perftest's default message size: 64 KiB for bandwidth, 2 bytes for latency. */
    public long defaultSize() {
        return bandwidth ? 65536 : 2;
    }

    /** perftest's default iterations: 5000 for WRITE bandwidth, 1000 otherwise. */
    public long defaultIterations() {
        return this == WRITE_BW ? 5000 : 1000;
    }

    /** perftest's default TX depth: 128 for bandwidth, 1 for latency. */
    public int defaultTxDepth() {
        return bandwidth ? 128 : 1;
    }

    /** The test of a command name, or null. */
    public static BenchTest ofCommand(String command) {
        for (BenchTest t : values()) {
            if (t.command().equals(command)) {
                return t;
            }
        }
        return null;
    }
}
