package io.xdlink.sim;

import io.xdlink.rails.Fabric;
import io.xdlink.rails.LinkInfo;
import io.xdlink.rails.PeerInfo;
import io.xdlink.sim.dma.SimDmaMemory;
import io.xdlink.xdomain.discovery.XdomainHost;
import io.xdlink.xdomain.service.HostIdentity;
import io.xdlink.xdomain.service.ProtocolHandlers;
import io.xdlink.xdomain.service.ServiceRegistry;
import io.xdlink.xdomain.service.ThunderboltNet;
import io.xdlink.xdomain.service.XdlinkService;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A simulated host: a domain UUID, USB4 ports, a published property block ({@code xdlink}, and thunderbolt-net's
 * {@code network} when asked), simulated DMA memory, and the XDomain discovery it runs on every port with a live
 * cable. Its {@link #fabric()} is what code on this host sees. A host can crash (its links go down, its rails fail)
 * and restart (same domain UUID, a fresh property-block generation, every cable enumerated again).
 */
public final class SimHost {
    private final SimFabric world;
    private final HostSpec spec;
    private final SimPort[] ports;
    private final SimDmaMemory dma;
    private final SimulatedHostFabric view;
    private volatile List<PeerInfo> peers = List.of();
    private volatile boolean up = true;
    private XdomainHost xdomain;
    private int boots;

    SimHost(SimFabric world, HostSpec spec) {
        this.world = world;
        this.spec = spec;
        this.ports = new SimPort[spec.ports()];
        for (int i = 0; i < ports.length; i++) {
            ports[i] = new SimPort(this, i, spec.maxHopId());
        }
        this.dma = new SimDmaMemory(spec.name(), spec.dma(), world::warn);
        this.xdomain = boot();
        this.view = new SimulatedHostFabric(world, this);
    }

    /**
     * The XDomain side of a freshly booted host: a new property block (Linux starts its generation from a random
     * number) and no protocol handlers yet.
     */
    private XdomainHost boot() {
        boots++;
        int generation = world.plan().stream("host:" + spec.name() + ":boot" + boots).nextInt();
        ServiceRegistry r = new ServiceRegistry(HostIdentity.linux(spec.name()), generation);
        int settings = XdlinkService.RAIL_DMA | XdlinkService.WRITE_WITH_IMM | XdlinkService.MULTI_RAIL
                | (world.plan().e2eFlowControl() ? XdlinkService.E2E : 0);
        if (spec.thunderboltNet()) {
            r.register(ThunderboltNet.KEY, ThunderboltNet.directory());
        }
        r.register(XdlinkService.KEY, XdlinkService.directory(settings));
        return new XdomainHost(world.clock().scheduler(), spec.domain(), r);
    }

    public String name() {
        return spec.name();
    }

    public UUID domain() {
        return spec.domain();
    }

    public HostSpec spec() {
        return spec;
    }

    /** What code running on this host sees of the fabric. */
    public Fabric fabric() {
        return view;
    }

    SimulatedHostFabric view() {
        return view;
    }

    public SimDmaMemory dma() {
        return dma;
    }

    /** The XDomain side of this host as booted now: its services and protocol handlers. */
    public synchronized XdomainHost xdomain() {
        return xdomain;
    }

    /** The services this host publishes now. */
    public ServiceRegistry services() {
        return xdomain().services();
    }

    /** Handlers for service protocols arriving on this host's ring 0. */
    public ProtocolHandlers protocolHandlers() {
        return xdomain().protocolHandlers();
    }

    public boolean isUp() {
        return up;
    }

    /** The peers this host's discovery has enumerated with the {@code xdlink} service, and their links. */
    List<PeerInfo> peers() {
        return peers;
    }

    SimPort port(int index) {
        if (index < 0 || index >= ports.length) {
            throw new IllegalArgumentException(name() + " has ports 0.." + (ports.length - 1) + ", not " + index);
        }
        return ports[index];
    }

    int freePort() {
        for (SimPort p : ports) {
            if (p.cable() == null) {
                return p.index();
            }
        }
        throw new IllegalArgumentException(name() + " has no free port (all " + ports.length + " are cabled)");
    }

    /** The host stops dead: every link it has goes down and every rail through it fails. */
    public void crash() {
        synchronized (this) {
            if (!up) {
                return;
            }
            up = false;
        }
        for (SimPort p : ports) {
            SimCable c = p.cable();
            if (c != null) {
                c.linkDown("host " + name() + " crashed");
            }
        }
        view.hostCrashed();
    }

    /** The host boots again: same domain UUID, new property-block generation, every live cable enumerates again. */
    public void restart() {
        synchronized (this) {
            if (up) {
                return;
            }
            xdomain = boot();
            up = true;
        }
        for (SimPort p : ports) {
            SimCable c = p.cable();
            if (c != null) {
                c.linkUp();
            }
        }
    }

    /** A cable's link came up on {@code port}: start discovery over it. */
    void linkUp(SimPort port, CableLink link, Ring0 ring0, CableLanes.End lanes) {
        XdomainHost booted = xdomain();
        world.clock().scheduler().execute(() -> {
            if (!link.isUp() || port.cable() == null || port.cable().link() != link) {
                return;
            }
            port.session(XdomainPortSession.start(this, booted, port, link, ring0, lanes));
        });
    }

    /** A cable's link went down on {@code port}: forget the peer at once, stop discovery on the scheduler. */
    void linkDown(SimPort port, CableLink link) {
        port.peer(null);
        refreshPeers();
        world.clock().scheduler().execute(() -> {
            PortSession s = port.session();
            if (s != null && (port.cable() == null || port.cable().link() != link || !link.isUp())) {
                port.session(null);
                s.stop();
            }
        });
    }

    /** Discovery on {@code port} reached ENUMERATED over {@code link}. */
    void enumerated(SimPort port, CableLink link, PeerRecord peer) {
        if (!link.isUp() || port.cable() == null || port.cable().link() != link) {
            return;
        }
        port.peer(peer);
        refreshPeers();
    }

    /** Discovery on {@code port} lost the peer (it answered no more, or went to ERROR). */
    void lost(SimPort port, CableLink link) {
        if (port.cable() != null && port.cable().link() == link) {
            port.peer(null);
            refreshPeers();
        }
    }

    private synchronized void refreshPeers() {
        Map<UUID, List<LinkInfo>> links = new LinkedHashMap<>();
        Map<UUID, String> names = new LinkedHashMap<>();
        for (SimPort p : ports) {
            PeerRecord r = p.peer();
            SimCable c = p.cable();
            if (r == null || c == null || !r.xdlink()) {
                continue;
            }
            links.computeIfAbsent(r.domain(), k -> new ArrayList<>()).add(new LinkInfo(c.name(), p.name(), r.link()));
            names.putIfAbsent(r.domain(), r.name());
        }
        List<PeerInfo> list = new ArrayList<>();
        links.forEach((domain, l) -> list.add(new PeerInfo(domain, names.get(domain), l)));
        peers = List.copyOf(list);
    }

    /** The port whose cable is {@code cableName}, with the peer it enumerated, if any. */
    Optional<SimPort> portFor(String cableName) {
        for (SimPort p : ports) {
            SimCable c = p.cable();
            if (c != null && c.name().equals(cableName)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    List<SimPort> ports() {
        return List.of(ports);
    }

    SimFabric world() {
        return world;
    }

    @Override
    public String toString() {
        return name() + " (" + domain() + ")";
    }
}
