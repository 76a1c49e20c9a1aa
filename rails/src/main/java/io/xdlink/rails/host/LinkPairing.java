package io.xdlink.rails.host;

import io.xdlink.rails.tcp.TcpLinkEndpoint;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/**
 * Which of the peer's rail listeners is on the same cable as one of this host's links. Each host names its links
 * its own way ({@code 0-1} here may be {@code 0-3} there), but the two ends of a cable share an IP subnet and two
 * cables do not, so the listener whose subnet holds the link's address is the one. When several do (every link on
 * one subnet, as on a loopback test bed), links and listeners pair up in link-id order on each side.
 */
final class LinkPairing {
    /**
     * One of this host's links to the peer and the address its rails leave from.
     *
     * @param neighbour the address the peer said hello from on this link alone, or null when not known
     */
    record Local(String linkId, LocalAddress address, InetAddress neighbour) {
        Local(String linkId, LocalAddress address) {
            this(linkId, address, null);
        }
    }

    private LinkPairing() {
    }

    /**
     * @param mine   the link a rail is being opened on
     * @param ours   every link of this host to the same peer, {@code mine} among them
     * @param theirs what the peer published
     * @throws IOException naming the link and what the peer published when no listener, or no unambiguous one, fits
     */
    static TcpLinkEndpoint endpointFor(Local mine, List<Local> ours, UUID peer, List<TcpLinkEndpoint> theirs)
            throws IOException {
        LocalAddress a = mine.address();
        if (mine.neighbour() != null) {
            // The peer spoke on this very cable from this address: its listener there is the one, whatever the
            // subnets say.
            for (TcpLinkEndpoint e : theirs) {
                if (Arrays.equals(e.address().getAddress(), mine.neighbour().getAddress())) {
                    return scoped(e, a);
                }
            }
        }
        List<TcpLinkEndpoint> same = theirs.stream().filter(e -> sharesSubnet(a, e))
                .sorted(Comparator.comparing(TcpLinkEndpoint::linkId)).toList();
        if (same.size() == 1) {
            return scoped(same.getFirst(), a);
        }
        if (same.isEmpty()) {
            throw new IOException("peer " + peer + " publishes no rail listener in the subnet of link " + mine.linkId()
                    + " (" + a + "); it publishes " + theirs);
        }
        List<String> alike = ours.stream().filter(l -> sharesSubnet(l.address(), same.getFirst()))
                .map(Local::linkId).sorted().toList();
        int i = alike.indexOf(mine.linkId());
        if (i < 0 || i >= same.size()) {
            throw new IOException("cannot pair link " + mine.linkId() + " with one of the peer's links " + same);
        }
        return scoped(same.get(i), a);
    }

    /**
     * The endpoint with the local link's interface as scope when it is IPv6 link-local: the peer publishes the bare
     * address (a scope is a local interface number, meaningless on the other host), and a link-local address
     * without one cannot be dialled.
     */
    static TcpLinkEndpoint scoped(TcpLinkEndpoint e, LocalAddress local) throws IOException {
        if (!(e.address() instanceof Inet6Address peer) || !peer.isLinkLocalAddress()) {
            return e;
        }
        if (!(local.address() instanceof Inet6Address mine) || mine.getScopeId() == 0) {
            throw new IOException("the peer's listener " + e.address().getHostAddress() + " is IPv6 link-local but"
                    + " link address " + local + " has no interface scope to reach it through");
        }
        return new TcpLinkEndpoint(e.linkId(), Inet6Address.getByAddress(null, peer.getAddress(), mine.getScopeId()),
                e.port(), e.prefixLength());
    }

    /** Both addresses lie in each other's subnet: the two ends of one cable. */
    private static boolean sharesSubnet(LocalAddress a, TcpLinkEndpoint e) {
        return e.sameSubnet(a.address())
                && new TcpLinkEndpoint("x", a.address(), 1, a.prefixLength()).sameSubnet(e.address());
    }
}
