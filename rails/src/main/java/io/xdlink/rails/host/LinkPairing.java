package io.xdlink.rails.host;

import io.xdlink.rails.tcp.TcpLinkEndpoint;

import java.io.IOException;
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
    /** One of this host's links to the peer and the address its rails leave from. */
    record Local(String linkId, LocalAddress address) {
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
        List<TcpLinkEndpoint> same = theirs.stream().filter(e -> sharesSubnet(a, e))
                .sorted(Comparator.comparing(TcpLinkEndpoint::linkId)).toList();
        if (same.size() == 1) {
            return same.getFirst();
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
        return same.get(i);
    }

    /** Both addresses lie in each other's subnet: the two ends of one cable. */
    private static boolean sharesSubnet(LocalAddress a, TcpLinkEndpoint e) {
        return e.sameSubnet(a.address())
                && new TcpLinkEndpoint("x", a.address(), 1, a.prefixLength()).sameSubnet(e.address());
    }
}
