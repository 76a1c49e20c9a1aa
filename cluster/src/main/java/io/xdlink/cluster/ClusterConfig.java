package io.xdlink.cluster;

import io.xdlink.params.Params;
import io.xdlink.sim.HostSpec;
import io.xdlink.sim.SimTopology;

import java.util.Objects;

/**
 * A simulated cluster: its cabling, the xdlink parameters every host runs with, and the seed of everything random.
 */
public record ClusterConfig(SimTopology topology, Params params, long seed) {

    public ClusterConfig {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(params, "params");
        if (topology.hostCount() > DataType.MAX_EXACT_HOSTS) {
            throw new IllegalArgumentException("at most " + DataType.MAX_EXACT_HOSTS + " hosts");
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
