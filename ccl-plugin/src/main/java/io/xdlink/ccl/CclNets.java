package io.xdlink.ccl;

import io.xdlink.ccl.engine.EngineRequest;
import io.xdlink.params.ParamException;
import io.xdlink.params.ParamSources;
import io.xdlink.params.Params;
import io.xdlink.rails.Fabric;
import io.xdlink.rails.Fabrics;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.tcp.CongestionControl;
import io.xdlink.rails.tcp.TcpParams;

import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

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

    /** The network over the fabric these parameters ask for ({@link Fabrics#open}). */
    public static CclNet open(Params params, CclLog log) throws CclException {
        Fabrics.Opened opened;
        try {
            opened = Fabrics.open(params);
        } catch (IOException e) {
            // The fabric's own message says what to do: a missing USB4 host and a missing fabric name loopback=1
            // already, and a link another xdlink process holds is not cured by the simulator.
            throw CclException.system(e.getMessage(), e);
        }
        log.info("NET/xdlink : using the " + opened.provider() + " fabric");
        if ("host".equals(opened.provider())) {
            CongestionControl.unusable(params.get(TcpParams.CONGESTION_CONTROL).strip())
                    .ifPresent(w -> log.warn("NET/xdlink : " + w));
        }
        Fabric fabric = opened.fabric();
        RailsDevices rails;
        try {
            rails = new RailsDevices(fabric, params, "host".equals(opened.provider()));
        } catch (RuntimeException e) {
            fabric.close();
            throw CclException.system("cannot open rails over the " + opened.provider() + " fabric: "
                    + e.getMessage(), e);
        }
        return Devices.open(fabric, log, rails);
    }

    /**
     * The network of one host over a rails device its caller opened and drives: one plugin device per peer of
     * {@code fabric}, every one listening and connecting through {@code rails}. For many hosts in one process, each
     * with its own device stepped in virtual time (a simulated cluster): nothing here starts a thread or opens a
     * rail, and closing the network leaves the rails device and the fabric to the caller.
     *
     * @param rails a rails device whose id is {@code fabric}'s local domain, so the handles it gives name this host
     */
    public static CclNet overRails(Fabric fabric, Device rails, Params params, CclLog log)
            throws CclException {
        if (!rails.id().equals(fabric.localDomain())) {
            throw CclException.internal("rails device " + rails.id() + " is not the device of host "
                    + fabric.localDomain());
        }
        PeerDevice.End end = PeerDevice.End.of(rails);
        boolean drain = params.get(CclParams.DRAIN_ON_PROGRESS);
        // One rails device with rails to every peer, as on a real host: any device reaches any of them.
        Set<UUID> peers = ConcurrentHashMap.newKeySet();
        Devices.Source source = new Devices.Source() {
            @Override
            public PeerDevice open(int dev, PeerInfo peer, Optional<Fabric> far) {
                peers.add(peer.domain());
                return new PeerDevice(dev, peer.name(), end, end, PeerDevice.Reach.anyOf(peers), drain);
            }

            @Override
            public void close() {
                // The caller owns the rails device and the fabric.
            }
        };
        return Devices.open(fabric, log, source);
    }

    /** How many sizes {@link CclNet#test} reports for a request xdlink made. */
    public static int sizeCount(Request request) {
        return request instanceof EngineRequest r ? r.sizeCount() : 1;
    }
}
