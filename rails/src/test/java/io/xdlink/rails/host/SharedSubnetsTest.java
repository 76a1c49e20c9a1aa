package io.xdlink.rails.host;

import io.xdlink.rails.LinkInfo;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SharedSubnetsTest {
    private static SharedSubnets.Address at(String link, String nic, String address, int prefix) {
        return new SharedSubnets.Address(link, nic, InetAddress.ofLiteral(address), prefix);
    }

    @Test
    void twoLinkLocalCablesAreOneWarningNamingBothCablesAndTheSubnet() {
        List<String> w = SharedSubnets.warnings(List.of(
                at("0-1", "thunderbolt0", "169.254.0.2", 16),
                at("0-1", "thunderbolt0", "fe80::1", 64),
                at("0-3", "thunderbolt1", "169.254.1.2", 16),
                at("0-3", "thunderbolt1", "fe80::2", 64)));
        assertThat(w).singleElement().asString()
                .startsWith("cables 0-1 (thunderbolt0), 0-3 (thunderbolt1) have addresses in one subnet, "
                        + "169.254.0.0/16: ")
                .contains("their rails share one cable")
                .endsWith("(docs/hosts.md, \"Two real hosts\")");
    }

    @Test
    void aSubnetPerCableAndIpv6LinkLocalAddressesAreFine() {
        assertThat(SharedSubnets.warnings(List.of(
                at("0-1", "thunderbolt0", "10.77.0.2", 30),
                at("0-3", "thunderbolt1", "10.77.1.2", 30),
                at("0-1", "thunderbolt0", "fe80::1", 64),
                at("0-3", "thunderbolt1", "fe80::2", 64)))).isEmpty();
        assertThat(SharedSubnets.warnings(List.of(
                at("0-1", "thunderbolt0", "10.78.0.2", 24),
                at("0-3", "thunderbolt1", "10.78.1.2", 24)))).isEmpty();
    }

    @Test
    void aWiderPrefixOnOneCableThatHoldsTheOthersAddressCounts() {
        // 10.0.0.0/8 on one cable holds the /30 of the other: the /8's route takes the other cable's peer as well.
        assertThat(SharedSubnets.warnings(List.of(
                at("0-1", "thunderbolt0", "10.1.2.3", 8),
                at("0-3", "thunderbolt1", "10.77.0.2", 30)))).singleElement().asString()
                .contains("10.0.0.0/8");
    }

    @Test
    void threeCablesInOneSubnetAreOneWarningAndSharedGlobalIpv6CountsToo() {
        List<String> w = SharedSubnets.warnings(List.of(
                at("0-1", "thunderbolt0", "169.254.0.2", 16),
                at("0-3", "thunderbolt1", "169.254.1.2", 16),
                at("0-5", "thunderbolt2", "169.254.2.2", 16),
                at("0-1", "thunderbolt0", "fd00::2", 64),
                at("0-3", "thunderbolt1", "fd00::3", 64)));
        assertThat(w).hasSize(2);
        assertThat(w.get(0)).contains("0-1 (thunderbolt0), 0-3 (thunderbolt1), 0-5 (thunderbolt2)");
        assertThat(w.get(1)).contains("fd00:0:0:0:0:0:0:0/64");
    }

    @Test
    void oneInterfaceAndAddressesOfDifferentFamiliesAreNoWarning() {
        assertThat(SharedSubnets.warnings(List.of(
                at("0-1", "thunderbolt0", "169.254.0.2", 16),
                at("0-1", "thunderbolt0", "169.254.7.9", 16),
                at("0-3", "thunderbolt1", "fd00::3", 64)))).isEmpty();
        assertThat(SharedSubnets.warnings(List.of())).isEmpty();
    }

    @Test
    void linksOnNoNetworkInterfaceAreLeftOut() {
        assertThat(SharedSubnets.of(List.of(new LinkInfo("0-1", "no-such-interface-xq", new LinkState(20_000, 2, 20_000, 2))))).isEmpty();
    }
}
