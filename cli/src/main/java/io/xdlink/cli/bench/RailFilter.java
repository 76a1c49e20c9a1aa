package io.xdlink.cli.bench;

import io.xdlink.cli.UsageException;
import io.xdlink.rails.Fabric;
import io.xdlink.rails.LinkInfo;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.xdomain.ControlChannel;
import io.xdlink.xdomain.sysfs.Text;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A fabric seen through {@code --rail}: only the links that leave from the named interfaces (or from the interfaces
 * holding the named addresses, or with the named link ids) exist, so the device opens rails on those alone.
 */
final class RailFilter implements Fabric {
    private final Fabric fabric;
    private final List<String> wanted;
    private final Set<String> matched = new HashSet<>();

    private RailFilter(Fabric fabric, List<String> wanted) {
        this.fabric = fabric;
        this.wanted = List.copyOf(wanted);
    }

    /** The fabric itself when no rail was named, else the filtered view. */
    static Fabric apply(Fabric fabric, List<String> rails) {
        return rails.isEmpty() ? fabric : new RailFilter(fabric, rails);
    }

    /**
     * Refuses, before anything waits for a peer, a {@code --rail} value that names none of the rails the fabric
     * has: no link's local interface, link id, or an address of a link's interface.
     *
     * @param peers the unfiltered fabric's peers
     * @throws UsageException naming the values and listing the rails that exist
     */
    static void requireKnown(List<PeerInfo> peers, List<String> wanted) {
        List<String> unknown = new ArrayList<>();
        for (String w : wanted) {
            boolean known = peers.stream().flatMap(p -> p.links().stream()).anyMatch(l -> w.equals(l.localPort())
                    || w.equals(l.id()) || holdsAddress(l.localPort(), w));
            if (!known) {
                unknown.add(Text.quote(w));
            }
        }
        if (unknown.isEmpty()) {
            return;
        }
        List<String> rails = new ArrayList<>();
        for (PeerInfo p : peers) {
            for (LinkInfo l : p.links()) {
                rails.add(Text.printable(l.localPort()) + " (link " + Text.printable(l.id()) + " to "
                        + Text.printable(p.name()) + ")");
            }
        }
        throw new UsageException("--rail " + String.join(", ", unknown) + (unknown.size() == 1 ? " names" : " name")
                + " no rail; " + (rails.isEmpty() ? "this host has no rails: no USB4 peer is connected"
                : "the rails are: " + String.join(", ", rails)));
    }

    /** The {@code --rail} values that matched no link of any peer so far. */
    static List<String> unmatched(Fabric fabric) {
        if (!(fabric instanceof RailFilter f)) {
            return List.of();
        }
        f.peers();
        List<String> out = new ArrayList<>();
        synchronized (f.matched) {
            for (String w : f.wanted) {
                if (!f.matched.contains(w)) {
                    out.add(w);
                }
            }
        }
        return out;
    }

    @Override
    public UUID localDomain() {
        return fabric.localDomain();
    }

    @Override
    public List<PeerInfo> peers() {
        List<PeerInfo> out = new ArrayList<>();
        for (PeerInfo p : fabric.peers()) {
            List<LinkInfo> links = p.links().stream().filter(this::wanted).toList();
            if (!links.isEmpty()) {
                out.add(new PeerInfo(p.domain(), p.name(), links));
            }
        }
        return out;
    }

    private boolean wanted(LinkInfo link) {
        for (String w : wanted) {
            if (w.equals(link.localPort()) || w.equals(link.id()) || holdsAddress(link.localPort(), w)) {
                synchronized (matched) {
                    matched.add(w);
                }
                return true;
            }
        }
        return false;
    }

    /** True when {@code value} is an address of interface {@code ifname}. */
    private static boolean holdsAddress(String ifname, String value) {
        if (!value.isEmpty() && !Character.isDigit(value.charAt(0)) && !value.contains(":")) {
            return false;
        }
        try {
            NetworkInterface ni = NetworkInterface.getByInetAddress(InetAddress.getByName(value));
            return ni != null && ni.getName().equals(ifname);
        } catch (UnknownHostException | SocketException e) {
            return false;
        }
    }

    @Override
    public ControlChannel openControl(UUID peer) throws IOException {
        return fabric.openControl(peer);
    }

    @Override
    public RailTransport openRail(UUID peer, String linkId, int index) throws IOException {
        return fabric.openRail(peer, linkId, index);
    }

    /**
     * The far end keeps the same cables: the links to {@code peer} chosen here, named by their ids, which both ends
     * share (an interface name like {@code port2} is this end's; the simulated peer's end of that cable is its own
     * {@code port0}).
     */
    @Override
    public Optional<Fabric> far(UUID peer) {
        List<String> ids = new ArrayList<>();
        for (PeerInfo p : peers()) {
            if (p.domain().equals(peer)) {
                p.links().forEach(l -> ids.add(l.id()));
            }
        }
        return fabric.far(peer).map(f -> new RailFilter(f, ids));
    }

    @Override
    public Optional<String> hostRouterPciPath(UUID peer) {
        return fabric.hostRouterPciPath(peer);
    }

    @Override
    public Optional<String> peerLost(UUID peer) {
        return fabric.peerLost(peer);
    }

    @Override
    public long stripeMinBytes() {
        return fabric.stripeMinBytes();
    }

    @Override
    public int frameBytes() {
        return fabric.frameBytes();
    }

    @Override
    public int maxFrameBytes() {
        return fabric.maxFrameBytes();
    }

    @Override
    public void close() {
        fabric.close();
    }
}
