package io.xdlink.rails.host;

import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class LinkDiscoveryTest {
    private static final UUID PEER = UUID.fromString("1a2b3c4d-0000-4000-8000-00000000000b");

    private static LinkDiscovery.Link link(String id, String iface, InetAddress a, int prefix) {
        HostLink l = new HostLink(id, 1, PEER, "peer", iface, LinkState.of(Generation.GEN3, 1), Optional.empty());
        return new LinkDiscovery.Link(l, new LocalAddress(iface, a, prefix));
    }

    @Test
    void anIpv4HelloArrivedOnTheLinkWhoseSubnetHoldsItsSource() {
        List<LinkDiscovery.Link> links = List.of(link("0-1", "tb0", InetAddress.ofLiteral("10.78.0.1"), 24),
                link("0-3", "tb1", InetAddress.ofLiteral("10.78.1.1"), 24));
        assertThat(LinkDiscovery.arrivedOn(InetAddress.ofLiteral("10.78.1.2"), links))
                .extracting(l -> l.link().id()).containsExactly("0-3");
        assertThat(LinkDiscovery.arrivedOn(InetAddress.ofLiteral("192.168.1.2"), links)).isEmpty();
    }

    @Test
    void cablesSharingASubnetAreAllCandidatesAndOwnAddressesNone() {
        List<LinkDiscovery.Link> links = List.of(link("0-1", "tb0", InetAddress.ofLiteral("169.254.0.1"), 16),
                link("0-3", "tb1", InetAddress.ofLiteral("169.254.1.1"), 16));
        assertThat(LinkDiscovery.arrivedOn(InetAddress.ofLiteral("169.254.0.2"), links)).hasSize(2);
        // This host's own broadcast, looped back: from no link.
        assertThat(LinkDiscovery.arrivedOn(InetAddress.ofLiteral("169.254.1.1"), links))
                .extracting(l -> l.link().id()).containsExactly("0-1");
    }

    @Test
    void anIpv6LinkLocalHelloArrivedOnlyOnTheInterfaceItsScopeNames() throws Exception {
        // The loopback interface stands in for a link here: its index is real on every Linux host.
        java.net.NetworkInterface lo = java.net.NetworkInterface.getByName("lo");
        InetAddress mine = Inet6Address.getByAddress(null, InetAddress.ofLiteral("fe80::1").getAddress(),
                lo.getIndex());
        List<LinkDiscovery.Link> links = List.of(link("0-1", "lo", mine, 64));
        InetAddress onLo = Inet6Address.getByAddress(null, InetAddress.ofLiteral("fe80::2").getAddress(), lo.getIndex());
        InetAddress elsewhere = Inet6Address.getByAddress(null, InetAddress.ofLiteral("fe80::2").getAddress(),
                lo.getIndex() + 1000);
        InetAddress unscoped = InetAddress.ofLiteral("fe80::2");
        assertThat(LinkDiscovery.arrivedOn(onLo, links)).hasSize(1);
        assertThat(LinkDiscovery.arrivedOn(elsewhere, links)).isEmpty();
        assertThat(LinkDiscovery.arrivedOn(unscoped, links)).isEmpty();
    }
}
