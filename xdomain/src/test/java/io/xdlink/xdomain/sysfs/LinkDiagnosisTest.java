package io.xdlink.xdomain.sysfs;

import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class LinkDiagnosisTest {
    static SysfsService network(String driver, String... ifs) {
        return new SysfsService("0-1.0", 0, "network", OptionalLong.of(1), OptionalLong.of(1), OptionalLong.of(1),
                OptionalLong.of(7), "tbsvc:knetworkp00000001v00000001r00000001", Optional.ofNullable(driver),
                List.of(ifs));
    }

    static SysfsPeer peer(LinkState link, SysfsService... services) {
        return new SysfsPeer("0-1", 0, 1, UUID.randomUUID(), OptionalInt.of(0x8086), "Intel Corp.", OptionalInt.of(1),
                "evo-x3", OptionalInt.of(15), Optional.ofNullable(link), List.of(services), Optional.empty());
    }

    @Test
    void gen3SingleLaneIsAWarningWithTheRateItCouldHave() {
        List<LinkFinding> f = LinkDiagnosis.diagnose(peer(LinkState.of(Generation.GEN3, 1),
                network("thunderbolt-net", "thunderbolt0")));

        assertThat(f).extracting(LinkFinding::aspect).containsExactly("link", "network", "xdlink");
        assertThat(f.getFirst().warning()).isTrue();
        assertThat(f.getFirst().summary()).isEqualTo("0-1 evo-x3: Gen 3, 1 x 20 Gb/s each way = 20 Gb/s, single lane;"
                + " Gen 3 link running single lane: 20 Gb/s each way instead of 40 Gb/s bonded");
        assertThat(f.getFirst().fix()).contains("replug the cable").contains("certified 40 Gb/s");
        assertThat(f.get(1).warning()).isFalse();
        assertThat(f.get(1).summary()).isEqualTo("0-1 evo-x3: network service 0-1.0 bound to thunderbolt-net as"
                + " thunderbolt0");
        assertThat(f.get(2).summary()).contains("does not publish xdlink's XDomain service");
    }

    @Test
    void bondedLinksAreOk() {
        for (Generation g : Generation.values()) {
            LinkFinding f = LinkDiagnosis.diagnose(peer(LinkState.of(g, 2))).getFirst();
            assertThat(f.warning()).as(g.label()).isFalse();
            assertThat(f.fix()).isEmpty();
        }
        assertThat(LinkDiagnosis.diagnose(peer(LinkState.of(Generation.GEN4, 2))).getFirst().summary())
                .isEqualTo("0-1 evo-x3: Gen 4, 2 x 40 Gb/s each way = 80 Gb/s, bonded");
    }

    @Test
    void gen2AndGen4SingleLaneWarnToo() {
        assertThat(LinkDiagnosis.linkWarning(LinkState.of(Generation.GEN2, 1)))
                .contains("Gen 2 link running single lane: 10 Gb/s each way instead of 20 Gb/s bonded");
        assertThat(LinkDiagnosis.linkWarning(LinkState.of(Generation.GEN4, 1))).isPresent();
    }

    @Test
    void asymmetricAndOddSpeeds() {
        assertThat(LinkDiagnosis.linkWarning(new LinkState(40_000, 3, 40_000, 1)).orElseThrow())
                .startsWith("asymmetric link (tx 3 lanes, rx 1)");
        assertThat(LinkDiagnosis.linkWarning(new LinkState(5_000, 2, 5_000, 2)).orElseThrow())
                .contains("5 Gb/s is not a USB4 generation");
    }

    @Test
    void unknownLinkAndUnboundOrMissingNetwork() {
        List<LinkFinding> f = LinkDiagnosis.diagnose(peer(null, network(null)));
        assertThat(f.get(0).warning()).isTrue();
        assertThat(f.get(0).summary()).contains("does not show the negotiated speed");
        assertThat(f.get(1).warning()).isTrue();
        assertThat(f.get(1).summary()).contains("bound to no driver");
        assertThat(f.get(1).fix()).isEqualTo("load thunderbolt-net here (modprobe thunderbolt-net)");

        assertThat(LinkDiagnosis.diagnose(peer(LinkState.of(Generation.GEN3, 2))).get(1).summary())
                .contains("publishes no network service");
        assertThat(LinkDiagnosis.diagnose(peer(LinkState.of(Generation.GEN3, 2), network("thunderbolt-net")))
                .get(1).summary()).contains("has no network interface");
    }

    @Test
    void xdlinkServiceIsReported() {
        SysfsService xd = new SysfsService("0-1.1", 1, "xdlink", OptionalLong.of(0x58444c4bL), OptionalLong.of(1),
                OptionalLong.of(0), OptionalLong.of(1), "", Optional.empty(), List.of());
        LinkFinding f = LinkDiagnosis.diagnose(peer(LinkState.of(Generation.GEN3, 2), xd)).get(2);
        assertThat(f.summary()).isEqualTo("0-1 evo-x3: publishes xdlink's service 0-1.1 (protocol id 1480870987"
                + " version 1 revision 0 settings 0x00000001), unbound");
    }
}
