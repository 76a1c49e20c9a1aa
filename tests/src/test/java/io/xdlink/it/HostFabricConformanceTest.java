package io.xdlink.it;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.xdlink.rails.host.HostFabric;
import io.xdlink.rails.host.HostFabricConfig;
import io.xdlink.rails.tcp.TcpSettings;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.sysfs.SysfsFixture;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The fabric conformance suite over a real host's fabric: two hosts in this process, each with a fake sysfs tree
 * (Jimfs) naming one Gen 3 link of two 20 Gb/s lanes to the other over the loopback interface, on ports the OS
 * picks; b dials a's session listener. Keepalives are slow enough that a loaded machine does not lose a live peer,
 * and quick enough that a closed one counts as lost within seconds.
 */
class HostFabricConformanceTest extends FabricConformance {
    private static final UUID A = UUID.fromString("11111111-0000-0000-0000-0000000000fa");
    private static final UUID B = UUID.fromString("22222222-0000-0000-0000-0000000000fb");
    private static final TcpSettings TCP = new TcpSettings(0, 0, 64 << 10, Duration.ofSeconds(20),
            Duration.ofMillis(100), Duration.ofSeconds(3), Duration.ofMillis(50));

    /** A sysfs tree for host {@code self} with one link, route 1 (link id {@code 0-1}), to {@code peer} over lo. */
    private Path tree(UUID self, UUID peer) {
        Path root = closeLater(Jimfs.newFileSystem(Configuration.unix())).getPath("/");
        SysfsFixture.create(root).domain(0, "0000:00:0d.2", self).peer(0, "1", peer).link(20, 2).network("lo").done();
        return root;
    }

    @Override
    protected Pair open() throws Exception {
        HostFabric a = closeLater(HostFabric.open(new HostFabricConfig(tree(A, B), 0, 0, List.<InetSocketAddress>of(),
                Map.of(), TCP)));
        HostFabric b = closeLater(HostFabric.open(new HostFabricConfig(tree(B, A), 0, 0, a.sessionAddresses(),
                Map.of(), TCP)));
        return new Pair(a, b, "0-1", LinkState.of(Generation.GEN3, 2));
    }
}
