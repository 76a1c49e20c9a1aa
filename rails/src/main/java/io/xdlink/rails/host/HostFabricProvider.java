package io.xdlink.rails.host;

import io.xdlink.params.ParamSpec;
import io.xdlink.params.Params;
import io.xdlink.rails.Fabric;
import io.xdlink.rails.FabricProvider;

import java.io.IOException;
import java.util.Optional;

/**
 * The real host's fabric, chosen whenever the simulator is not: when no {@code loopback} parameter is registered or
 * it is 0. Without USB4 on the host, opening it fails with a message that says so and how to run without hardware.
 */
public final class HostFabricProvider implements FabricProvider {
    /** The simulator's switch; declared by the simulator, looked up by name so rails need not depend on it. */
    static final String LOOPBACK = "loopback";

    @Override
    public String name() {
        return "host";
    }

    @Override
    public Optional<Fabric> open(Params params) throws IOException {
        if (loopbackOn(params)) {
            return Optional.empty();
        }
        return Optional.of(HostFabric.open(HostFabricConfig.from(params)));
    }

    static boolean loopbackOn(Params params) {
        Optional<ParamSpec<?>> spec = params.registry().find(LOOPBACK);
        if (spec.isEmpty()) {
            return false;
        }
        Object v = params.get(spec.get());
        return switch (v) {
            case Number n -> n.longValue() > 0;
            case Boolean b -> b;
            case String s -> !s.isBlank() && !s.equals("0");
            default -> false;
        };
    }
}
