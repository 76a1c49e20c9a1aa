package io.xdlink.it;

import io.xdlink.xdomain.sysfs.SysfsFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two ranks as two processes, each loading the plugin as NCCL does and starting its own JVM, over TCP rails on
 * 127.0.0.1: each host reads a fake sysfs tree whose one peer is the other over a bonded Gen 3 link on {@code lo}.
 * Every ABI version from v12 to v6 connects, moves 32 grouped receives' worth of tagged sends and closes.
 */
class PluginTwoProcessTest {
    private static final UUID A = UUID.fromString("a0000000-0000-4000-8000-00000000000a");
    private static final UUID B = UUID.fromString("b0000000-0000-4000-8000-00000000000b");
    private static final String PCI = "0000:00:0d.2";

    private static Path tree(Path root, UUID self, UUID peer) {
        SysfsFixture.create(root).domain(0, PCI, self).peer(0, "1", peer).link(20, 2).network("lo").done();
        return root;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void everyVersionRunsBetweenTwoProcessesOverTcpRails(@TempDir Path dir) throws Exception {
        Path rootA = tree(Files.createDirectories(dir.resolve("a")), A, B);
        Path rootB = tree(Files.createDirectories(dir.resolve("b")), B, A);
        int port = freePort();
        Path handle = dir.resolve("handle");
        Map<String, String> common = Map.of("NCCL_NET_PLUGIN", NativeHarness.SO.toString(),
                "JAVA_HOME", NativeHarness.JAVA_HOME);
        Map<String, String> envA = new java.util.HashMap<>(common);
        envA.put("XDLINK_PARAMS", "host_root=" + rootA + " tcp_control_port=" + port);
        Map<String, String> envB = new java.util.HashMap<>(common);
        envB.put("XDLINK_PARAMS", "host_root=" + rootB + " tcp_peer_address=127.0.0.1:" + port);
        Path outA = dir.resolve("rank0.log");
        Path outB = dir.resolve("rank1.log");
        Process a = NativeHarness.start(envA, outA, "listen", "--speed", "40000", "--pci", "--handle",
                handle.toString());
        Process b = NativeHarness.start(envB, outB, "connect", "--speed", "40000", "--pci", "--handle",
                handle.toString());
        boolean doneA = a.waitFor(300, TimeUnit.SECONDS);
        boolean doneB = b.waitFor(60, TimeUnit.SECONDS);
        if (!doneA || !doneB) {
            a.destroyForcibly();
            b.destroyForcibly();
        }
        String logA = Files.readString(outA, StandardCharsets.UTF_8);
        String logB = Files.readString(outB, StandardCharsets.UTF_8);
        String both = "rank 0:\n" + logA + "\nrank 1:\n" + logB;
        assertThat(doneA && doneB).as(both).isTrue();
        assertThat(logA).as(both).contains("harness: ").endsWith("passed, 0 failed\n");
        assertThat(logB).as(both).contains("harness: ").endsWith("passed, 0 failed\n");
        for (int v = 6; v <= 12; v++) {
            assertThat(logA).as(both).contains("PASS v" + v + " every receive done with the sender's bytes and sizes")
                    .contains("PASS v" + v + " speed 40000 Mbps");
            assertThat(logB).as(both).contains("PASS v" + v + " every send done with its size");
        }
        assertThat(logA).contains("pciPath /").contains(PCI);
        assertThat(a.exitValue()).isZero();
        assertThat(b.exitValue()).isZero();
    }

    /**
     * The benchmark mode (netbench-lab.sh runs it across the lab) stays runnable: both ranks connect the plugin and a
     * plain socket, stream, ping-pong and close, and rank 0 prints its table. Nothing here depends on the speed.
     */
    @Test
    void netbenchRunsBetweenTwoProcesses(@TempDir Path dir) throws Exception {
        Path rootA = tree(Files.createDirectories(dir.resolve("a")), A, B);
        Path rootB = tree(Files.createDirectories(dir.resolve("b")), B, A);
        int port = freePort();
        Path handle = dir.resolve("handle");
        Map<String, String> envA = new java.util.HashMap<>(Map.of("NCCL_NET_PLUGIN", NativeHarness.SO.toString(),
                "JAVA_HOME", NativeHarness.JAVA_HOME));
        Map<String, String> envB = new java.util.HashMap<>(envA);
        envA.put("XDLINK_PARAMS", "host_root=" + rootA + " tcp_control_port=" + port);
        envB.put("XDLINK_PARAMS", "host_root=" + rootB + " tcp_peer_address=127.0.0.1:" + port);
        Path outA = dir.resolve("rank0.log");
        Path outB = dir.resolve("rank1.log");
        String[] options = {"--handle", handle.toString(), "--sizes", "65536,1048576", "--bytes", "4194304",
                "--iterations", "200"};
        Process a = NativeHarness.start(envA, outA, concat(new String[]{"netbench", "--rank", "0"}, options));
        Process b = NativeHarness.start(envB, outB, concat(new String[]{"netbench", "--rank", "1"}, options));
        boolean doneA = a.waitFor(300, TimeUnit.SECONDS);
        boolean doneB = b.waitFor(60, TimeUnit.SECONDS);
        if (!doneA || !doneB) {
            a.destroyForcibly();
            b.destroyForcibly();
        }
        String logA = Files.readString(outA, StandardCharsets.UTF_8);
        String logB = Files.readString(outB, StandardCharsets.UTF_8);
        String both = "rank 0:\n" + logA + "\nrank 1:\n" + logB;
        assertThat(doneA && doneB).as(both).isTrue();
        assertThat(logA).as(both).contains("netbench: round 1 size 65536 x 64: xdlink ")
                .contains("netbench: round 1 size 1048576 x 4: xdlink ")
                .contains("netbench: round 1 8-byte round trip over 200: xdlink median ")
                .endsWith("harness: 2 passed, 0 failed\n");
        assertThat(logB).as(both).contains("netbench: round 1 size 65536: isend answered not-yet ")
                .endsWith("harness: 2 passed, 0 failed\n");
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
