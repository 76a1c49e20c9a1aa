package io.xdlink.cluster;

import io.xdlink.params.Params;
import io.xdlink.sim.HostSpec;
import io.xdlink.sim.SimTopology;

import java.util.Objects;

/**
 * A simulated cluster: its cabling, the xdlink parameters every host runs with, the seed of everything random, and
 * whether it runs in real time (paced by the wall clock, a progress thread per host: for a few hosts) instead of
 * virtual time.
 */
public record ClusterConfig(SimTopology topology, Params params, long seed, boolean realTime) {

    /** Hosts real time may run: each needs about a processor of its own. */
    public static final int MAX_REAL_TIME_HOSTS = 8;

    /** A cluster in virtual time. */
    public ClusterConfig(SimTopology topology, Params params, long seed) {
        this(topology, params, seed, false);
    }

    public ClusterConfig {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(params, "params");
        if (topology.hostCount() > DataType.MAX_EXACT_HOSTS) {
            throw new IllegalArgumentException("at most " + DataType.MAX_EXACT_HOSTS + " hosts");
        }
        if (realTime && topology.hostCount() > MAX_REAL_TIME_HOSTS) {
            throw new IllegalArgumentException("real time runs at most " + MAX_REAL_TIME_HOSTS + " hosts (a progress "
                    + "thread each); " + topology.hostCount() + " hosts run in virtual time");
        }
    }

    /** Bytes per message at most: one FIFO slot. */
    public long chunkBytes() {
        return params.get(ClusterParams.CHUNK) / 4 * 4;
    }

    /** Requests in flight per connection. */
    public int depth() {
        return Math.toIntExact(params.get(ClusterParams.INFLIGHT));
    }

    /**
     * Host {@code i}: 1024-frame receive rings (4 MiB a rail), enough for a link's full rate at the simulated
     * latency, and a quarter of the 16 MiB default, so 32 hosts stay small.
     */
    HostSpec hostSpec(int i) {
        return HostSpec.named("host" + i).withRings(1024, 256);
    }
}
