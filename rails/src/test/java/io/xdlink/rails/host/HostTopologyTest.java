package io.xdlink.rails.host;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.xdlink.rails.LinkInfo;
import io.xdlink.rails.PeerInfo;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.sysfs.SysfsFixture;
import org.junit.jupiter.api.Test;

import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class HostTopologyTest {
    static final UUID HOST = UUID.fromString("aaaaaaaa-0000-0000-0000-000000000001");
    static final UUID PEER = UUID.fromString("bbbbbbbb-0000-0000-0000-000000000002");
    static final UUID OTHER = UUID.fromString("cccccccc-0000-0000-0000-000000000003");

    @Test
    void linksWithASpeedAndAnInterfaceBecomeRailLinksAndTheRestAreExplained() throws Exception {
        try (FileSystem fs = Jimfs.newFileSystem(Configuration.unix())) {
            Path root = fs.getPath("/");
            SysfsFixture f = SysfsFixture.create(root).domain(0, "0000:00:0d.2", HOST)
                    .peer(0, "1", PEER).link(20, 2).network("thunderbolt0").done()
                    .peer(0, "3", PEER).link(20, 1).network("thunderbolt1").done()
                    .peer(0, "5", OTHER).link(10, 1).done()
                    .peer(0, "7", OTHER).network("thunderbolt3").done();
            f.remove("0-7", "tx_speed");
            HostTopology t = HostTopology.read(root);
            assertThat(t.localUuid()).contains(HOST);
            assertThat(t.peers()).hasSize(1);
            assertThat(t.peers().getFirst().links()).containsExactly(
                    new LinkInfo("0-1", "thunderbolt0", LinkState.of(Generation.GEN3, 2)),
                    new LinkInfo("0-3", "thunderbolt1", LinkState.of(Generation.GEN3, 1)));
            assertThat(t.peers().getFirst().rateMbps()).as("two cables add up").isEqualTo(60_000);
            assertThat(t.problems()).anySatisfy(p -> assertThat(p).startsWith("0-5: no thunderbolt-net interface"))
                    .anySatisfy(p -> assertThat(p).startsWith("0-7: the kernel does not say what the link negotiated"));
            assertThat(t.linksTo(OTHER)).isEmpty();
            assertThat(t.link("0-3").map(HostLink::netInterface)).contains("thunderbolt1");
        }
    }

    @Test
    void aHostWithoutTheThunderboltBusSaysSo() throws Exception {
        try (FileSystem fs = Jimfs.newFileSystem(Configuration.unix())) {
            HostTopology t = HostTopology.read(fs.getPath("/"));
            assertThat(t.localUuid()).isEmpty();
            assertThat(t.links()).isEmpty();
            assertThat(t.problems()).containsExactly("/: no sys/bus/thunderbolt; the thunderbolt driver is not loaded");
        }
    }

    static final UUID SECOND_DOMAIN = UUID.fromString("aaaaaaaa-0000-0000-0000-0000000000a1");

    @Test
    void aHostWhoseOnlyCableIsOnItsSecondControllerSpeaksAsThatControllersDomain() throws Exception {
        try (FileSystem fs = Jimfs.newFileSystem(Configuration.unix())) {
            Path root = fs.getPath("/");
            // Two USB4 controllers, each a domain with a host router UUID of its own; the peer is cabled to the
            // second, so it knows this host as that domain's UUID.
            SysfsFixture.create(root).domain(0, "0000:00:0d.2", HOST).domain(1, "0000:00:0d.3", SECOND_DOMAIN)
                    .peer(1, "1", PEER).link(20, 2).network("thunderbolt0").done();
            HostTopology t = HostTopology.read(root);
            assertThat(t.localUuid()).contains(SECOND_DOMAIN);
            assertThat(t.links()).extracting(HostLink::id).containsExactly("1-1");
            assertThat(t.problems()).isEmpty();
            assertThat(HostTopology.read(root, HOST).links()).as("a fabric that already speaks as domain 0's UUID")
                    .isEmpty();
        }
    }

    @Test
    void linksOnAControllerWithAnotherUuidThanTheFirstLinkedOneAreLeftOutSayingWhy() throws Exception {
        try (FileSystem fs = Jimfs.newFileSystem(Configuration.unix())) {
            Path root = fs.getPath("/");
            SysfsFixture.create(root).domain(0, "0000:00:0d.2", HOST).domain(1, "0000:00:0d.3", SECOND_DOMAIN)
                    .peer(0, "1", PEER).link(20, 2).network("thunderbolt0").done()
                    .peer(1, "1", OTHER).link(20, 2).network("thunderbolt1").done();
            HostTopology t = HostTopology.read(root);
            assertThat(t.localUuid()).contains(HOST);
            assertThat(t.links()).extracting(HostLink::id).containsExactly("0-1");
            assertThat(t.problems()).containsExactly("1-1: on domain1, where the peer knows this host as "
                    + SECOND_DOMAIN + ", while xdlink speaks for it as " + HOST + " (the host router of another"
                    + " domain); the peer would refuse it over this link (cable the hosts' links to one USB4"
                    + " controller on each host), so no rails over it");
            assertThat(t.peers()).extracting(PeerInfo::domain).containsExactly(PEER);
        }
    }
}
