package io.xdlink.cli.host;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.xdlink.xdomain.sysfs.SysfsFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class TopologyCommandTest {
    static final UUID HOST = UUID.fromString("a1b2c3d4-0000-4000-8000-000000000001");
    static final UUID EVO = UUID.fromString("5e0c9f7a-8c1b-4e7e-9d2a-3f4b5c6d7e8f");
    static final UUID PX13 = UUID.fromString("0f1e2d3c-4b5a-4968-8778-695a4b3c2d1e");
    static final UUID N5 = UUID.fromString("11111111-2222-4333-8444-555555555555");

    final FileSystem fs = Jimfs.newFileSystem(Configuration.unix());

    @AfterEach
    void tearDown() throws IOException {
        fs.close();
    }

    @Test
    void aBadParameterSettingIsAFailureAfterTheTopology() {
        threePeers();
        CliRun r = CliRun.of(new TopologyCommand(fs::getPath, Map.of("XDLINK_PARAMS", "ring_size=1024 bogus=1")),
                "--root", "/host");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("evo-x3");
        assertThat(r.err()).isEqualTo("xdlink: $XDLINK_PARAMS: unknown parameter 'bogus'; no parameter has a name"
                + " like it: 'xdlink params' lists them all (xdlink refuses to start with this setting)\n");

        CliRun config = CliRun.of(new TopologyCommand(fs::getPath, Map.of("XDLINK_CONFIG", "/etc/none.conf")),
                "--root", "/host");
        assertThat(config.exit()).isEqualTo(1);
        assertThat(config.err()).startsWith("xdlink: /host/etc/none.conf: configuration file not found");

        CliRun good = CliRun.of(new TopologyCommand(fs::getPath, Map.of("XDLINK_PARAMS", "ring_size=1024")),
                "--root", "/host");
        assertThat(good.exit()).isZero();
        assertThat(good.err()).isEmpty();
    }

    CliRun topology(String... args) {
        return CliRun.of(new TopologyCommand(fs::getPath), args);
    }

    SysfsFixture threePeers() {
        return SysfsFixture.create(fs.getPath("/host")).domain(0, "0000:00:0d.2", HOST).domain(1, "0000:00:0d.3", HOST)
                .peer(0, "1", EVO).names(0x8086, "Intel Corp.", 1, "evo-x3").link(20, 1).network("thunderbolt0")
                .done()
                .peer(0, "3", PX13).names(0x8086, "Intel Corp.", 1, "px13").link(20, 2).network("thunderbolt1")
                .service(1, "xdlink", 0x58444c4b, 1, 0, 1, null, null).done()
                .peer(1, "1", N5).names(0x8086, "Intel Corp.", 1, "n5-max").link(40, 2).network("thunderbolt2")
                .done();
    }

    @Test
    void listsSingleLaneBondedGen3AndGen4Peers() {
        threePeers();

        CliRun r = topology("--root", "/host");

        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("USB4 bus under /host: 2 domains, 3 peers, 2 routers\n"
                + "domain0: host UUID a1b2c3d4-0000-4000-8000-000000000001, NHI /sys/devices/pci0000:00/0000:00:0d.2\n"
                + "domain1: host UUID a1b2c3d4-0000-4000-8000-000000000001, NHI /sys/devices/pci0000:00/0000:00:0d.3\n");
        assertThat(r.out()).contains("""
                0-1  evo-x3
                  vendor     Intel Corp. (0x8086), device 0x1
                  UUID       5e0c9f7a-8c1b-4e7e-9d2a-3f4b5c6d7e8f
                  rx         1 x 20 Gb/s = 20 Gb/s
                  tx         1 x 20 Gb/s = 20 Gb/s
                  bonded     no (Gen 3, single lane)
                  max HopID  15
                  PCI path   /sys/devices/pci0000:00/0000:00:0d.2
                  service    0-1.0 network: protocol id 1 version 1 revision 1 settings 0x00000007, driver \
                thunderbolt-net, interface thunderbolt0
                  warning    Gen 3 link running single lane: 20 Gb/s each way instead of 40 Gb/s bonded
                """);
        assertThat(r.out()).contains("""
                0-3  px13
                  vendor     Intel Corp. (0x8086), device 0x1
                  UUID       0f1e2d3c-4b5a-4968-8778-695a4b3c2d1e
                  rx         2 x 20 Gb/s = 40 Gb/s
                  tx         2 x 20 Gb/s = 40 Gb/s
                  bonded     yes (Gen 3, two lanes each way)
                """);
        assertThat(r.out()).contains("  service    0-3.1 xdlink: protocol id 1480870987 version 1 revision 0 settings"
                + " 0x00000001, driver none\n");
        assertThat(r.out()).contains("""
                1-1  n5-max
                  vendor     Intel Corp. (0x8086), device 0x1
                  UUID       11111111-2222-4333-8444-555555555555
                  rx         2 x 40 Gb/s = 80 Gb/s
                  tx         2 x 40 Gb/s = 80 Gb/s
                  bonded     yes (Gen 4, two lanes each way)
                  max HopID  15
                  PCI path   /sys/devices/pci0000:00/0000:00:0d.3
                """);
        assertThat(r.out().lines().filter(l -> l.contains("warning"))).hasSize(1);
        assertThat(r.out()).doesNotContain("Problems");
    }

    @Test
    void jsonCarriesTheSameFacts() {
        threePeers();

        CliRun r = topology("--root", "/host", "--json");

        assertThat(r.exit()).isZero();
        String j = r.out().replaceAll("\n *", "");
        assertThat(r.out()).startsWith("{\n  \"root\": \"/host\",\n  \"usb4\": true,");
        assertThat(j).contains("{\"name\": \"0-1\",\"deviceName\": \"evo-x3\",\"deviceId\": 1,\"vendorName\": \"Intel"
                + " Corp.\",\"vendorId\": 32902,\"uuid\": \"5e0c9f7a-8c1b-4e7e-9d2a-3f4b5c6d7e8f\",\"maxHopId\": 15,"
                + "\"pciPath\": \"/sys/devices/pci0000:00/0000:00:0d.2\",\"link\": {\"generation\": \"Gen 3\","
                + "\"rx\": {\"lanes\": 1,\"laneMbps\": 20000,\"mbps\": 20000},"
                + "\"tx\": {\"lanes\": 1,\"laneMbps\": 20000,\"mbps\": 20000},\"bonded\": false,\"rateMbps\": 20000},"
                + "\"services\": [{\"name\": \"0-1.0\",\"key\": \"network\",\"protocolId\": 1,\"version\": 1,"
                + "\"revision\": 1,\"settings\": \"0x00000007\",\"modalias\": \"tbsvc:knetworkp00000001v00000001r00000001\","
                + "\"driver\": \"thunderbolt-net\",\"interfaces\": [\"thunderbolt0\"]}],"
                + "\"warnings\": [\"Gen 3 link running single lane: 20 Gb/s each way instead of 40 Gb/s bonded\"]}");
        assertThat(j).contains("\"bonded\": true,\"rateMbps\": 40000}");
        assertThat(j).contains("\"generation\": \"Gen 4\"");
        assertThat(j).contains("\"rateMbps\": 80000");
        assertThat(j).contains("\"pciPath\": \"/sys/devices/pci0000:00/0000:00:0d.3\"");
        assertThat(j).contains("\"warnings\": []");
        assertThat(j).endsWith("\"routers\": 2,\"problems\": []}");
    }

    @Test
    void saysPlainlyWhenThereIsNoUsb4Hardware() throws IOException {
        java.nio.file.Files.createDirectories(fs.getPath("/bare/sys/bus/pci"));

        CliRun r = topology("--root", "/bare");

        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo("No USB4 hardware: /bare/sys/bus/thunderbolt does not exist, so this host has no"
                + " USB4 or Thunderbolt controller with its driver (thunderbolt) loaded.\n");
        assertThat(topology("--root", "/bare", "--json").out()).contains("\"usb4\": false,\n  \"message\": \"no USB4");
    }

    @Test
    void busWithoutPeers() {
        SysfsFixture.create(fs.getPath("/h")).domain(0, "0000:00:0d.2", HOST);

        assertThat(topology("--root", "/h").out()).contains("No XDomain peers: no other host is connected over USB4.");
    }

    @Test
    void problemsAreListedAndHostileNamesEscaped() {
        threePeers().file("0-1", "device_name", "\u001b[31mred\n").file("0-3", "rx_lanes", "9\n");

        CliRun r = topology("--root", "/host");

        assertThat(r.out()).contains("0-1  \\x1b[31mred\n");
        assertThat(r.out()).doesNotContain("\u001b");
        assertThat(r.out()).contains("  link       speed and lanes unknown (see problems)\n");
        assertThat(r.out()).endsWith("Problems reading the bus:\n"
                + "  /host/sys/bus/thunderbolt/devices/0-3/rx_lanes: expected 1, 2 or 3 lanes, found \"9\"\n");
    }

    @Test
    void aMissingRootIsAUsageError() {
        CliRun r = topology("--root", "/nowhere");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("xdlink: --root /nowhere: no such directory\n");
    }

    @Test
    void throughMainOnARealDirectory(@TempDir Path tmp) {
        CliRun r = CliRun.main("topology", "--root", tmp.toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("No USB4 hardware: " + tmp + "/sys/bus/thunderbolt does not exist");
    }
}
