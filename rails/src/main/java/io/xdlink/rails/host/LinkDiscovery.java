package io.xdlink.rails.host;

import io.xdlink.rails.tcp.IoLoop;
import io.xdlink.rails.tcp.LinkBeacon;
import io.xdlink.rails.tcp.LinkHello;
import io.xdlink.rails.tcp.Subnets;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Finds the far end of each link whatever its addressing: every link says {@link LinkHello} on its own interface,
 * and a hello heard from the link's peer (as sysfs names it) on the link it arrived on is a session listener to
 * dial. A hello arrived on a link when its source is IPv6 link-local with that link's interface as scope (the
 * kernel says which interface it came in on), or when its source lies in the link's IPv4 subnet; a hello from a host
 * that is not that link's peer, from this host itself, or from no link at all is ignored. The address a hello came
 * from on exactly one link is that link's neighbour, which {@link LinkPairing} uses to tell cables apart where their
 * subnets cannot (169.254/16 or fe80::/64 on every cable). Confined to the loop, but for {@link #neighbour}.
 */
final class LinkDiscovery implements LinkBeacon.Heard, AutoCloseable {
    /** Hello period while a link's peer has no session or its neighbour is not known yet. */
    static final long EAGER_NANOS = 200_000_000L;
    /** Hello period once every link is settled: enough for a peer that restarts to find this host again. */
    static final long CALM_NANOS = 2_000_000_000L;

    /** Where a link's peer listens for sessions, found by a hello. */
    interface Found {
        void found(HostLink link, LocalAddress from, InetSocketAddress session);
    }

    /** A link and its local address, as the fabric has them now. */
    record Link(HostLink link, LocalAddress address) {
    }

    private final UUID local;
    private final IoLoop loop;
    private final int port;
    private final Found found;
    private final Consumer<String> events;
    private final Predicate<HostLink> settledSession;
    /** Written on the loop, read by rail openers on any thread. */
    private final Map<String, InetAddress> neighbours = new ConcurrentHashMap<>();
    private final Set<String> noted = new HashSet<>();
    private List<Link> links = List.of();
    private LinkBeacon beacon;
    private long refused;
    private boolean closed;

    /**
     * @param port           the UDP port of hellos (the session listeners' TCP port number)
     * @param settledSession whether the peer behind a link has a session up
     */
    LinkDiscovery(UUID local, IoLoop loop, int port, Predicate<HostLink> settledSession, Found found,
                  Consumer<String> events) {
        this.local = local;
        this.loop = loop;
        this.port = port;
        this.settledSession = settledSession;
        this.found = found;
        this.events = events;
    }

    /** Opens the hello socket and starts saying hello; on the loop. */
    void start() {
        try {
            beacon = LinkBeacon.open(loop, port, this);
        } catch (IOException e) {
            events.accept("no link discovery: " + e.getMessage() + "; only /30 and /31 links and tcp_peer_address"
                    + " find peers");
            return;
        }
        tick();
    }

    /** The fabric's links now. */
    void links(List<Link> now) {
        links = List.copyOf(now);
        Set<String> ids = new HashSet<>();
        Set<InetAddress> addresses = new HashSet<>();
        Set<String> interfaces = new HashSet<>();
        for (Link l : now) {
            ids.add(l.link().id());
            addresses.add(l.address().address());
            interfaces.add(l.address().interfaceName());
        }
        neighbours.keySet().retainAll(ids);
        if (beacon != null) {
            beacon.retain(addresses, interfaces);
        }
    }

    /** The address the link's peer said hello from on this link alone, if it did. Any thread. */
    Optional<InetAddress> neighbour(String linkId) {
        return Optional.ofNullable(neighbours.get(linkId));
    }

    /** Datagrams on the hello port that were not hellos. */
    long refused() {
        return refused;
    }

    private void tick() {
        if (closed || beacon == null) {
            return;
        }
        boolean eager = false;
        for (Link l : links) {
            eager |= !neighbours.containsKey(l.link().id()) || !settledSession.test(l.link());
            try {
                beacon.send(l.address().address(), l.address().interfaceName(), new LinkHello(local, port));
                noted.remove("send " + l.link().id());
            } catch (IOException e) {
                note("send " + l.link().id(), "link " + l.link().id() + ": " + e.getMessage());
            }
        }
        loop.schedule(eager ? EAGER_NANOS : CALM_NANOS, this::tick);
    }

    @Override
    public void heard(InetSocketAddress from, LinkHello hello) {
        if (closed || hello.host().equals(local)) {
            return;
        }
        InetAddress source = from.getAddress();
        List<Link> on = arrivedOn(source, links);
        List<Link> theirs = on.stream().filter(l -> l.link().peer().equals(hello.host())).toList();
        if (theirs.isEmpty()) {
            note("stranger " + hello.host() + " " + source.getHostAddress(), "ignored a hello from host "
                    + hello.host() + " at " + source.getHostAddress() + ": "
                    + (on.isEmpty() ? "it came from no link's subnet or interface" : "it is not the peer of link "
                    + on.getFirst().link().id() + " in sysfs"));
            return;
        }
        if (theirs.size() == 1) {
            neighbours.put(theirs.getFirst().link().id(), source);
        }
        for (Link l : theirs) {
            found.found(l.link(), l.address(), new InetSocketAddress(source, hello.sessionPort()));
        }
    }

    @Override
    public void refused(InetSocketAddress from, String why) {
        refused++;
        note("refused " + from.getAddress().getHostAddress(), "ignored a datagram from " + from + " on the hello port: "
                + why);
    }

    /**
     * The links a datagram from {@code source} arrived on: for an IPv6 link-local source, the link whose interface
     * its scope names; otherwise every link whose subnet holds it (more than one only where cables share a subnet).
     */
    static List<Link> arrivedOn(InetAddress source, List<Link> links) {
        List<Link> on = new ArrayList<>();
        for (Link l : links) {
            InetAddress mine = l.address().address();
            if (Arrays.equals(mine.getAddress(), source.getAddress())) {
                continue; // one of this host's own addresses
            }
            if (source instanceof Inet6Address s6 && s6.isLinkLocalAddress()) {
                if (mine instanceof Inet6Address && mine.isLinkLocalAddress()
                        && s6.getScopeId() != 0 && s6.getScopeId() == interfaceIndex(l.address().interfaceName())) {
                    on.add(l);
                }
                continue;
            }
            if (Subnets.contains(mine, l.address().prefixLength(), source)) {
                on.add(l);
            }
        }
        return on;
    }

    private static int interfaceIndex(String name) {
        try {
            NetworkInterface ni = NetworkInterface.getByName(name);
            return ni == null ? -1 : ni.getIndex();
        } catch (SocketException e) {
            return -1;
        }
    }

    /** An event once per kind until it stops happening: a hello every 200 ms must not flood the log. */
    private void note(String key, String line) {
        if (noted.size() >= 256) {
            noted.clear(); // a sender making up hosts must not grow this without bound
        }
        if (noted.add(key)) {
            events.accept(line);
        }
    }

    @Override
    public void close() {
        closed = true;
        if (beacon != null) {
            beacon.close();
        }
    }
}
