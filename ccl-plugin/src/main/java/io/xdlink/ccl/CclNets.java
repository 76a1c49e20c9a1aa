package io.xdlink.ccl;

import io.xdlink.ccl.engine.EngineRequest;
import io.xdlink.params.Origin;
import io.xdlink.params.ParamException;
import io.xdlink.params.Params;
import io.xdlink.rails.Fabric;
import io.xdlink.rails.FabricProvider;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Opens the xdlink network: parameters from {@code XDLINK_PARAMS}, the fabric from whichever
 * {@link FabricProvider} on the class path answers them (the simulator for {@code loopback=N}, the real host
 * otherwise), and one device per peer of that fabric.
 */
public final class CclNets {
    /** The variable holding {@code name=value} parameters, as the command line reads them too. */
    public static final String PARAMS_VARIABLE = "XDLINK_PARAMS";

    private CclNets() {
    }

    /** The network the environment describes. */
    public static CclNet fromEnvironment(CclLog log) throws CclException {
        Params params;
        try {
            params = parse(Params.defaults(), System.getenv(PARAMS_VARIABLE));
        } catch (ParamException e) {
            throw CclException.usage(e.getMessage());
        }
        params.warnings().forEach(w -> log.warn("NET/xdlink : " + w));
        return open(params, log);
    }

    static Params parse(Params defaults, String text) {
        Params p = defaults;
        if (text == null || text.isBlank()) {
            return p;
        }
        for (String token : text.trim().split("\\s+")) {
            int eq = token.indexOf('=');
            String name = eq < 0 ? token : token.substring(0, eq);
            String value = eq < 0 ? "1" : token.substring(eq + 1);
            p = p.with(name, value, Origin.environment(PARAMS_VARIABLE));
        }
        return p;
    }

    /** The network over the first fabric a provider opens for these parameters. */
    public static CclNet open(Params params, CclLog log) throws CclException {
        List<String> tried = new ArrayList<>();
        for (FabricProvider provider : ServiceLoader.load(FabricProvider.class, CclNets.class.getClassLoader())) {
            tried.add(provider.name());
            Optional<Fabric> fabric;
            try {
                fabric = provider.open(params);
            } catch (IOException | RuntimeException e) {
                throw CclException.system("fabric " + provider.name() + " failed to open: " + e.getMessage(), e);
            }
            if (fabric.isPresent()) {
                log.info("NET/xdlink : using the " + provider.name() + " fabric");
                return Devices.open(fabric.get(), params, log, RailsDevice::open);
            }
        }
        throw new CclException(CclResult.SYSTEM_ERROR, tried.isEmpty()
                ? "no fabric provider on the class path (io.xdlink.rails.FabricProvider)"
                : "no fabric answered the parameters; tried " + String.join(", ", tried)
                        + " (set XDLINK_PARAMS, e.g. loopback=1)");
    }

    /** How many sizes {@link CclNet#test} reports for a request xdlink made. */
    public static int sizeCount(Request request) {
        return request instanceof EngineRequest r ? r.sizeCount() : 1;
    }
}
