package io.xdlink.xdomain.sysfs;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class ThunderboltSysfsTest {
    static final UUID HOST = UUID.fromString("a1b2c3d4-0000-4000-8000-000000000001");
    static final UUID EVO = UUID.fromString("5e0c9f7a-8c1b-4e7e-9d2a-3f4b5c6d7e8f");
    static final UUID PX13 = UUID.fromString("0f1e2d3c-4b5a-4968-8778-695a4b3c2d1e");

    FileSystem fs;
    Path root;

    @BeforeEach
    void setUp() {
        fs = Jimfs.newFileSystem(Configuration.unix());
        root = fs.getPath("/");
    }

    @AfterEach
    void tearDown() throws IOException {
        fs.close();
    }

    @Test
    void noBusMeansNoUsb4Support() {
        HostView view = ThunderboltSysfs.read(root);
        assertThat(view.busPresent()).isFalse();
        assertThat(view.peers()).isEmpty();
        assertThat(view.problems()).isEmpty();
    }

    @Test
    void busWithoutDevicesHasNoPeers() {
        SysfsFixture.create(root);
        HostView view = ThunderboltSysfs.read(root);
        assertThat(view.busPresent()).isTrue();
        assertThat(view.peers()).isEmpty();
        assertThat(view.problems()).isEmpty();
    }

    @Test
    void singleLaneGen3PeerWithThunderboltNet() {
        SysfsFixture.create(root).domain(0, "0000:00:0d.2", HOST)
                .peer(0, "1", EVO).names(0x8086, "Intel Corp.", 0x1, "evo-x3").link(20, 1).network("thunderbolt0")
                .done();

        HostView view = ThunderboltSysfs.read(root);

        assertThat(view.problems()).isEmpty();
        assertThat(view.routers()).isEqualTo(1);
        assertThat(view.localUuid()).contains(HOST);
        assertThat(view.domains()).singleElement().satisfies(d -> {
            assertThat(d.name()).isEqualTo("domain0");
            assertThat(d.nhiPciPath()).contains("/sys/devices/pci0000:00/0000:00:0d.2");
        });
        SysfsPeer peer = view.peers().getFirst();
        assertThat(peer.name()).isEqualTo("0-1");
        assertThat(peer.domain()).isZero();
        assertThat(peer.route()).isEqualTo(1);
        assertThat(peer.uniqueId()).isEqualTo(EVO);
        assertThat(peer.vendorId()).hasValue(0x8086);
        assertThat(peer.vendorName()).isEqualTo("Intel Corp.");
        assertThat(peer.deviceId()).hasValue(1);
        assertThat(peer.deviceName()).isEqualTo("evo-x3");
        assertThat(peer.maxHopId()).hasValue(15);
        assertThat(peer.link()).contains(new LinkState(20_000, 1, 20_000, 1));
        assertThat(peer.link().orElseThrow().generation()).contains(Generation.GEN3);
        assertThat(peer.link().orElseThrow().bonded()).isFalse();
        assertThat(peer.hostRouterPciPath()).contains("/sys/devices/pci0000:00/0000:00:0d.2");
        assertThat(peer.netInterfaces()).containsExactly("thunderbolt0");
        SysfsService svc = peer.services().getFirst();
        assertThat(svc.name()).isEqualTo("0-1.0");
        assertThat(svc.id()).isZero();
        assertThat(svc.key()).isEqualTo("network");
        assertThat(svc.isNetwork()).isTrue();
        assertThat(svc.protocolId()).hasValue(1);
        assertThat(svc.version()).hasValue(1);
        assertThat(svc.revision()).hasValue(1);
        assertThat(svc.settings()).hasValue(7);
        assertThat(svc.modalias()).isEqualTo("tbsvc:knetworkp00000001v00000001r00000001");
        assertThat(svc.driver()).contains("thunderbolt-net");
    }

    @Test
    void bondedGen3AndGen4AndAsymmetricGen4() {
        SysfsFixture.create(root).domain(0, "0000:00:0d.2", HOST).domain(1, "0000:00:0d.3", HOST)
                .peer(0, "1", EVO).link(20, 2).done()
                .peer(0, "3", PX13).link(40, 2).done()
                .peer(1, "1", PX13).link(40, 3, 1).done();

        HostView view = ThunderboltSysfs.read(root);

        assertThat(view.problems()).isEmpty();
        assertThat(view.peers()).extracting(SysfsPeer::name).containsExactly("0-1", "0-3", "1-1");
        LinkState gen3 = view.peers().get(0).link().orElseThrow();
        assertThat(gen3.bonded()).isTrue();
        assertThat(gen3.rateMbps()).isEqualTo(40_000);
        LinkState gen4 = view.peers().get(1).link().orElseThrow();
        assertThat(gen4.generation()).contains(Generation.GEN4);
        assertThat(gen4.rateMbps()).isEqualTo(80_000);
        LinkState asym = view.peers().get(2).link().orElseThrow();
        assertThat(asym.txMbps()).isEqualTo(120_000);
        assertThat(asym.rxMbps()).isEqualTo(40_000);
        assertThat(asym.bonded()).isFalse();
        assertThat(view.peers().get(2).hostRouterPciPath()).contains("/sys/devices/pci0000:00/0000:00:0d.3");
        assertThat(view.linksByHost().get(PX13)).extracting(SysfsPeer::name).containsExactly("0-3", "1-1");
    }

    @Test
    void routersRetimersAndDomainsAreRecognisedAndSkipped() {
        SysfsFixture.create(root).domain(0, "0000:00:0d.2", HOST).router(0, "3").retimer(0)
                .peer(0, "1", EVO).done();

        HostView view = ThunderboltSysfs.read(root);

        assertThat(view.peers()).extracting(SysfsPeer::name).containsExactly("0-1");
        assertThat(view.routers()).isEqualTo(2);
        assertThat(view.skipped()).isEqualTo(1);
        assertThat(view.problems()).isEmpty();
    }

    @Test
    void withoutUeventTheMaxhopidFileTellsAPeerFromARouter() {
        SysfsFixture fx = SysfsFixture.create(root).domain(0, "0000:00:0d.2", HOST).router(0, "3")
                .peer(0, "1", EVO).done();
        fx.remove("0-1", "uevent").remove("0-3", "uevent");

        HostView view = ThunderboltSysfs.read(root);

        assertThat(view.peers()).extracting(SysfsPeer::name).containsExactly("0-1");
        assertThat(view.routers()).isEqualTo(2);
    }

    @Test
    void unboundServiceAndXdlinkServiceBesideNetwork() {
        SysfsFixture.create(root).domain(0, "0000:00:0d.2", HOST)
                .peer(0, "1", EVO).network("thunderbolt0")
                .service(1, "xdlink", 0x58444c4b, 1, 0, 0x1, null, null).done();

        SysfsPeer peer = ThunderboltSysfs.read(root).peers().getFirst();

        assertThat(peer.services()).extracting(SysfsService::key).containsExactly("network", "xdlink");
        SysfsService xd = peer.service("xdlink").orElseThrow();
        assertThat(xd.isXdlink()).isTrue();
        assertThat(xd.protocolId()).hasValue(0x58444c4bL);
        assertThat(xd.driver()).isEmpty();
        assertThat(xd.netInterfaces()).isEmpty();
    }

    @Test
    void aTreeOfPlainDirectoriesHasNoPciPath() throws IOException {
        Path dev = ThunderboltSysfs.devicesDir(root).resolve("0-1");
        Files.createDirectories(dev);
        SysfsFixture.write(dev.resolve("uevent"), "DEVTYPE=thunderbolt_xdomain");
        SysfsFixture.write(dev.resolve("unique_id"), EVO.toString());
        for (String f : new String[] {"tx_speed", "rx_speed"}) {
            SysfsFixture.write(dev.resolve(f), "20.0 Gb/s");
        }
        for (String f : new String[] {"tx_lanes", "rx_lanes"}) {
            SysfsFixture.write(dev.resolve(f), "2");
        }

        HostView view = ThunderboltSysfs.read(root);

        SysfsPeer peer = view.peers().getFirst();
        assertThat(peer.hostRouterPciPath()).isEmpty();
        assertThat(peer.link()).contains(LinkState.of(Generation.GEN3, 2));
        assertThat(view.problems()).extracting(SysfsProblem::file)
                .containsExactlyInAnyOrder("/sys/bus/thunderbolt/devices/0-1/vendor",
                        "/sys/bus/thunderbolt/devices/0-1/device", "/sys/bus/thunderbolt/devices/0-1/maxhopid",
                        "/sys/bus/thunderbolt/devices/0-1/vendor_name",
                        "/sys/bus/thunderbolt/devices/0-1/device_name");
        assertThat(view.problems()).allSatisfy(p -> assertThat(p.message()).startsWith(p.file() + ": missing"));
    }

    @Test
    void aRootOtherThanSlashReportsHostPaths() {
        Path sub = fs.getPath("/mnt/other");
        SysfsFixture.create(sub).domain(0, "0000:00:0d.2", HOST).peer(0, "1", EVO).done();

        HostView view = ThunderboltSysfs.read(sub);

        assertThat(view.root()).isEqualTo("/mnt/other");
        assertThat(view.peers().getFirst().hostRouterPciPath()).contains("/sys/devices/pci0000:00/0000:00:0d.2");
    }

    @Test
    void domainWithoutHostRouterHasNoUuid() throws IOException {
        SysfsFixture fx = SysfsFixture.create(root).domain(0, "0000:00:0d.2", HOST);
        Files.delete(fx.root().resolve("sys/bus/thunderbolt/devices/0-0"));

        HostView view = ThunderboltSysfs.read(root);

        assertThat(view.domains().getFirst().hostUuid()).isEmpty();
        assertThat(view.localUuid()).isEmpty();
    }

    @Test
    void malformedLinkFilesCostTheLinkNotThePeer() {
        SysfsFixture.create(root).domain(0, "0000:00:0d.2", HOST).peer(0, "1", EVO).done()
                .file("0-1", "rx_lanes", "7\n").file("0-1", "tx_speed", "20 Gb/s\n");

        HostView view = ThunderboltSysfs.read(root);

        SysfsPeer peer = view.peers().getFirst();
        assertThat(peer.link()).isEmpty();
        assertThat(peer.deviceName()).isEqualTo("peer-1");
        assertThat(view.problems()).extracting(SysfsProblem::message).containsExactlyInAnyOrder(
                "/sys/bus/thunderbolt/devices/0-1/rx_lanes: expected 1, 2 or 3 lanes, found \"7\"",
                "/sys/bus/thunderbolt/devices/0-1/tx_speed: expected a per-lane speed like \"20.0 Gb/s\", found \"20 Gb/s\"");
    }

    @Test
    void truncatedFilesAreReportedByName() {
        SysfsFixture.create(root).domain(0, "0000:00:0d.2", HOST).peer(0, "1", EVO).network("thunderbolt0").done()
                .file("0-1", "rx_speed", "").file("0-1.0", "prtcstns", "0x0000").file("0-1", "vendor", "0x80");

        HostView view = ThunderboltSysfs.read(root);

        SysfsPeer peer = view.peers().getFirst();
        assertThat(peer.link()).isEmpty();
        assertThat(peer.vendorId()).hasValue(0x80);
        assertThat(peer.services().getFirst().settings()).isEmpty();
        assertThat(peer.services().getFirst().protocolId()).hasValue(1);
        assertThat(view.problems()).extracting(SysfsProblem::file).containsExactlyInAnyOrder(
                "/sys/bus/thunderbolt/devices/0-1/rx_speed", "/sys/bus/thunderbolt/devices/0-1.0/prtcstns");
    }

    @Test
    void aPeerWithoutAUuidIsSkippedWithTheReason() {
        SysfsFixture.create(root).domain(0, "0000:00:0d.2", HOST).peer(0, "1", EVO).done()
                .peer(0, "3", PX13).done().file("0-1", "unique_id", "not-a-uuid\n");

        HostView view = ThunderboltSysfs.read(root);

        assertThat(view.peers()).extracting(SysfsPeer::name).containsExactly("0-3");
        assertThat(view.problems()).singleElement().extracting(SysfsProblem::message).isEqualTo(
                "/sys/bus/thunderbolt/devices/0-1/unique_id: expected a UUID like"
                        + " 01234567-89ab-cdef-0123-456789abcdef, found \"not-a-uuid\"; peer 0-1 skipped");
    }

    @Test
    void hostileNamesAreEscapedAndHugeFilesRefused() {
        SysfsFixture.create(root).domain(0, "0000:00:0d.2", HOST)
                .peer(0, "1", EVO).names(0x8086, "Intel\u001b]0;pwned\u0007", 1, "\u202eevil\u001b[2J").done()
                .file("0-1", "vendor_name", "v".repeat(100_000));

        HostView view = ThunderboltSysfs.read(root);

        SysfsPeer peer = view.peers().getFirst();
        assertThat(peer.deviceName()).isEqualTo("\\u202eevil\\x1b[2J");
        assertThat(peer.vendorName()).isEmpty();
        assertThat(view.problems()).extracting(SysfsProblem::message).containsExactly(
                "/sys/bus/thunderbolt/devices/0-1/vendor_name: longer than 4096 bytes, not a sysfs attribute");
    }

    @Test
    void aDirectoryWhereAFileShouldBeAndADriverThatIsNoLink() throws IOException {
        SysfsFixture fx = SysfsFixture.create(root).domain(0, "0000:00:0d.2", HOST)
                .peer(0, "1", EVO).service(0, "network", 1, 1, 1, 7, null, null).done();
        fx.remove("0-1", "maxhopid");
        Files.createDirectories(fx.device("0-1").resolve("maxhopid"));
        Files.createDirectories(fx.device("0-1.0").resolve("driver"));

        HostView view = ThunderboltSysfs.read(root);

        assertThat(view.peers().getFirst().maxHopId()).isEmpty();
        assertThat(view.peers().getFirst().services().getFirst().driver()).isEmpty();
        assertThat(view.problems()).extracting(SysfsProblem::message).containsExactlyInAnyOrder(
                "/sys/bus/thunderbolt/devices/0-1/maxhopid: not a regular file",
                "/sys/bus/thunderbolt/devices/0-1.0/driver: not a symbolic link");
    }

    @Test
    void devtypeThatContradictsTheNameSkipsTheEntry() {
        SysfsFixture.create(root).domain(0, "0000:00:0d.2", HOST).peer(0, "1", EVO).done()
                .file("domain0", "uevent", "DEVTYPE=thunderbolt_xdomain\n");

        HostView view = ThunderboltSysfs.read(root);

        assertThat(view.domains()).isEmpty();
        assertThat(view.peers()).hasSize(1);
        assertThat(view.problems()).singleElement().extracting(SysfsProblem::message).isEqualTo(
                "/sys/bus/thunderbolt/devices/domain0/uevent: DEVTYPE \"thunderbolt_xdomain\" does not fit the"
                        + " device name \"domain0\"; entry skipped");
    }

    @Test
    void aKernelWithoutLinkFilesSaysSoOnce() {
        SysfsFixture fx = SysfsFixture.create(root).domain(0, "0000:00:0d.2", HOST).peer(0, "1", EVO).done();
        for (String f : new String[] {"rx_speed", "rx_lanes", "tx_speed", "tx_lanes"}) {
            fx.remove("0-1", f);
        }

        HostView view = ThunderboltSysfs.read(root);

        assertThat(view.peers().getFirst().link()).isEmpty();
        assertThat(view.problems()).singleElement().extracting(SysfsProblem::message).asString()
                .contains("does not say what the link negotiated");
    }

    @Test
    void aBusEntryLinkLoopIsAProblemNotACrash() throws IOException {
        SysfsFixture fx = SysfsFixture.create(root).domain(0, "0000:00:0d.2", HOST);
        Path devices = ThunderboltSysfs.devicesDir(root);
        Files.createSymbolicLink(devices.resolve("0-5"), fs.getPath("0-6"));
        Files.createSymbolicLink(devices.resolve("0-6"), fs.getPath("0-5"));

        HostView view = ThunderboltSysfs.read(fx.root());

        assertThat(view.peers()).isEmpty();
        assertThat(view.routers()).isEqualTo(1);
        assertThat(view.skipped()).isEqualTo(2);
        assertThat(view.problems()).extracting(SysfsProblem::file).containsExactly(
                "/sys/bus/thunderbolt/devices/0-5", "/sys/bus/thunderbolt/devices/0-6");
    }

    @Test
    void tooManyEntriesAreRefusedNotWalked() throws IOException {
        Path devices = ThunderboltSysfs.devicesDir(root);
        for (int i = 0; i <= ThunderboltSysfs.MAX_ENTRIES; i++) {
            Files.createDirectories(devices.resolve("0-" + Integer.toHexString(i + 1)));
        }

        HostView view = ThunderboltSysfs.read(root);

        assertThat(view.busPresent()).isTrue();
        assertThat(view.peers()).isEmpty();
        assertThat(view.problems()).singleElement().extracting(SysfsProblem::message)
                .isEqualTo("/sys/bus/thunderbolt/devices: more than 4096 entries");
    }

    /**
     * Seeded corruption of a realistic tree: every file gets random bytes, a truncation, or is deleted. The view must
     * come back every time, each problem must name a file that exists in the tree's namespace, and every peer it
     * returns must carry a UUID. Override the seed with -Dxdlink.seed=N to reproduce a failure.
     */
    @Test
    void seededCorruptionNeverThrows() throws IOException {
        long seed = Long.getLong("xdlink.seed", System.nanoTime());
        java.util.Random rnd = new java.util.Random(seed);
        String[] peerFiles = {"uevent", "unique_id", "vendor", "vendor_name", "device", "device_name", "maxhopid",
                "rx_speed", "rx_lanes", "tx_speed", "tx_lanes"};
        String[] svcFiles = {"uevent", "key", "prtcid", "prtcvers", "prtcrevs", "prtcstns", "modalias"};
        String[] samples = {"", "\n", "0", "0x", "20.0 Gb/s", "2", "3", "-1", "4294967296", "DEVTYPE=thunderbolt_device",
                "DEVTYPE=thunderbolt_service", "DEVTYPE=", EVO.toString(), "0x00000007", "\u0000\u0000"};
        for (int iter = 0; iter < 300; iter++) {
            try (FileSystem f = Jimfs.newFileSystem(Configuration.unix())) {
                Path r = f.getPath("/");
                SysfsFixture fx = SysfsFixture.create(r).domain(0, "0000:00:0d.2", HOST)
                        .peer(0, "1", EVO).network("thunderbolt0").done().peer(0, "3", PX13).link(40, 2).done();
                for (int k = 0; k < 1 + rnd.nextInt(6); k++) {
                    boolean svc = rnd.nextBoolean();
                    String dev = svc ? "0-1.0" : (rnd.nextBoolean() ? "0-1" : "0-3");
                    String[] files = svc ? svcFiles : peerFiles;
                    String name = files[rnd.nextInt(files.length)];
                    switch (rnd.nextInt(4)) {
                        case 0 -> fx.file(dev, name, samples[rnd.nextInt(samples.length)]);
                        case 1 -> {
                            byte[] junk = new byte[rnd.nextInt(64)];
                            rnd.nextBytes(junk);
                            Files.write(fx.device(dev).resolve(name), junk);
                        }
                        case 2 -> {
                            Path p = fx.device(dev).resolve(name);
                            if (Files.exists(p)) {
                                byte[] b = Files.readAllBytes(p);
                                Files.write(p, java.util.Arrays.copyOf(b, rnd.nextInt(b.length + 1)));
                            }
                        }
                        default -> Files.deleteIfExists(fx.device(dev).resolve(name));
                    }
                }
                HostView view = ThunderboltSysfs.read(r);
                String ctx = "seed " + seed + " iteration " + iter;
                assertThat(view.peers()).as(ctx).allSatisfy(p -> assertThat(p.uniqueId()).isNotNull());
                assertThat(view.problems()).as(ctx).allSatisfy(p -> {
                    assertThat(p.message()).startsWith(p.file());
                    assertThat(p.message()).doesNotContain("\u001b").doesNotContain("\u0000");
                });
            }
        }
    }
}
