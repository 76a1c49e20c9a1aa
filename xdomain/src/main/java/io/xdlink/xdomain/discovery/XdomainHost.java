package io.xdlink.xdomain.discovery;

import io.xdlink.xdomain.ControlChannel;
import io.xdlink.xdomain.LaneAdapter;
import io.xdlink.xdomain.Scheduler;
import io.xdlink.xdomain.service.ProtocolHandlers;
import io.xdlink.xdomain.service.ServiceRegistry;
import java.util.Objects;
import java.util.UUID;

/**
 * The XDomain side of one host's USB4 domain: its UUID, the services it publishes, the protocol handlers for
 * service packets, and the one ordered work queue every peer's discovery runs on (as one Linux domain does). Create
 * one per simulated or real domain, then {@link #connect} each link to a peer.
 */
public final class XdomainHost {
    /** Linux's default when a port's maximum input HopID is not known. */
    public static final int DEFAULT_MAX_HOPID = 15;

    private final Scheduler scheduler;
    private final UUID uuid;
    private final ServiceRegistry services;
    private final ProtocolHandlers protocolHandlers = new ProtocolHandlers();
    private final WorkQueue workQueue;

    /**
     * @param scheduler every timer and every step of discovery runs here (virtual time in tests)
     * @param uuid      the domain UUID (the root router's)
     * @param services  what this host publishes
     */
    public XdomainHost(Scheduler scheduler, UUID uuid, ServiceRegistry services) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.uuid = Objects.requireNonNull(uuid, "uuid");
        this.services = Objects.requireNonNull(services, "services");
        this.workQueue = new WorkQueue(scheduler);
    }

    public UUID uuid() {
        return uuid;
    }

    public Scheduler scheduler() {
        return scheduler;
    }

    public ServiceRegistry services() {
        return services;
    }

    /** Handlers for packets of service protocols (anything but the discovery protocol) that arrive on any link. */
    public ProtocolHandlers protocolHandlers() {
        return protocolHandlers;
    }

    WorkQueue workQueue() {
        return workQueue;
    }

    /** A link to a peer whose UUID discovery will ask for; see {@link PeerDiscovery#start()}. */
    public PeerDiscovery connect(String name, long route, ControlChannel channel, LaneAdapter lanes) {
        return new PeerDiscovery(this, name, route, channel, lanes, DEFAULT_MAX_HOPID, null);
    }

    /**
     * A link to a peer.
     *
     * @param name          the XDomain name, {@code <domain>-<route hex>}, e.g. {@code 0-1}
     * @param route         the route string to the peer, put in every packet this link sends
     * @param channel       carries the packets
     * @param lanes         the port's lane adapters
     * @param localMaxHopId the highest input HopID this port offers, published as {@code maxhopid}
     * @param remoteUuid    the peer's UUID when already known (Linux's firmware connection manager tells it), or
     *                      {@code null} to ask the peer
     */
    public PeerDiscovery connect(String name, long route, ControlChannel channel, LaneAdapter lanes,
                                 int localMaxHopId, UUID remoteUuid) {
        return new PeerDiscovery(this, name, route, channel, lanes, localMaxHopId, remoteUuid);
    }
}
