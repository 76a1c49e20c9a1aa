package io.xdlink.it;

import io.xdlink.xdomain.sysfs.SysfsFixture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the plugin is found and what happens when it cannot run (no Java, or this host's links held by another
 * process): the host must get an error from init and a log line saying why, so it falls back to its internal
 * transports.
 */
@Tag("multiprocess")
class PluginStartupTest {

    @Test
    void aLibraryWithoutItsJarsFailsInitWithAReasonAndTheHostGoesOn(@TempDir Path dir) throws Exception {
        Path lonely = dir.resolve("libnccl-net-xdlink.so");
        Files.copy(NativeHarness.SO, lonely);
        NativeHarness.Run run = NativeHarness.run(Map.of("NCCL_NET_PLUGIN", lonely.toString(),
                "JAVA_HOME", NativeHarness.JAVA_HOME), 120, "threads", "--speed", "40000", "--versions", "12",
                "--no-reopen");
        assertThat(run.output()).contains("NET/Plugin: Loaded net plugin xdlink (v12)")
                .contains("NCCL WARN NET/xdlink : cannot run Java, so this plugin is unavailable: no jars beside "
                        + lonely)
                .contains("FAIL v12 init");
        assertThat(run.exit()).isEqualTo(1);
    }

    @Test
    void aRankWhoseHostsLinksAnotherProcessHoldsFailsInitNamingThePort(@TempDir Path dir) throws Exception {
        Path root = Files.createDirectories(dir.resolve("host"));
        SysfsFixture.create(root).domain(0, "0000:00:0d.2", UUID.fromString("a0000000-0000-4000-8000-00000000000a"))
                .peer(0, "1", UUID.fromString("b0000000-0000-4000-8000-00000000000b")).link(20, 2).network("lo")
                .done();
        // Another rank (or an xdlink bench) on this host holds the session port of its one link.
        try (ServerSocketChannel other = ServerSocketChannel.open()) {
            other.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            int port = ((InetSocketAddress) other.getLocalAddress()).getPort();
            NativeHarness.Run run = NativeHarness.run(Map.of("NCCL_NET_PLUGIN", NativeHarness.SO.toString(),
                    "JAVA_HOME", NativeHarness.JAVA_HOME, "XDLINK_PARAMS", "host_root=" + root + " tcp_control_port="
                    + port), 120, "threads", "--speed", "40000", "--versions", "12", "--no-reopen");
            assertThat(run.output()).contains("NCCL WARN NET/xdlink : init: the host fabric failed to open: no link"
                    + " of this host is free for xdlink: link 0-1 (lo): no rails: session port 127.0.0.1:" + port
                    + " (tcp_control_port) is in use, most likely by another xdlink process on this host")
                    .doesNotContain("loopback=1")
                    .contains("FAIL v12 init");
            assertThat(run.exit()).isEqualTo(1);
        }
    }

    @Test
    void aJavaHomeOlderThan25IsSkippedWithItsReason(@TempDir Path dir) throws Exception {
        Path fakeHome = dir.resolve("jdk17");
        Files.createDirectories(fakeHome.resolve("lib/server"));
        Files.writeString(fakeHome.resolve("lib/server/libjvm.so"), "not a library");
        Files.writeString(fakeHome.resolve("release"), "JAVA_VERSION=\"17.0.12\"\n");
        Path lonely = dir.resolve("libnccl-net-xdlink.so");
        Files.copy(NativeHarness.SO, lonely);
        Files.writeString(dir.resolve("empty.jar"), "");
        NativeHarness.Run run = NativeHarness.run(Map.of("NCCL_NET_PLUGIN", lonely.toString(),
                "XDLINK_JAVA_HOME", fakeHome.toString(), "JAVA_HOME", dir.resolve("missing").toString()), 120,
                "threads", "--speed", "40000", "--versions", "12", "--no-reopen");
        // The build JDK is the last resort and does start; the skipped homes do not stop it.
        assertThat(run.output()).contains("NET/xdlink : passed over: XDLINK_JAVA_HOME=" + fakeHome
                        + " is Java 17, needs 25 or newer; JAVA_HOME=" + dir.resolve("missing") + " has no lib/server/libjvm.so")
                .contains("starting Java from " + NativeHarness.JAVA_HOME + " failed: cannot load "
                        + "io.xdlink.ccl.abi.NativeBridge from the class path");
    }

    @Test
    void theShortNameFindsLibncclNetXdlinkOnTheLibraryPath() throws Exception {
        NativeHarness.Run run = NativeHarness.run(Map.of("NCCL_NET_PLUGIN", "xdlink",
                "LD_LIBRARY_PATH", NativeHarness.PLUGIN_DIR.toString(), "JAVA_HOME", NativeHarness.JAVA_HOME), 120,
                "threads", "--speed", "40000", "--versions", "12", "--no-reopen");
        assertThat(run.output()).contains("ncclOsDlopen(xdlink) failed")
                .contains("Successfully loaded external network plugin libnccl-net-xdlink.so")
                .contains("PASS the loader picks ncclNetPlugin_v12 first");
    }

    @Test
    void rcclsNameFindsLibrcclNetXdlink() throws Exception {
        NativeHarness.Run run = NativeHarness.run(Map.of("NCCL_NET_PLUGIN", "xdlink",
                "LD_LIBRARY_PATH", NativeHarness.PLUGIN_DIR.toString(), "JAVA_HOME", NativeHarness.JAVA_HOME), 120,
                "threads", "--speed", "40000", "--versions", "12", "--no-reopen", "--rccl");
        assertThat(run.output()).contains("Successfully loaded external network plugin librccl-net-xdlink.so");
    }
}
