package io.xdlink.rails.tcp;

import io.xdlink.xdomain.property.Property;
import io.xdlink.xdomain.property.PropertyBlock;
import io.xdlink.xdomain.property.PropertyDirectory;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TcpRailDirectoryTest {

    private static TcpLinkEndpoint endpoint(String link, String address, int port, int prefix) throws Exception {
        return new TcpLinkEndpoint(link, InetAddress.ofLiteral(address), port, prefix);
    }

    @Test
    void endpointsSurviveABlockRoundTrip() throws Exception {
        List<TcpLinkEndpoint> eps = List.of(endpoint("0-1", "10.0.0.1", 40001, 30),
                endpoint("0-3", "fd00::1", 65535, 64), endpoint("1-1", "10.0.1.1", 1, 31));
        PropertyDirectory service = new PropertyDirectory(UUID.randomUUID(), TcpRailDirectory.entries(eps));
        PropertyDirectory root = PropertyDirectory.root(List.of(new Property.Directory("xdlink", service)));
        PropertyDirectory parsed = PropertyBlock.parse(PropertyBlock.format(root)).directory("xdlink").orElseThrow();
        assertThat(TcpRailDirectory.read(parsed)).isEqualTo(eps);
    }

    private static PropertyDirectory one(List<Property> entries) {
        return new PropertyDirectory(UUID.randomUUID(), List.of(new Property.Directory("tcp2",
                new PropertyDirectory(TcpRailDirectory.LINK_DIRECTORY, entries))));
    }

    private static List<Property> valid() {
        return new ArrayList<>(List.of(new Property.Data("addr", new byte[] {10, 0, 0, 2}),
                new Property.Immediate("port", 18521), new Property.Immediate("prefix", 30),
                Property.Text.of("link", "0-1")));
    }

    private static List<Property> replace(String key, Property with) {
        List<Property> l = valid();
        l.removeIf(p -> p.key().equals(key));
        if (with != null) {
            l.add(with);
        }
        return l;
    }

    @Test
    void malformedEntriesAreRefusedNamingEntryAndField() {
        assertThatThrownBy(() -> TcpRailDirectory.read(one(replace("addr", null))))
                .isInstanceOf(RailDirectoryException.class).hasMessage("tcp2 addr: missing");
        assertThatThrownBy(() -> TcpRailDirectory.read(one(replace("addr", new Property.Data("addr", new byte[8])))))
                .hasMessage("tcp2 addr: 8 bytes; an address is 4 or 16");
        assertThatThrownBy(() -> TcpRailDirectory.read(one(replace("port", new Property.Immediate("port", 0)))))
                .hasMessage("tcp2 port: 0 is outside 1..65535");
        assertThatThrownBy(() -> TcpRailDirectory.read(one(replace("port", new Property.Immediate("port", -1)))))
                .hasMessage("tcp2 port: 4294967295 is outside 1..65535");
        assertThatThrownBy(() -> TcpRailDirectory.read(one(replace("prefix", new Property.Immediate("prefix", 33)))))
                .hasMessage("tcp2 prefix: 33 is outside 0..32");
        assertThatThrownBy(() -> TcpRailDirectory.read(one(replace("link", Property.Text.of("link", "a b\u0001")))))
                .hasMessage("tcp2 link: 'a b?' is not a link id");
        assertThatThrownBy(() -> TcpRailDirectory.read(one(replace("link", null)))).hasMessage("tcp2 link: missing");
        PropertyDirectory wrongUuid = new PropertyDirectory(UUID.randomUUID(), List.of(new Property.Directory("tcp0",
                new PropertyDirectory(UUID.randomUUID(), valid()))));
        assertThatThrownBy(() -> TcpRailDirectory.read(wrongUuid)).hasMessageStartingWith("tcp0: directory UUID");
    }

    @Test
    void entriesWithOtherKeysAreNotRails() throws Exception {
        PropertyDirectory service = new PropertyDirectory(UUID.randomUUID(), List.of(
                new Property.Immediate("prtcid", 1), new Property.Directory("tcp8",
                        new PropertyDirectory(UUID.randomUUID(), List.of()))));
        assertThat(TcpRailDirectory.read(service)).isEmpty();
    }

    @Test
    void moreLinksThanABlockHoldsOrUnpublishableIdsAreRefusedWhenPublishing() throws Exception {
        List<TcpLinkEndpoint> nine = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            nine.add(endpoint("0-" + i, "10.0.0.1", 1000 + i, 24));
        }
        assertThatThrownBy(() -> TcpRailDirectory.entries(nine)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TcpRailDirectory.entries(List.of(endpoint("0 1", "10.0.0.1", 1, 24))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void subnetsTellCablesApartAndFindTheOtherEndOfAPointToPointLink() throws Exception {
        TcpLinkEndpoint a = endpoint("0-1", "10.0.0.1", 1, 30);
        assertThat(a.sameSubnet(InetAddress.ofLiteral("10.0.0.2"))).isTrue();
        assertThat(a.sameSubnet(InetAddress.ofLiteral("10.0.0.5"))).isFalse();
        assertThat(a.sameSubnet(InetAddress.ofLiteral("fd00::1"))).isFalse();
        assertThat(endpoint("x", "10.1.2.3", 1, 20).sameSubnet(InetAddress.ofLiteral("10.1.15.255"))).isTrue();
        assertThat(endpoint("x", "10.1.2.3", 1, 20).sameSubnet(InetAddress.ofLiteral("10.1.16.0"))).isFalse();
        assertThat(Subnets.otherEnd(InetAddress.ofLiteral("10.0.0.1"), 30)).contains(InetAddress.ofLiteral("10.0.0.2"));
        assertThat(Subnets.otherEnd(InetAddress.ofLiteral("10.0.0.6"), 30)).contains(InetAddress.ofLiteral("10.0.0.5"));
        assertThat(Subnets.otherEnd(InetAddress.ofLiteral("10.0.0.4"), 30)).isEmpty();
        assertThat(Subnets.otherEnd(InetAddress.ofLiteral("10.0.0.4"), 31)).contains(InetAddress.ofLiteral("10.0.0.5"));
        assertThat(Subnets.otherEnd(InetAddress.ofLiteral("10.0.0.4"), 24)).isEmpty();
        assertThat(Subnets.otherEnd(InetAddress.ofLiteral("fd00::1"), 127)).isEmpty();
    }

    @Test
    void theNetworkOfAnAddressKeepsItsPrefixBitsAndRefusesAPrefixWiderThanTheAddress() {
        assertThat(Subnets.network(InetAddress.ofLiteral("169.254.1.2"), 16))
                .isEqualTo(InetAddress.ofLiteral("169.254.0.0"));
        assertThat(Subnets.network(InetAddress.ofLiteral("10.1.15.255"), 20))
                .isEqualTo(InetAddress.ofLiteral("10.1.0.0"));
        assertThat(Subnets.network(InetAddress.ofLiteral("10.0.0.6"), 32)).isEqualTo(InetAddress.ofLiteral("10.0.0.6"));
        assertThat(Subnets.network(InetAddress.ofLiteral("10.0.0.6"), 0)).isEqualTo(InetAddress.ofLiteral("0.0.0.0"));
        assertThat(Subnets.network(InetAddress.ofLiteral("fd00::3"), 64)).isEqualTo(InetAddress.ofLiteral("fd00::"));
        assertThatThrownBy(() -> Subnets.network(InetAddress.ofLiteral("10.0.0.6"), 33))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("/33");
        assertThatThrownBy(() -> Subnets.network(InetAddress.ofLiteral("10.0.0.6"), -1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
