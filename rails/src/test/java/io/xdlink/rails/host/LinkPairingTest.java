package io.xdlink.rails.host;

import io.xdlink.rails.tcp.TcpLinkEndpoint;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LinkPairingTest {
    static final UUID PEER = UUID.randomUUID();

    private static LinkPairing.Local local(String id, String address, int prefix) {
        return new LinkPairing.Local(id, new LocalAddress("thunderbolt" + id.charAt(2), InetAddress.ofLiteral(address), prefix));
    }

    private static TcpLinkEndpoint theirs(String id, String address, int prefix) {
        return new TcpLinkEndpoint(id, InetAddress.ofLiteral(address), 5000, prefix);
    }

    @Test
    void eachCableIsFoundByItsSubnetWhateverEachSideCallsIt() throws IOException {
        List<LinkPairing.Local> ours = List.of(local("0-1", "10.0.0.1", 30), local("0-3", "10.0.1.1", 30));
        List<TcpLinkEndpoint> published = List.of(theirs("0-5", "10.0.1.2", 30), theirs("0-7", "10.0.0.2", 30));
        assertThat(LinkPairing.endpointFor(ours.get(0), ours, PEER, published).linkId()).isEqualTo("0-7");
        assertThat(LinkPairing.endpointFor(ours.get(1), ours, PEER, published).linkId()).isEqualTo("0-5");
    }

    @Test
    void linksOnOneSubnetPairInLinkOrder() throws IOException {
        List<LinkPairing.Local> ours = List.of(local("0-3", "127.0.0.1", 8), local("0-1", "127.0.0.1", 8));
        List<TcpLinkEndpoint> published = List.of(theirs("0-9", "127.0.0.1", 8), theirs("0-2", "127.0.0.1", 8));
        assertThat(LinkPairing.endpointFor(ours.get(1), ours, PEER, published).linkId()).isEqualTo("0-2");
        assertThat(LinkPairing.endpointFor(ours.get(0), ours, PEER, published).linkId()).isEqualTo("0-9");
    }

    @Test
    void aLinkWithNoListenerInItsSubnetOrMoreLinksThanListenersIsAClearError() {
        List<LinkPairing.Local> ours = List.of(local("0-1", "10.0.0.1", 30));
        assertThatThrownBy(() -> LinkPairing.endpointFor(ours.getFirst(), ours, PEER,
                List.of(theirs("0-1", "10.0.9.2", 30)))).isInstanceOf(IOException.class)
                .hasMessageContaining("publishes no rail listener in the subnet of link 0-1 (thunderbolt1 10.0.0.1/30)");
        List<LinkPairing.Local> three = List.of(local("0-1", "127.0.0.1", 8), local("0-3", "127.0.0.1", 8),
                local("0-5", "127.0.0.1", 8));
        assertThatThrownBy(() -> LinkPairing.endpointFor(three.get(2), three, PEER,
                List.of(theirs("0-1", "127.0.0.1", 8), theirs("0-2", "127.0.0.1", 8))))
                .hasMessageStartingWith("cannot pair link 0-5");
    }

    @Test
    void theAddressThePeerSaidHelloFromPicksTheCableWhereSubnetsCannot() throws IOException {
        // NetworkManager's link-local IPv4: every cable in 169.254/16, and the links listed in the other order
        // than the peer's, so pairing by order would cross the cables.
        LinkPairing.Local one = new LinkPairing.Local("0-1", new LocalAddress("thunderbolt0",
                InetAddress.ofLiteral("169.254.0.2"), 16), InetAddress.ofLiteral("169.254.7.1"));
        LinkPairing.Local two = new LinkPairing.Local("0-3", new LocalAddress("thunderbolt1",
                InetAddress.ofLiteral("169.254.1.2"), 16), InetAddress.ofLiteral("169.254.3.1"));
        List<TcpLinkEndpoint> published = List.of(theirs("0-1", "169.254.3.1", 16), theirs("0-3", "169.254.7.1", 16));
        assertThat(LinkPairing.endpointFor(one, List.of(one, two), PEER, published).linkId()).isEqualTo("0-3");
        assertThat(LinkPairing.endpointFor(two, List.of(one, two), PEER, published).linkId()).isEqualTo("0-1");
    }

    @Test
    void aLinkLocalIpv6ListenerIsDialledThroughTheLocalLinksInterface() throws IOException {
        java.net.Inet6Address mine = java.net.Inet6Address.getByAddress(null,
                InetAddress.ofLiteral("fe80::1").getAddress(), 7);
        LinkPairing.Local l = new LinkPairing.Local("0-1", new LocalAddress("thunderbolt0", mine, 64),
                InetAddress.ofLiteral("fe80::2"));
        TcpLinkEndpoint e = LinkPairing.endpointFor(l, List.of(l), PEER, List.of(theirs("0-9", "fe80::2", 64)));
        assertThat(((java.net.Inet6Address) e.address()).getScopeId()).isEqualTo(7);
        assertThat(e.address().getAddress()).isEqualTo(InetAddress.ofLiteral("fe80::2").getAddress());
        assertThat(e.port()).isEqualTo(5000);
    }

    @Test
    void aLinkLocalListenerWithoutALocalScopeIsRefusedByName() {
        LinkPairing.Local l = new LinkPairing.Local("0-1", new LocalAddress("thunderbolt0",
                InetAddress.ofLiteral("fe80::1"), 64), null);
        assertThatThrownBy(() -> LinkPairing.endpointFor(l, List.of(l), PEER, List.of(theirs("0-9", "fe80::2", 64))))
                .isInstanceOf(IOException.class).hasMessageContaining("no interface scope");
    }
}
