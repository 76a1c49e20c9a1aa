package io.xdlink.it.lab;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

@Tag("multiprocess")
class NetnsLabTest {

    @Test
    void twoHostsJoinedByShapedCablesNamedLikeThunderboltNet() {
        try (NetnsLab lab = NetnsLab.create("self", 2, 1000, 65520)) {
            for (int k = 0; k < 2; k++) {
                String ifname = NetnsLab.interfaceName(k);
                assertThat(NetnsLab.exec("ip", "-n", lab.namespaceA(), "-o", "addr", "show", "dev", ifname))
                        .contains(NetnsLab.address(k, true) + "/30");
                assertThat(NetnsLab.exec("ip", "-n", lab.namespaceB(), "-o", "addr", "show", "dev", ifname))
                        .contains(NetnsLab.address(k, false) + "/30");
                assertThat(NetnsLab.exec("ip", "-n", lab.namespaceA(), "link", "show", "dev", ifname))
                        .contains("mtu 65520").contains("state UP");
                assertThat(NetnsLab.exec("tc", "-n", lab.namespaceB(), "qdisc", "show", "dev", ifname))
                        .contains("tbf").contains("rate 1Gbit");
            }
            // The hosts see only their own cables: no address of the other host is local.
            assertThat(NetnsLab.exec("ip", "-n", lab.namespaceA(), "-o", "addr", "show"))
                    .doesNotContain(NetnsLab.address(0, false));
        }
        assertThat(NetnsLab.exec("ip", "netns", "list")).doesNotContain("xdlselfa").doesNotContain("xdlselfb");
    }
}
