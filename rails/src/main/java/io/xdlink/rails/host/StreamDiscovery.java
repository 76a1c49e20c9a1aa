package io.xdlink.rails.host;

import io.xdlink.rails.tcp.ControlConnection;
import io.xdlink.rails.tcp.RailDirectoryException;
import io.xdlink.rails.tcp.TcpLinkEndpoint;
import io.xdlink.rails.tcp.TcpRailDirectory;
import io.xdlink.xdomain.LaneAdapter;
import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.Scheduler;
import io.xdlink.xdomain.XdomainFormatException;
import io.xdlink.xdomain.discovery.DiscoveryState;
import io.xdlink.xdomain.discovery.Peer;
import io.xdlink.xdomain.discovery.PeerDiscovery;
import io.xdlink.xdomain.discovery.PeerListener;
import io.xdlink.xdomain.discovery.XdomainHost;
import io.xdlink.xdomain.service.Service;
import io.xdlink.xdomain.service.XdlinkService;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * XDomain discovery over one session stream, exactly the code that runs on ring 0: the UUID exchange, then the
 * peer's property block, whose xdlink service names the peer's rail listeners. The link's lanes were negotiated by
 * the kernel, so the lane adapter is fixed and no bonding is attempted. The stream is refused (and the caller closes
 * it) when the peer turns out to be this host, another host than the one dialled, a host sysfs does not show as a
 * peer, a host without TCP rails, or when discovery does not finish within the connect timeout.
 */
final class StreamDiscovery implements PeerListener {
    /** What the discovery of one stream comes to; on the loop. */
    interface Outcome {
        /** The peer and its rail listeners; called again when it publishes new ones. */
        void enumerated(ControlConnection stream, UUID peer, List<TcpLinkEndpoint> endpoints);

        /** The stream is no use; {@code self} when the peer is this very host. Called at most once. */
        void refused(ControlConnection stream, String why, boolean self);
    }

    private final ControlConnection stream;
    private final UUID expected;
    private final Predicate<UUID> acceptable;
    private final Scheduler loop;
    private final Duration timeout;
    private final Outcome outcome;
    private final PeerDiscovery discovery;
    private Scheduler.Timer deadline;
    private List<TcpLinkEndpoint> published;
    private boolean refused;

    /**
     * @param via        the local link the stream runs beside: its name, route and negotiated state
     * @param expected   the host the stream was dialled for, or null for an accepted stream
     * @param acceptable which hosts may have a session (the peers sysfs shows)
     */
    StreamDiscovery(XdomainHost host, ControlConnection stream, HostLink via, UUID expected,
                    Predicate<UUID> acceptable, Duration timeout, Outcome outcome) {
        this.stream = stream;
        this.expected = expected;
        this.acceptable = acceptable;
        this.loop = host.scheduler();
        this.timeout = timeout;
        this.outcome = outcome;
        LinkState state = via.state();
        this.discovery = host.connect(via.id(), via.route(), stream.channel(ControlConnection.SESSION_CHANNEL,
                stream::close), LaneAdapter.fixed(state));
    }

    void start() {
        discovery.addListener(this);
        deadline = loop.schedule(timeout.toNanos(), () -> {
            if (published == null) {
                refuse("discovery did not finish within " + timeout.toMillis() + " ms (state "
                        + discovery.peer().state() + discovery.peer().lastError().map(e -> ", " + e).orElse("") + ")", false);
            }
        });
        discovery.start();
    }

    void stop() {
        if (deadline != null) {
            deadline.cancel();
        }
        discovery.stop();
    }

    @Override
    public void peerChanged(Peer peer) {
        if (refused) {
            return;
        }
        if (peer.loop()) {
            refuse("the peer is this host itself", true);
            return;
        }
        if (peer.uuid().isPresent()) {
            UUID uuid = peer.uuid().get();
            if (expected != null && !expected.equals(uuid)) {
                refuse("answered by host " + uuid + ", expected " + expected, false);
                return;
            }
            if (!acceptable.test(uuid)) {
                refuse("host " + uuid + " is not a peer of this host in sysfs; session refused", false);
                return;
            }
        }
        if (peer.state() == DiscoveryState.ERROR) {
            refuse("discovery failed: " + peer.lastError().orElse("no reason given"), false);
            return;
        }
        if (!peer.enumerated() || peer.uuid().isEmpty()) {
            return;
        }
        List<TcpLinkEndpoint> endpoints;
        try {
            Service xdlink = peer.service(XdlinkService.KEY).orElseThrow(() ->
                    new RailDirectoryException(XdlinkService.KEY, "the peer publishes no xdlink service"));
            if ((xdlink.prtcstns() & XdlinkService.RAIL_TCP) == 0) {
                throw new RailDirectoryException("prtcstns", "the peer's xdlink service offers no TCP rails ("
                        + XdlinkService.describe(xdlink.prtcstns()) + ")");
            }
            endpoints = TcpRailDirectory.read(xdlink.directory());
        } catch (XdomainFormatException e) {
            refuse("host " + peer.uuid().get() + ": " + e.getMessage() + "; session refused", false);
            return;
        }
        if (!endpoints.equals(published)) {
            published = endpoints;
            deadline.cancel();
            outcome.enumerated(stream, peer.uuid().get(), endpoints);
        }
    }

    private void refuse(String why, boolean self) {
        if (!refused) {
            refused = true;
            stop();
            outcome.refused(stream, stream.name() + ": " + why, self);
        }
    }
}
