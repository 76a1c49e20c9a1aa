package io.xdlink.ccl;

import io.xdlink.ccl.engine.EngineRequest;
import io.xdlink.params.ParamException;
import io.xdlink.params.ParamSources;
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
    private CclNets() {
    }

    /**
     * The network the environment describes: defaults, then {@code /etc/xdlink/xdlink.conf} (or
     * {@code XDLINK_CONFIG}), then {@code XDLINK_PARAMS}, as every xdlink program reads them.
     */
    public static CclNet fromEnvironment(CclLog log) throws CclException {
        Params params;
        try {
            params = ParamSources.system().load();
        } catch (ParamException e) {
            throw CclException.usage(e.getMessage());
        }
        params.warnings().forEach(w -> log.warn("NET/xdlink : " + w));
        return open(params, log);
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
                RailsDevices rails;
                try {
                    rails = new RailsDevices(fabric.get(), params);
                } catch (RuntimeException e) {
                    fabric.get().close();
                    throw CclException.system("cannot open rails over the " + provider.name() + " fabric: "
                            + e.getMessage(), e);
                }
                return Devices.open(fabric.get(), log, rails);
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
