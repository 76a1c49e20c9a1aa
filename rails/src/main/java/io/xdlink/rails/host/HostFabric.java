package io.xdlink.rails.host;

import io.xdlink.rails.Fabric;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.frame.FrameLayout;
import io.xdlink.rails.tcp.ControlConnection;
import io.xdlink.rails.tcp.IoLoop;
import io.xdlink.rails.tcp.RailAcceptor;
import io.xdlink.rails.tcp.RailConnector;
import io.xdlink.rails.tcp.RailHello;
import io.xdlink.rails.tcp.RailListener;
import io.xdlink.rails.tcp.Subnets;
import io.xdlink.rails.tcp.TcpLinkEndpoint;
import io.xdlink.rails.tcp.TcpListener;
import io.xdlink.rails.tcp.TcpParams;
import io.xdlink.rails.tcp.TcpRailDirectory;
import io.xdlink.rails.tcp.TcpRailTransport;
import io.xdlink.rails.tcp.TcpSettings;
import io.xdlink.xdomain.ControlChannel;
import io.xdlink.xdomain.discovery.XdomainHost;
import io.xdlink.xdomain.service.HostIdentity;
import io.xdlink.xdomain.service.ServiceRegistry;
import io.xdlink.xdomain.service.XdlinkService;
import io.xdlink.xdomain.packet.UuidWords;
import io.xdlink.xdomain.property.PropertyDirectory;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A real host's fabric: peers and links from sysfs, rails as TCP connections over each link's thunderbolt-net
 * interface, and a session with each peer that carries XDomain packets (the handshake that tells each host where
 * the other's rails listen, run by the same XDomain discovery as ring 0, and {@link #openControl}'s channel)
 * beside a keepalive.
 *
 * <p>For every usable link the fabric binds, on the link interface's address, a rail listener and a session
 * listener, and it dials each peer's session listener (the addresses in {@code tcp_peer_address}; without them,
 * the other end of each /30 or /31 link and wherever the peer's {@link LinkDiscovery hello} on a link came from,
 * whatever the subnet) until a session is up, and again whenever one is lost. Of the two hosts, the one
 * with the lower UUID connects each rail and the other accepts it, so both ends of {@code openRail(peer, link, i)}
 * meet on one connection. A link's rail goes to the peer's listener in the same subnet as the link's own address:
 * the two ends of a cable share a subnet, different cables do not.
 *
 * <p>All sessions, listeners and timers run on one {@link IoLoop}; public methods may be called from any thread.
 * Longer than most classes because it is where the fabric's interface meets the pieces that each have a class of
 * their own ({@link SessionTable}, {@link LinkDiscovery}, {@link RailRendezvous}, {@link AddressFile}): what is
 * left here is the wiring between them.
 */
public final class HostFabric implements Fabric {
    private static final int EVENTS = 64;
    /**
     * Writes below 1 MiB go whole to the least loaded TCP rail: the processors, not the cables, are the limit there,
     * and cutting a write costs a socket write and read per rail. In the two-host lab, two cables, warm
     * {@code write_bw} in turns: unshaped, 64 KiB moved 19.9-23.5 Gb/s whole against 9.9-18.9 cut and 128 KiB
     * 22.0-29.7 against 18.6-19.3, while 1 MiB and 8 MiB moved the same either way; on two 1000 Mbit/s cables,
     * 64 KiB moved 1.89 Gb/s whole (2.0 times one cable) against 1.70 cut, since the rails' queues spread whole
     * writes there.
     */
    static final long TCP_STRIPE_MIN_BYTES = 1 << 20;
    /**
     * Frames of 16 KiB on TCP rails: a bulk transfer costs both ends a quarter of the per-frame work (heads, sequence
     * numbers, acknowledgement bookkeeping) that 4 KiB frames do. In the two-host lab, one unshaped cable, warm
     * {@code write_bw --baseline raw} in turns against {@code -P frame_bytes=4096}, three runs each: 64 KiB moved
     * 26.2-32.3 Gb/s against 10.6-22.3, while 1 MiB (27.7-35.5 against 25.0-33.2) and 8 MiB (17.6-19.5 against
     * 16.5-26.9) moved about the same; the plugin's 1 MiB stream went from 0.86-0.90 of a plain socket to 1.03-1.15.
     * Smaller frames cost the most: 1 MiB moved 12.8 Gb/s with 1 KiB frames and 16.1 with 2 KiB.
     */
    static final int TCP_FRAME_BYTES = FrameLayout.MAX_STREAM_FRAME_BYTES;

    private final HostFabricConfig config;
    private final TcpSettings tcp;
    private final UUID local;
    private final String hostName;
    private final IoLoop loop;
    private final RailRendezvous rendezvous;
    private final XdomainHost xdomain;
    private final SessionTable table;
    /** Hellos on each link, or null where {@code tcp_peer_address} overrides discovery or ports are picked freely. */
    private final LinkDiscovery discovery;
    private final Deque<String> events = new ArrayDeque<>();
    private volatile HostTopology topology;
    private volatile Map<String, LinkListener> links = Map.of();
    /** Why links of the last reconcile have no listeners, one line each (an interface without an address, a port taken). */
    private volatile List<String> linkProblems = List.of();
    /** The last reconcile left a link out because a port it needs is bound by another process. */
    private volatile boolean portTaken;
    private volatile boolean closed;
    // Confined to the loop:
    private final Map<InetAddress, TcpListener> controlListeners = new HashMap<>();
    private PropertyDirectory published;
    private boolean explicitDialsAdded;
    private final AddressFile addressFile;

    /** A link's local address and the rail listener bound to it. */
    private record LinkListener(HostLink link, LocalAddress address, TcpListener rails) {
    }

    private HostFabric(HostFabricConfig config, UUID local, HostTopology topology) {
        this.config = config;
        this.tcp = config.tcp();
        this.local = local;
        this.topology = topology;
        this.hostName = hostName(config.root());
        this.loop = new IoLoop("xdlink-host-" + local.toString().substring(0, 8));
        this.rendezvous = new RailRendezvous(loop, tcp.connectTimeout().toNanos());
        this.xdomain = new XdomainHost(loop, local, new ServiceRegistry(HostIdentity.linux(hostName),
                new SecureRandom().nextInt()));
        this.table = new SessionTable(local, loop, tcp, xdomain, () -> this.topology, this::event);
        this.addressFile = config.addressFile() == null ? null : new AddressFile(config.addressFile());
        this.discovery = config.peerAddresses().isEmpty() && config.controlPort() != 0
                ? new LinkDiscovery(local, loop, config.controlPort(), link -> table.session(link.peer()).isUp(),
                (link, from, session) -> table.dial(session, new InetSocketAddress(from.address(), 0), link,
                        link.peer()), this::event)
                : null;
    }

    /**
     * Opens the fabric of the host whose sysfs lies under {@code config.root()}: binds every usable link's
     * listeners and starts dialling peers. Returns at once; sessions come up in the background.
     *
     * @throws IOException when the tree names no local USB4 host (no host router UUID)
     */
    public static HostFabric open(HostFabricConfig config) throws IOException {
        HostTopology t = HostTopology.read(config.root());
        UUID local = t.localUuid().orElseThrow(() -> new IOException("no USB4 host under " + config.root()
                + ": no host router unique_id in sys/bus/thunderbolt (is the thunderbolt driver loaded? for no"
                + " hardware, set loopback=1)" + (t.problems().isEmpty() ? "" : "; " + String.join("; ", t.problems()))));
        HostFabric f = new HostFabric(config, local, t);
        try {
            f.onLoop(() -> {
                f.reconcile(t);
                f.table.tick();
                if (f.discovery != null) {
                    f.discovery.start();
                }
                return null;
            });
            // Another xdlink process holds this host's links (a bench, a collective library's other rank): say so
            // now. Left to run, this one had no link, and each connect waited out its timeout and then named only
            // the listener that did not answer.
            if (f.links.isEmpty() && f.portTaken) {
                throw new PortTakenException("no link of this host is free for xdlink: "
                        + String.join("; ", f.problems()));
            }
        } catch (IOException | RuntimeException e) {
            f.close();
            throw e;
        }
        return f;
    }

    private static String hostName(Path root) {
        try {
            String n = Files.readString(root.resolve("proc/sys/kernel/hostname")).strip();
            if (!n.isEmpty() && n.length() <= 64) {
                return n;
            }
        } catch (IOException | RuntimeException e) {
            // No hostname to publish: the peer sees a neutral name instead.
        }
        return "xdlink-host";
    }

    @Override
    public UUID localDomain() {
        return local;
    }

    /** Re-reads sysfs; a link that appeared gets its listeners, one that vanished loses them. */
    @Override
    public List<PeerInfo> peers() {
        HostTopology t = HostTopology.read(config.root(), local);
        if (!closed) {
            loop.execute(() -> reconcile(t));
        }
        return t.peers();
    }

    /** Lost while the session's heartbeat said so and no session is up again since. */
    @Override
    public Optional<String> peerLost(UUID peer) {
        PeerSession s = table.existing(peer);
        return s == null ? Optional.empty() : Optional.ofNullable(s.lost());
    }

    /** The links left out and why: from the last read of sysfs, then those whose listeners could not be bound. */
    public List<String> problems() {
        List<String> listeners = linkProblems;
        List<String> read = topology.problems();
        if (listeners.isEmpty()) {
            return read;
        }
        List<String> all = new ArrayList<>(read);
        all.addAll(listeners);
        return List.copyOf(all);
    }

    /** The host router PCI path of a peer's first link (the plugin's {@code pciPath}), as sysfs links it. */
    @Override
    public Optional<String> hostRouterPciPath(UUID peer) {
        return topology.linksTo(peer).stream().flatMap(l -> l.hostRouterPciPath().stream()).findFirst();
    }

    /** The session listeners' addresses, one per link address (with the port the kernel picked for port 0). */
    public List<InetSocketAddress> sessionAddresses() throws IOException {
        return onLoop(() -> controlListeners.values().stream().map(TcpListener::address).toList());
    }

    /** The loop everything runs on; tests hold it to make this host fall silent. */
    IoLoop loop() {
        return loop;
    }

    /** Recent session events (up, lost, refused), newest last, for diagnosis. */
    public List<String> recentEvents() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }

    private void event(String line) {
        synchronized (events) {
            if (events.size() == EVENTS) {
                events.removeFirst();
            }
            events.addLast(line);
        }
    }

    @Override
    public ControlChannel openControl(UUID peer) throws IOException {
        checkOpen();
        requireLinks(peer);
        long deadline = System.nanoTime() + tcp.connectTimeout().toNanos();
        PeerSession s = session(peer);
        awaitUp(s, deadline);
        return onLoop(s::openUser);
    }

    @Override
    public RailTransport openRail(UUID peer, String linkId, int index) throws IOException {
        checkOpen();
        if (index < 0 || index > 0xFFFF) {
            throw new IllegalArgumentException("rail index " + index + " is outside 0..65535");
        }
        LinkListener ll = links.get(linkId);
        if (ll == null || !ll.link().peer().equals(peer)) {
            throw new IOException("no usable link " + linkId + " to peer " + peer + "; usable links to it: "
                    + requireLinks(peer) + (problems().isEmpty() ? "" : "; " + String.join("; ", problems())));
        }
        long deadline = System.nanoTime() + tcp.connectTimeout().toNanos();
        PeerSession s = session(peer);
        PeerSession.Up up = awaitUp(s, deadline);
        RailInfo info = railInfo(ll.link(), index);
        TcpRailTransport rail;
        if (UuidWords.compareRaw(local, peer) < 0) {
            List<LinkPairing.Local> ours = links.values().stream()
                    .filter(l -> l.link().peer().equals(peer))
                    .map(l -> new LinkPairing.Local(l.link().id(), l.address(), neighbour(l.link().id()))).toList();
            TcpLinkEndpoint to = LinkPairing.endpointFor(new LinkPairing.Local(linkId, ll.address(), neighbour(linkId)),
                    ours, peer, up.endpoints());
            rail = RailConnector.connect(new InetSocketAddress(ll.address().address(), 0),
                    ll.address().interfaceName(), this::event, to.socketAddress(), new RailHello(local, peer, index),
                    info, remaining(deadline), loop);
        } else {
            rail = rendezvous.await(new RailRendezvous.Key(peer, linkId, index),
                    Math.max(1, deadline - System.nanoTime()));
        }
        s.track(rail, up);
        return rail;
    }

    /** The address the link's peer said hello from on this link, if discovery heard it. */
    private InetAddress neighbour(String linkId) {
        return discovery == null ? null : discovery.neighbour(linkId).orElse(null);
    }

    private TcpSettings remaining(long deadline) {
        long left = Math.max(TimeUnit.MILLISECONDS.toNanos(1), deadline - System.nanoTime());
        return tcp.withConnectTimeout(Duration.ofNanos(left));
    }

    private List<String> requireLinks(UUID peer) throws IOException {
        List<String> ids = links.values().stream().filter(l -> l.link().peer().equals(peer))
                .map(l -> l.link().id()).toList();
        if (ids.isEmpty()) {
            throw new IOException("peer " + peer + " has no usable link from this host"
                    + (problems().isEmpty() ? "" : "; " + String.join("; ", problems())));
        }
        return ids;
    }

    private static RailInfo railInfo(HostLink link, int index) {
        return new RailInfo(link.netInterface() + "/rail" + index, link.id(), link.state(), false);
    }

    private PeerSession session(UUID peer) {
        return table.session(peer);
    }

    private PeerSession.Up awaitUp(PeerSession s, long deadline) throws IOException {
        CompletableFuture<PeerSession.Up> f = s.up();
        try {
            return f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            IOException lost = s.lastLoss();
            throw new SocketTimeoutException("no session with peer " + s.peer() + " within "
                    + tcp.connectTimeout().toMillis() + " ms" + (lost == null ? "" : "; last lost: " + lost.getMessage())
                    + dialState());
        } catch (ExecutionException e) {
            throw new IOException(e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for a session with peer " + s.peer(), e);
        }
    }

    private String dialState() {
        List<String> recent = recentEvents();
        return recent.isEmpty() ? "" : "; recent: " + String.join("; ", recent.subList(Math.max(0, recent.size() - 3),
                recent.size()));
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException("the host fabric is closed");
        }
    }

    private <T> T onLoop(Callable<T> task) throws IOException {
        CompletableFuture<T> f = new CompletableFuture<>();
        loop.execute(() -> {
            try {
                f.complete(task.call());
            } catch (Exception | AssertionError e) {
                f.completeExceptionally(e);
            }
        });
        try {
            return f.get(tcp.connectTimeout().toMillis() + 10_000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IOException(e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("the host fabric's loop did not answer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    // ------------------------------------------------------------------------------------------ on the loop

    /** Brings listeners and the published rail listeners in line with a fresh read of sysfs. */
    private void reconcile(HostTopology t) {
        if (closed) {
            return;
        }
        topology = t;
        Map<String, LinkListener> next = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        boolean taken = false;
        for (HostLink link : t.links()) {
            LinkListener had = links.get(link.id());
            if (had != null && had.link().netInterface().equals(link.netInterface()) && had.rails().isOpen()) {
                next.put(link.id(), new LinkListener(link, had.address(), had.rails()));
                continue;
            }
            String where = config.interfaceOverride().getOrDefault(link.id(), link.netInterface());
            try {
                LocalAddress a = LocalAddress.resolve(where);
                // The session listener first: a link whose session port another process holds gets no rail
                // listener either (one opened before it was left open on every read of sysfs, a socket each time).
                if (!controlListeners.containsKey(a.address())) {
                    controlListeners.put(a.address(), bind("session", TcpParams.CONTROL_PORT.name(),
                            "processes sharing a host each need their own, and each names its peer's in "
                                    + TcpParams.PEER_ADDRESSES.name(),
                            new InetSocketAddress(a.address(), config.controlPort()),
                            at -> ControlConnection.listen(loop, at, tcp, () -> table.accepting(link))));
                }
                TcpListener rails = bind("rail", TcpParams.RAIL_PORT.name(), "0 lets each pick a free one",
                        new InetSocketAddress(a.address(), config.railPort()),
                        at -> RailListener.open(loop, at, a.interfaceName(), this::event, local, tcp,
                                hello -> answerRail(link.id(), hello)));
                next.put(link.id(), new LinkListener(link, a, rails));
                if (config.peerAddresses().isEmpty() && config.controlPort() != 0) {
                    Subnets.otherEnd(a.address(), a.prefixLength()).ifPresent(other -> table.dial(
                            new InetSocketAddress(other, config.controlPort()), new InetSocketAddress(a.address(), 0),
                            link, link.peer()));
                }
            } catch (IOException e) {
                taken |= e instanceof PortTakenException;
                String why = "link " + link.id() + " (" + where + "): no rails: " + e.getMessage();
                problems.add(why);
                event(why);
            }
        }
        linkProblems = List.copyOf(problems);
        portTaken = taken;
        for (LinkListener old : links.values()) {
            if (next.get(old.link().id()) == null || next.get(old.link().id()).rails() != old.rails()) {
                old.rails().close();
            }
        }
        controlListeners.entrySet().removeIf(e -> {
            boolean used = next.values().stream().anyMatch(l -> l.address().address().equals(e.getKey()));
            if (!used) {
                e.getValue().close();
            }
            return !used;
        });
        links = Map.copyOf(next);
        writeAddressFile();
        if (discovery != null) {
            discovery.links(next.values().stream().map(l -> new LinkDiscovery.Link(l.link(), l.address())).toList());
        }
        if (!explicitDialsAdded && !next.isEmpty()) {
            HostLink first = next.values().iterator().next().link();
            config.peerAddresses().forEach(a -> table.dial(a, null, first, null));
            explicitDialsAdded = true;
        }
        publish(next.values().stream().limit(TcpRailDirectory.MAX_LINKS)
                .map(l -> new TcpLinkEndpoint(l.link().id(), l.address().address(), l.rails().address().getPort(),
                        l.address().prefixLength()))
                .toList());
    }

    /** Opens a listener on {@code at}. */
    @FunctionalInterface
    private interface Binder {
        TcpListener open(InetSocketAddress at) throws IOException;
    }

    /**
     * Binds {@code what} listener at {@code at}; a port another process holds (an xdlink bench or a collective
     * library's rank already using this host's links) becomes a {@link PortTakenException} that says so, names the
     * parameter that sets the port and gives {@code cure}.
     */
    private static TcpListener bind(String what, String param, String cure, InetSocketAddress at, Binder binder)
            throws IOException {
        try {
            return binder.open(at);
        } catch (BindException e) {
            if (e.getMessage() == null || !e.getMessage().contains("in use")) {
                throw e; // not EADDRINUSE: an address that is not this host's, which the message names
            }
            throw new PortTakenException(what + " port " + at.getAddress().getHostAddress() + ":" + at.getPort()
                    + " (" + param + ") is in use, most likely by another xdlink process on this host; " + cure
                    + " (" + e.getMessage() + ")");
        }
    }

    /** Writes the session listeners' addresses to {@code tcp_address_file}, when set. */
    private void writeAddressFile() {
        if (addressFile == null) {
            return;
        }
        try {
            addressFile.write(controlListeners.values().stream().map(TcpListener::address).toList());
        } catch (IOException e) {
            event(e.getMessage());
        }
    }

    /** Publishes xdlink's service with these rail listeners; peers are told when it changes. */
    private void publish(List<TcpLinkEndpoint> endpoints) {
        PropertyDirectory dir = XdlinkService.directory(XdlinkService.RAIL_TCP | XdlinkService.MULTI_RAIL,
                TcpRailDirectory.entries(endpoints));
        if (dir.equals(published)) {
            return;
        }
        if (published != null) {
            xdomain.services().unregister(XdlinkService.KEY, published);
        }
        xdomain.services().register(XdlinkService.KEY, dir);
        published = dir;
    }

    private RailAcceptor.Answer answerRail(String linkId, RailHello hello) {
        LinkListener ll = links.get(linkId);
        if (closed || ll == null || !ll.link().peer().equals(hello.from())) {
            return new RailAcceptor.Refuse(closed ? RailHello.Status.CLOSING : RailHello.Status.UNKNOWN_PEER);
        }
        return new RailAcceptor.Take(railInfo(ll.link(), hello.index()),
                rail -> rendezvous.offer(new RailRendezvous.Key(hello.from(), linkId, hello.index()), rail));
    }

    @Override
    public long stripeMinBytes() {
        return TCP_STRIPE_MIN_BYTES;
    }

    @Override
    public int frameBytes() {
        return TCP_FRAME_BYTES;
    }

    @Override
    public int maxFrameBytes() {
        return FrameLayout.MAX_STREAM_FRAME_BYTES;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            onLoop(() -> {
                table.close("the host fabric is closed");
                if (discovery != null) {
                    discovery.close();
                }
                links.values().forEach(l -> l.rails().close());
                controlListeners.values().forEach(TcpListener::close);
                return null;
            });
        } catch (IOException | RuntimeException e) {
            // The loop is going away regardless; closing it below releases whatever is left.
        }
        rendezvous.closeAll("the host fabric is closed");
        loop.close();
    }

    @Override
    public String toString() {
        return "HostFabric[" + local + ", " + links.size() + " links, root " + config.root() + "]";
    }
}
