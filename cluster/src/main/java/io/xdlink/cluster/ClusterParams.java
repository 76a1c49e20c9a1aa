package io.xdlink.cluster;

import io.xdlink.params.ParamProvider;
import io.xdlink.params.ParamSpec;
import io.xdlink.params.ParamType;

import java.util.List;

/**
 * The simulated cluster's parameters: NCCL's FIFO shape (slot size, requests in flight per connection), and the
 * faults a planner asks about: controllers that refuse to bond, a cable pulled mid-collective.
 */
public final class ClusterParams implements ParamProvider {

    public static final ParamSpec<Long> CHUNK = ParamSpec.builder("cluster_chunk_bytes",
                    new ParamType.Size(4096, 64L << 20))
            .defaultValue(512L << 10).unit("bytes")
            .description("Largest message of a simulated collective: one FIFO slot, NCCL's 4 MiB buffer over its 8 steps")
            .build();

    public static final ParamSpec<Long> INFLIGHT = ParamSpec.builder("cluster_inflight", new ParamType.Int(1, 32, true))
            .defaultValue(8L).unit("requests")
            .description("Sends and receives in flight per connection of a simulated collective (NCCL_STEPS)")
            .build();

    public static final ParamSpec<List<String>> REFUSED_BOND = ParamSpec.builder("cluster_refused_bond",
                    new ParamType.ListOf<>(new ParamType.Str(32), 128))
            .defaultValue(List.of())
            .description("Simulated cables (cable0, cable1, ...) whose far controller refuses to bond, as AMD controllers do: they run one lane")
            .build();

    public static final ParamSpec<String> PULL = ParamSpec.builder("cluster_pull", new ParamType.Str(64))
            .defaultValue("")
            .description("CABLE@TIME: pull that simulated cable TIME (e.g. 200us) into the first timed collective of the largest size, plug it back after")
            .build();

    @Override
    public String module() {
        return "cluster";
    }

    @Override
    public List<ParamSpec<?>> specs() {
        return List.of(CHUNK, INFLIGHT, REFUSED_BOND, PULL);
    }
}
