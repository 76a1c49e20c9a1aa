package io.xdlink.it.lab;

import io.xdlink.xdomain.sysfs.SysfsFixture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A host with two USB4 controllers, each a domain whose host router has a UUID of its own, cabled to its peer on the
 * second one, as the field's two-port machines are. The peer knows it by that domain's UUID, so xdlink must speak for
 * the host as that domain: speaking as the first domain, the host's sessions were refused ("not a peer of this host
 * in sysfs") and the bench's client waited out its connect timeout.
 */
@Tag("multiprocess")
class TwoControllerLabTest {
    private static final UUID A_FIRST = UUID.fromString("1a2b3c4d-0000-4000-8000-0000000000d0");
    private static final UUID A_SECOND = UUID.fromString("1a2b3c4d-0000-4000-8000-0000000000d1");
    private static final UUID B = UUID.fromString("1a2b3c4d-0000-4000-8000-0000000000db");

    @TempDir
    Path dir;

    @Test
    void aBenchReachesAHostCabledOnItsSecondController() throws Exception {
        try (NetnsLab lab = NetnsLab.create("tc", 1, 1000, 65520)) {
            SysfsFixture.create(Files.createDirectories(dir.resolve("sys-a")))
                    .domain(0, "0000:00:0d.2", A_FIRST).domain(1, "0000:00:0d.3", A_SECOND)
                    .peer(1, "1", B).link(LabHost.LANE_GBPS, 1).network(NetnsLab.interfaceName(0)).done();
            SysfsFixture.create(Files.createDirectories(dir.resolve("sys-b"))).domain(0, "0000:00:0d.2", B)
                    .peer(0, "1", A_SECOND).link(LabHost.LANE_GBPS, 1).network(NetnsLab.interfaceName(0)).done();
            LabBench.Outcome o = new LabBench(lab, dir).run("two-controllers",
                    List.of("write_bw", "-s", "65536", "-n", "200", "--timeout", "30", "--no-perform_warm_up"),
                    List.of());
            assertThat(o.clientOut()).contains("(" + A_SECOND + ")").contains("on cable 0-1");
        }
    }
}
