package io.xdlink.sim;

import io.xdlink.xdomain.discovery.DiscoveryState;
import io.xdlink.xdomain.discovery.Peer;
import io.xdlink.xdomain.discovery.PeerDiscovery;
import io.xdlink.xdomain.discovery.XdomainHost;
import io.xdlink.xdomain.service.XdlinkService;

/**
 * The real XDomain discovery ({@link PeerDiscovery}) on one port of a simulated host, over the port's ring 0 and
 * lane adapter. What it reports is the only source of the peers and link states the host's fabric view shows.
 */
final class XdomainPortSession implements PortSession {
    private final SimHost host;
    private final SimPort port;
    private final CableLink link;
    private final PeerDiscovery discovery;
    private volatile boolean finished;
    private boolean wasEnumerated;

    private XdomainPortSession(SimHost host, SimPort port, CableLink link, PeerDiscovery discovery) {
        this.host = host;
        this.port = port;
        this.link = link;
        this.discovery = discovery;
    }

    /** Starts discovery on {@code port}; runs on the fabric's scheduler. */
    static XdomainPortSession start(SimHost host, XdomainHost xdomain, SimPort port, CableLink link, Ring0 ring0,
                                    CableLanes.End lanes) {
        // Linux names a peer on port N of domain 0 "0-N": the route to it is the port number.
        long route = port.index() + 1;
        PeerDiscovery d = xdomain.connect("0-" + Long.toHexString(route), route, ring0.discovery(),
                new SimLaneAdapter(lanes), port.hopIds().max(), null);
        XdomainPortSession s = new XdomainPortSession(host, port, link, d);
        d.addListener(s::peerChanged);
        d.start();
        return s;
    }

    private void peerChanged(Peer peer) {
        finished = peer.state() == DiscoveryState.ENUMERATED || peer.state() == DiscoveryState.ERROR;
        if (peer.enumerated() && peer.uuid().isPresent()) {
            wasEnumerated = true;
            String name = peer.properties().flatMap(Peer.RemoteProperties::deviceName).orElse(peer.name());
            host.enumerated(port, link, new PeerRecord(peer.uuid().get(), name, peer.link(),
                    peer.service(XdlinkService.KEY).isPresent()));
        } else if (wasEnumerated && peer.state() != DiscoveryState.ENUMERATED) {
            wasEnumerated = false;
            host.lost(port, link);
        }
    }

    @Override
    public boolean finished() {
        return finished;
    }

    /** What discovery knows now. */
    Peer peer() {
        return discovery.peer();
    }

    @Override
    public void stop() {
        discovery.stop();
    }
}
