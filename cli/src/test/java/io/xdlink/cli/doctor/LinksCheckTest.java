package io.xdlink.cli.doctor;

import io.xdlink.xdomain.sysfs.SysfsFixture;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class LinksCheckTest extends CheckTestBase {
    static final UUID HOST = UUID.fromString("a1b2c3d4-0000-4000-8000-000000000001");
    static final UUID EVO = UUID.fromString("5e0c9f7a-8c1b-4e7e-9d2a-3f4b5c6d7e8f");

    @Override
    Check check() {
        return new LinksCheck();
    }

    @Test
    void gen3SingleLaneWarnsWithTheFix() {
        SysfsFixture.create(fx.root).domain(0, "0000:00:0d.2", HOST)
                .peer(0, "1", EVO).names(0x8086, "Intel Corp.", 1, "evo-x3").link(20, 1).network("thunderbolt0");

        List<CheckResult> r = run();

        assertThat(r).extracting(CheckResult::id)
                .containsExactly("links/0-1/link", "links/0-1/network", "links/0-1/xdlink");
        assertThat(r.getFirst().status()).isEqualTo(Status.WARN);
        assertThat(r.getFirst().summary()).isEqualTo("0-1 evo-x3: Gen 3, 1 x 20 Gb/s each way = 20 Gb/s, single lane;"
                + " Gen 3 link running single lane: 20 Gb/s each way instead of 40 Gb/s bonded");
        assertThat(r.getFirst().fix()).startsWith("lane bonding failed or was refused: replug the cable");
        assertThat(r.get(1).status()).isEqualTo(Status.OK);
        assertThat(r.get(1).summary()).isEqualTo("0-1 evo-x3: network service 0-1.0 bound to thunderbolt-net as"
                + " thunderbolt0");
        assertThat(r.get(2).status()).isEqualTo(Status.OK);
    }

    @Test
    void aLinkOnAnotherControllerThanTheOneXdlinkSpeaksAsWarnsWithTheFix() {
        UUID second = UUID.fromString("a1b2c3d4-0000-4000-8000-000000000002");
        UUID other = UUID.fromString("6f1d0a8b-0000-4000-8000-000000000003");
        SysfsFixture.create(fx.root).domain(0, "0000:00:0d.2", HOST).domain(1, "0000:00:0d.3", second)
                .peer(0, "1", EVO).link(20, 2).network("thunderbolt0").done()
                .peer(1, "1", other).link(20, 2).network("thunderbolt1").done();

        List<CheckResult> r = run();

        assertThat(r).filteredOn(c -> c.status() == Status.WARN).singleElement().satisfies(c -> {
            assertThat(c.id()).isEqualTo("links/1-1/domain");
            assertThat(c.summary()).isEqualTo("1-1: on domain1, where the peer knows this host as " + second
                    + ", while xdlink speaks for it as " + HOST + " (the host router of another domain); the peer"
                    + " would refuse it over this link (cable the hosts' links to one USB4 controller on each host)");
            assertThat(c.fix()).startsWith("plug this cable into a port of the controller the host's other links use");
        });
    }

    @Test
    void bondedWithXdlinkServiceIsAllOk() {
        SysfsFixture.create(fx.root).domain(0, "0000:00:0d.2", HOST)
                .peer(0, "1", EVO).link(20, 2).network("thunderbolt0")
                .service(1, "xdlink", 0x58444c4b, 1, 0, 1, null, null);

        assertThat(run()).hasSize(3).allSatisfy(c -> assertThat(c.status()).isEqualTo(Status.OK));
        assertThat(run().get(2).summary()).contains("publishes xdlink's service 0-1.1");
    }

    @Test
    void noHardwareAndNoPeers() {
        assertThat(run()).singleElement().satisfies(c -> {
            assertThat(c.status()).isEqualTo(Status.WARN);
            assertThat(c.summary()).startsWith("no USB4 hardware: /sys/bus/thunderbolt does not exist");
        });
        SysfsFixture.create(fx.root).domain(0, "0000:00:0d.2", HOST);
        assertThat(run()).singleElement().satisfies(c ->
                assertThat(c.summary()).isEqualTo("USB4 bus present (1 domain), but no other host is connected"));
    }

    @Test
    void malformedSysfsFilesAreWarnings() {
        SysfsFixture.create(fx.root).domain(0, "0000:00:0d.2", HOST).peer(0, "1", EVO).link(20, 2)
                .network("thunderbolt0").done().file("0-1", "tx_lanes", "two\n");

        List<CheckResult> r = run();

        assertThat(r.getFirst().summary()).contains("does not show the negotiated speed");
        assertThat(r.getLast().id()).isEqualTo("links/sysfs");
        assertThat(r.getLast().summary()).isEqualTo("/sys/bus/thunderbolt/devices/0-1/tx_lanes: expected 1, 2 or 3"
                + " lanes, found \"two\"");
    }
}
