package io.xdlink.it;

import io.xdlink.it.lab.RingLab;
import io.xdlink.rails.verbs.ConnectHandle;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin on three hosts cabled in a ring ({@link RingLab}), each rank a process loading it as NCCL does. A
 * collective library takes a host's devices for ports of one network and connects on whichever it picked to
 * whichever rank comes next in its ring; here host 0 connects on device 0, the cable to host 1, with host 2's
 * handle. The connection must form and carry every message over the cable to host 2, where a device that led only
 * to its own peer refused the handle and the library's connect failed. A handle from a host that is no peer at all
 * is still refused at once, naming this host's peers.
 */
@Tag("multiprocess")
class PluginRingTest {
    /** Each harness wait, and the whole run: a cold JVM on a loaded machine is slow. */
    private static final int DEADLINE_S = 120;

    @Test
    void aRankConnectsOnItsFirstDeviceToTheNeighbourThatListenedOverTheCableToIt(@TempDir Path dir)
            throws Exception {
        try (RingLab lab = RingLab.create("pr", dir)) {
            Path handle = dir.resolve("handle");
            long toNextBefore = lab.txBytes(0, RingLab.TO_NEXT);
            long toPreviousBefore = lab.txBytes(0, RingLab.TO_PREVIOUS);
            Path listenLog = dir.resolve("host2.log");
            Path connectLog = dir.resolve("host0.log");
            Process listen = start(lab, 2, listenLog, "listen", "--handle", handle.toString());
            Process connect = null;
            try {
                // The connecting rank waits for the listener's handle file (one per version) by itself.
                connect = start(lab, 0, connectLog, "connect", "--handle", handle.toString());
                assertThat(connect.waitFor(DEADLINE_S, TimeUnit.SECONDS)).as(read(connectLog)).isTrue();
                assertThat(listen.waitFor(DEADLINE_S, TimeUnit.SECONDS)).as(read(listenLog)).isTrue();
            } finally {
                for (Process p : new Process[] {connect, listen}) {
                    if (p != null && p.isAlive()) {
                        p.destroyForcibly().waitFor();
                    }
                }
            }
            String host0 = read(connectLog);
            String host2 = read(listenLog);
            // Device 0, the one the harness connects on, is the cable to host 1 (route 1 in host 0's tree).
            assertThat(host0).contains("Using [0]xdlink-peer-1 ").contains("PASS v12 connect gives a send comm")
                    .doesNotContain("FAIL").containsPattern("harness: \\d+ passed, 0 failed");
            assertThat(host2).doesNotContain("FAIL").containsPattern("harness: \\d+ passed, 0 failed");
            long toPrevious = lab.txBytes(0, RingLab.TO_PREVIOUS) - toPreviousBefore;
            long toNext = lab.txBytes(0, RingLab.TO_NEXT) - toNextBefore;
            System.out.printf("host 0 sent %d bytes to host 2 and %d towards host 1%n", toPrevious, toNext);
            // The sends carry about half a megabyte (543,341 bytes left by that cable in a quiet run). Towards host 1,
            // which runs nothing, go only the session's dials and hellos: 2,928 bytes in that run, 39,080 in 22 s of
            // a rank left waiting. Half the payload would take them over two minutes, longer than a wait may last.
            assertThat(toPrevious).as("bytes host 0 sent over the cable to host 2").isGreaterThan(400_000L);
            assertThat(toNext).as("bytes host 0 sent towards host 1").isLessThan(toPrevious / 2);
        }
    }

    @Test
    void aHandleFromAHostThatIsNoPeerIsRefusedNamingThisHostsPeers(@TempDir Path dir) throws Exception {
        UUID stranger = UUID.fromString("5e5e5e5e-0000-4000-8000-00000000005e");
        try (RingLab lab = RingLab.create("ps", dir)) {
            Path handle = dir.resolve("handle");
            Files.writeString(Path.of(handle + ".v12"), hex(listenHandle(new ConnectHandle(stranger, 1))));
            Path log = dir.resolve("host0.log");
            Process connect = start(lab, 0, log, "connect", "--handle", handle.toString());
            try {
                assertThat(connect.waitFor(DEADLINE_S, TimeUnit.SECONDS)).as(read(log)).isTrue();
            } finally {
                connect.destroyForcibly().waitFor();
            }
            assertThat(read(log)).contains("connect(0): device 0 (peer-1): the handle names rails device " + stranger
                    + ", but this device leads to this host's peers").contains(RingLab.uuid(1).toString())
                    .contains(RingLab.uuid(2).toString()).contains("FAIL v12 connect gives a send comm");
        }
    }

    /** A 128-byte listen handle as the plugin makes one: magic "XDLH", version 1, the address, no attempt yet. */
    private static byte[] listenHandle(ConnectHandle listener) {
        byte[] address = listener.toBytes();
        ByteBuffer b = ByteBuffer.allocate(128).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0x484C4458).put((byte) 1).put((byte) address.length).put((byte) 0).put((byte) 0).putLong(0)
                .put(address);
        return b.array();
    }

    /** The handle file's form: two hex digits a byte. */
    private static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder();
        for (byte x : bytes) {
            s.append(String.format("%02x", x & 0xFF));
        }
        return s.toString();
    }

    private static Process start(RingLab lab, int host, Path log, String mode, String... args) throws Exception {
        List<String> all = new java.util.ArrayList<>(List.of(mode, "--speed", "40000", "--pci", "--versions", "12",
                "--deadline", Integer.toString(DEADLINE_S)));
        all.addAll(List.of(args));
        return NativeHarness.start(lab.inNamespace(host, List.of()), Map.of(
                "PATH", "/usr/sbin:/usr/bin:/sbin:/bin",
                "NCCL_NET_PLUGIN", NativeHarness.SO.toString(), "JAVA_HOME", NativeHarness.JAVA_HOME,
                "XDLINK_PARAMS", "host_root=" + lab.root(host)), log, all.toArray(String[]::new));
    }

    private static String read(Path log) throws java.io.IOException {
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "(no output yet)";
    }
}
