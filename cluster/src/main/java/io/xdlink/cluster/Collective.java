package io.xdlink.cluster;

import java.util.Locale;

/**
 * The operations nccl-tests measures, with its program names and its bus-bandwidth factors: busbw = algbw x factor,
 * so a figure compares with the links' speed whatever the host count.
 */
public enum Collective {
    ALL_REDUCE("all_reduce_perf", "AllReduce"),
    ALL_GATHER("all_gather_perf", "AllGather"),
    REDUCE_SCATTER("reduce_scatter_perf", "ReduceScatter"),
    BROADCAST("broadcast_perf", "Broadcast"),
    SENDRECV("sendrecv_perf", "SendRecv");

    private final String program;
    private final String title;

    Collective(String program, String title) {
        this.program = program;
        this.title = title;
    }

    /** nccl-tests' program: {@code all_reduce_perf}. */
    public String program() {
        return program;
    }

    /** NCCL's name: {@code AllReduce}. */
    public String title() {
        return title;
    }

    /** The lower-case name: {@code all_reduce}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Collective ofProgram(String program) {
        for (Collective c : values()) {
            if (c.program.equals(program) || c.label().equals(program)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown collective '" + program + "'");
    }

    /** nccl-tests' factor: all_reduce 2(n-1)/n, all_gather and reduce_scatter (n-1)/n, broadcast and sendrecv 1. */
    public double busFactor(int hosts) {
        return switch (this) {
            case ALL_REDUCE -> 2.0 * (hosts - 1) / hosts;
            case ALL_GATHER, REDUCE_SCATTER -> (double) (hosts - 1) / hosts;
            case BROADCAST, SENDRECV -> 1.0;
        };
    }

    /**
     * Parts each message goes in: sendrecv is point-to-point, which NCCL spreads over channels that share one
     * connection and whose receives it posts as one grouped {@code irecv}; here two such parts. The collectives'
     * rings post one receive per message.
     */
    public int parts() {
        return this == SENDRECV ? 2 : 1;
    }

    /** Whether the operation reduces (its redop column shows the op, else "none"). */
    public boolean reduces() {
        return this == ALL_REDUCE || this == REDUCE_SCATTER;
    }

    /** Whether a root matters (its root column shows it, else -1). */
    public boolean rooted() {
        return this == BROADCAST;
    }

    /** Bytes per host in its input buffer, for a run of {@code size} bytes (nccl-tests' size column). */
    public long inputBytes(long size, int hosts) {
        return this == ALL_GATHER ? size / hosts : size;
    }

    /** Bytes per host in its output buffer. */
    public long outputBytes(long size, int hosts) {
        return this == REDUCE_SCATTER ? size / hosts : size;
    }

    /**
     * The size nccl-tests really runs for a requested size: whole elements, and for all_gather and
     * reduce_scatter a whole number of elements per host.
     */
    public long alignedSize(long size, int hosts, DataType type) {
        long unit = (this == ALL_GATHER || this == REDUCE_SCATTER) ? (long) hosts * type.bytes() : type.bytes();
        return size / unit * unit;
    }
}
