package io.xdlink.rails;

import io.xdlink.params.Params;

import java.io.IOException;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Finds a fabric at run time ({@link ServiceLoader}, {@code META-INF/services/io.xdlink.rails.FabricProvider})
 * so the plugin and the command line work with the simulator and with a real host alike.
 */
public interface FabricProvider {

    /** Short name: {@code loopback}, {@code host}. */
    String name();

    /**
     * Opens this provider's fabric if the parameters ask for it (the simulator when {@code loopback} is above 0),
     * else returns empty so the next provider is tried.
     */
    Optional<Fabric> open(Params params) throws IOException;
}
