package io.xdlink.sim;

import io.xdlink.params.Params;
import io.xdlink.rails.Fabric;
import io.xdlink.rails.FabricProvider;

import java.io.IOException;
import java.util.Optional;

/** Offers the {@link LoopbackFabric} when {@code loopback} is above 0. */
public final class LoopbackFabricProvider implements FabricProvider {

    @Override
    public String name() {
        return "loopback";
    }

    @Override
    public Optional<Fabric> open(Params params) throws IOException {
        if (params.get(SimParams.LOOPBACK) == 0) {
            return Optional.empty();
        }
        return Optional.of(LoopbackFabric.open(params));
    }
}
