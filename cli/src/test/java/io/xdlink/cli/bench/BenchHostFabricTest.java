package io.xdlink.cli.bench;

import io.xdlink.cli.host.CliRun;
import io.xdlink.xdomain.sysfs.SysfsFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Path;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** What `xdlink bench` says when the host fabric cannot open: each cause with its own cure. */
class BenchHostFabricTest {
    private static final UUID SELF = UUID.fromString("a0000000-0000-4000-8000-00000000000a");
    private static final UUID PEER = UUID.fromString("b0000000-0000-4000-8000-00000000000b");

    @Test
    void aSessionPortAnotherProcessHoldsIsNamedWithoutSendingTheUserToTheSimulator(@TempDir Path root)
            throws Exception {
        SysfsFixture.create(root).domain(0, "0000:00:0d.2", SELF).peer(0, "1", PEER).link(20, 2).network("lo").done();
        try (ServerSocketChannel other = ServerSocketChannel.open()) {
            other.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            int port = ((InetSocketAddress) other.getLocalAddress()).getPort();
            CliRun r = CliRun.main("bench", "write_bw", "-P", "host_root=" + root, "-P", "tcp_control_port=" + port,
                    "127.0.0.1");
            assertThat(r.exit()).as(r.out()).isNotZero();
            assertThat(r.err()).contains("xdlink: no fabric: the host fabric failed to open: no link of this host is"
                    + " free for xdlink: link 0-1 (lo): no rails: session port 127.0.0.1:" + port
                    + " (tcp_control_port) is in use, most likely by another xdlink process on this host")
                    .doesNotContain("--loopback");
        }
    }

    @Test
    void aHostWithoutUsb4IsStillPointedAtTheSimulator(@TempDir Path root) {
        CliRun r = CliRun.main("bench", "write_bw", "-P", "host_root=" + root, "127.0.0.1");
        assertThat(r.exit()).as(r.out()).isNotZero();
        assertThat(r.err()).contains("no USB4 host under " + root)
                .contains("with no USB4 hardware, run both ends here: xdlink bench <test> --loopback");
    }
}
