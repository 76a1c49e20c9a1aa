package io.xdlink.it;

import io.xdlink.xdomain.sysfs.SysfsFixture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two ranks as two processes, each loading the plugin as NCCL does and starting its own JVM, over TCP rails on
 * 127.0.0.1: each host reads a fake sysfs tree whose one peer is the other over a bonded Gen 3 link on {@code lo}.
 * Every ABI version from v12 to v6 connects, moves 32 grouped receives' worth of tagged sends and closes.
 *
 * <p>Rank 0 binds its session listener to port 0 and publishes the port the kernel gave it
 * ({@code tcp_address_file}) beside its listen handle; rank 1 starts once both are there, so no other process can
 * take the port between choosing and binding it. Every wait is in wall-clock time, sized for two JVMs starting
 * cold on a loaded machine: the harness's own waits ({@code --deadline}) and this test's.
 */
@Tag("multiprocess")
class PluginTwoProcessTest {
    private static final UUID A = UUID.fromString("a0000000-0000-4000-8000-00000000000a");
    private static final UUID B = UUID.fromString("b0000000-0000-4000-8000-00000000000b");
    private static final String PCI = "0000:00:0d.2";

    private static Path tree(Path root, UUID self, UUID peer) {
        SysfsFixture.create(root).domain(0, PCI, self).peer(0, "1", peer).link(20, 2).network("lo").done();
        return root;
    }

    /** Each harness wait (handle, connect, accept, a request): generous, since a cold JVM under load is slow. */
    private static final int HARNESS_DEADLINE_S = 180;
    /** The whole run, both ranks: every version after the first connects in well under a second when idle. */
    private static final long RUN_DEADLINE_S = 420;

    /** Waits until rank 0 has written {@code file}; fails with its log when it stopped first or time ran out. */
    private static String awaitFile(Path file, Process rank0, Path log, long deadlineNanos) throws Exception {
        while (System.nanoTime() - deadlineNanos < 0) {
            if (Files.exists(file)) {
                String text = Files.readString(file).strip();
                if (!text.isEmpty()) {
                    return text;
                }
            }
            if (!rank0.isAlive()) {
                throw new AssertionError("rank 0 stopped before writing " + file.getFileName() + ":\n"
                        + Files.readString(log));
            }
            Thread.sleep(20);
        }
        rank0.destroyForcibly();
        throw new AssertionError("rank 0 did not write " + file.getFileName() + " in time:\n" + Files.readString(log));
    }

    @Test
    void everyVersionRunsBetweenTwoProcessesOverTcpRails(@TempDir Path dir) throws Exception {
        everyVersionRuns(dir, "");
    }

    /**
     * The same over two rails on the ranks' one link ({@code rails_per_link=2}): the engine reads both itself and
     * parks no read, a quiet host thread waits on both rails' sockets (the watch), and every receive still holds the
     * sender's bytes.
     */
    @Test
    void everyVersionRunsOverTwoRails(@TempDir Path dir) throws Exception {
        everyVersionRuns(dir, "rails_per_link=2");
    }

    /** Every ABI version between two ranks, both with {@code params} added to their XDLINK_PARAMS. */
    private static void everyVersionRuns(Path dir, String params) throws Exception {
        Path rootA = tree(Files.createDirectories(dir.resolve("a")), A, B);
        Path rootB = tree(Files.createDirectories(dir.resolve("b")), B, A);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RUN_DEADLINE_S);
        Path handle = dir.resolve("handle");
        Path address = dir.resolve("rank0.address");
        Map<String, String> common = Map.of("NCCL_NET_PLUGIN", NativeHarness.SO.toString(),
                "JAVA_HOME", NativeHarness.JAVA_HOME);
        Map<String, String> envA = new java.util.HashMap<>(common);
        envA.put("XDLINK_PARAMS", "host_root=" + rootA + " tcp_control_port=0 tcp_address_file=" + address + " "
                + params);
        Path outA = dir.resolve("rank0.log");
        Path outB = dir.resolve("rank1.log");
        String deadlineArg = Integer.toString(HARNESS_DEADLINE_S);
        Process a = NativeHarness.start(envA, outA, "listen", "--speed", "40000", "--pci", "--handle",
                handle.toString(), "--deadline", deadlineArg);
        Process b = null;
        try {
            String published = awaitFile(address, a, outA, deadline);
            // One handle per version's connection, v12's first.
            awaitFile(dir.resolve("handle.v12"), a, outA, deadline);
            assertThat(published).as("rank 0's session listener").matches("127\\.0\\.0\\.1:[1-9][0-9]*");
            Map<String, String> envB = new java.util.HashMap<>(common);
            // Rank 1's own session listener takes a free port too: a fixed one may be held by anything else here.
            envB.put("XDLINK_PARAMS", "host_root=" + rootB + " tcp_control_port=0 tcp_peer_address=" + published
                    + " " + params);
            b = NativeHarness.start(envB, outB, "connect", "--speed", "40000", "--pci", "--handle",
                    handle.toString(), "--deadline", deadlineArg);
            boolean doneA = a.waitFor(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            boolean doneB = b.waitFor(Math.max(1, deadline - System.nanoTime()) + TimeUnit.SECONDS.toNanos(30),
                    TimeUnit.NANOSECONDS);
            String both = "rank 0:\n" + Files.readString(outA) + "\nrank 1:\n" + Files.readString(outB);
            assertThat(doneA && doneB).as("both ranks finished within " + RUN_DEADLINE_S + " s; " + both).isTrue();
        } finally {
            a.destroyForcibly();
            if (b != null) {
                b.destroyForcibly();
            }
        }
        String logA = Files.readString(outA, StandardCharsets.UTF_8);
        String logB = Files.readString(outB, StandardCharsets.UTF_8);
        String both = "rank 0:\n" + logA + "\nrank 1:\n" + logB;
        assertThat(logA).as(both).contains("harness: ").endsWith("passed, 0 failed\n");
        assertThat(logB).as(both).contains("harness: ").endsWith("passed, 0 failed\n");
        for (int v = 6; v <= 12; v++) {
            assertThat(logA).as(both).contains("PASS v" + v + " every receive done with the sender's bytes and sizes")
                    .contains("PASS v" + v + " speed 40000 Mbps");
            assertThat(logB).as(both).contains("PASS v" + v + " every send done with its size");
        }
        assertThat(logA).contains("pciPath /").contains(PCI);
        assertThat(a.exitValue()).as(both).isZero();
        assertThat(b.exitValue()).as(both).isZero();
    }

    /**
     * The benchmark mode (netbench-lab.sh runs it across the lab) stays runnable: both ranks connect the plugin and a
     * plain socket, stream, ping-pong and close, and rank 0 prints its table. Nothing here depends on the speed.
     */
    @Test
    void netbenchRunsBetweenTwoProcesses(@TempDir Path dir) throws Exception {
        Logs logs = netbench(dir);
        // The figures carry the name the plugin's table gives. The warm-up's first pass prints as round 0, the cold
        // figures; two passes at most were asked for.
        assertThat(logs.a()).as(logs.both())
                .contains("netbench: the plugin's table ncclNetPlugin_v12 names it xdlink\n")
                // The plain socket takes the rails' congestion control; a kernel without cubic leaves its default.
                .containsPattern("netbench: the plain socket's congestion control: [a-z0-9_]+ "
                        + "\\(--socket-cc cubic\\)\n")
                .contains("netbench: round 0 size 65536 x 8: xdlink ")
                .containsPattern("netbench: round 0 was the warm-up's first pass \\(cold\\); the warm-up ran [12] pass")
                .contains("netbench: round 1 size 65536 x 64: xdlink ")
                .contains("netbench: round 1 size 1048576 x 4: xdlink ")
                // A block holds at least two windows of eight requests: 64 messages make four blocks, and four
                // messages one.
                .contains("netbench: round 1 size 65536 in 4 blocks taken in turns with the socket's: xdlink over "
                        + "socket per block, ")
                .contains("netbench: round 1 size 1048576 in 1 block taken in turns with the socket's: xdlink over "
                        + "socket per block, ")
                .contains("netbench: round 1 8-byte round trip over 200: xdlink median ")
                .contains("socket polling with a yield after each empty look median ")
                .containsPattern("netbench: round 1 size 65536 gaps between received messages: xdlink " + GAPS
                        + "; socket " + GAPS + "\n")
                .contains("netbench: round 1 8-byte round trip in 8 blocks taken in turns with the sockets': xdlink "
                        + "median over the median polling with a yield, per block, ")
                .endsWith("harness: 2 passed, 0 failed\n");
        assertThat(logs.b()).as(logs.both()).contains("netbench: round 1 size 65536: isend answered not-yet ")
                .endsWith("harness: 2 passed, 0 failed\n");
        assertGapsAddUp(logs);
    }

    /** One way's gaps between received messages, as netbench prints them: the longest, and the stalls over 10 ms. */
    private static final String GAPS = "longest [0-9.]+ ms, [0-9.]+ ms in [0-9]+ over 10 ms";
    private static final Pattern GAP_FIGURES =
            Pattern.compile("longest ([0-9.]+) ms, ([0-9.]+) ms in ([0-9]+) over 10 ms");

    /**
     * Every gaps figure rank 0 printed is one a stream can have: stalls counted exactly when time was counted in them,
     * and then a longest gap over 10 ms and no longer than the stalls' time together. The longest gap may print as 0.0
     * ms: a 64 KiB read over one host's sockets can take less than 0.05 ms.
     */
    private static void assertGapsAddUp(Logs logs) {
        int figures = 0;
        for (String line : logs.a().split("\n")) {
            if (!line.contains(" gaps between received messages: ")) {
                continue;
            }
            Matcher m = GAP_FIGURES.matcher(line);
            while (m.find()) {
                figures++;
                double longest = Double.parseDouble(m.group(1)), stalled = Double.parseDouble(m.group(2));
                long stalls = Long.parseLong(m.group(3));
                assertThat(longest).as(line).isNotNegative();
                assertThat(stalls > 0).as(line).isEqualTo(stalled > 0);
                if (stalls > 0) {
                    assertThat(longest).as(line).isGreaterThanOrEqualTo(10.0).isLessThanOrEqualTo(stalled + 0.05);
                }
            }
        }
        assertThat(figures).as(logs.both()).isPositive();
    }

    /**
     * With {@code --plugin-only} the socket's blocks are left out: rank 0 prints the plugin's own rate, per block too,
     * and its round trip, and no figure of the plain socket, which only carries the barriers.
     */
    @Test
    void netbenchPluginOnlyLeavesTheSocketsBlocksOut(@TempDir Path dir) throws Exception {
        Logs logs = netbench(dir, "--plugin-only");
        assertThat(logs.a()).as(logs.both())
                .containsPattern("netbench: round 1 size 65536 x 64: xdlink [0-9.]+ Gb/s \\(no socket blocks\\)\n")
                .containsPattern("netbench: round 1 size 65536 in 4 blocks: xdlink Gb/s per block [0-9.]+-[0-9.]+, "
                        + "median [0-9.]+, first [0-9.]+, last [0-9.]+\n")
                .containsPattern("netbench: round 1 size 1048576 in 1 block: xdlink Gb/s per block ")
                .containsPattern("netbench: round 1 size 65536 gaps between received messages: xdlink " + GAPS + "\n")
                .containsPattern("netbench: round 1 8-byte round trip over 200: xdlink median [0-9.]+ us p99 [0-9.]+ "
                        + "us \\(no socket blocks\\); median per block [0-9.]+-[0-9.]+ us\n")
                .doesNotContain("socket per block").doesNotContain("socket polling").doesNotContain("ratio")
                .endsWith("harness: 2 passed, 0 failed\n");
        assertThat(logs.b()).as(logs.both()).contains("netbench: round 1 size 65536: isend answered not-yet ")
                .endsWith("harness: 2 passed, 0 failed\n");
        assertGapsAddUp(logs);
    }

    /** Both ranks' whole output, and both together to show when an assertion fails. */
    private record Logs(String a, String b) {
        String both() {
            return "rank 0:\n" + a + "\nrank 1:\n" + b;
        }
    }

    /** Runs netbench's two ranks on small sizes with {@code extra} options and returns their output once both ended. */
    /** The benchmark over two rails between the ranks ({@code rails_per_link=2}): streams and round trips finish. */
    @Test
    void netbenchRunsOverTwoRails(@TempDir Path dir) throws Exception {
        Logs logs = netbenchWith(dir, "rails_per_link=2", "--plugin-only");
        assertThat(logs.a()).as(logs.both())
                .contains("netbench: round 1 size 65536 x 64: xdlink ")
                .contains("netbench: round 1 size 1048576 x 4: xdlink ")
                .contains("netbench: round 1 8-byte round trip over 200: xdlink median ")
                .endsWith("harness: 2 passed, 0 failed\n");
        assertThat(logs.b()).as(logs.both()).endsWith("harness: 2 passed, 0 failed\n");
        assertGapsAddUp(logs);
    }

    private static Logs netbench(Path dir, String... extra) throws Exception {
        return netbenchWith(dir, "", extra);
    }

    /** netbench between two ranks, both with {@code params} added to their XDLINK_PARAMS. */
    private static Logs netbenchWith(Path dir, String params, String... extra) throws Exception {
        Path rootA = tree(Files.createDirectories(dir.resolve("a")), A, B);
        Path rootB = tree(Files.createDirectories(dir.resolve("b")), B, A);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RUN_DEADLINE_S);
        Path handle = dir.resolve("handle");
        Path address = dir.resolve("rank0.address");
        Map<String, String> envA = new java.util.HashMap<>(Map.of("NCCL_NET_PLUGIN", NativeHarness.SO.toString(),
                "JAVA_HOME", NativeHarness.JAVA_HOME));
        Map<String, String> envB = new java.util.HashMap<>(envA);
        envA.put("XDLINK_PARAMS", "host_root=" + rootA + " tcp_control_port=0 tcp_address_file=" + address + " "
                + params);
        Path outA = dir.resolve("rank0.log");
        Path outB = dir.resolve("rank1.log");
        String[] options = concat(new String[]{"--handle", handle.toString(), "--sizes", "65536,1048576", "--bytes",
                "4194304", "--iterations", "200", "--warmup-passes", "2"}, extra);
        Process a = NativeHarness.start(envA, outA, concat(new String[]{"netbench", "--rank", "0"}, options));
        // Rank 0's session listener takes a port from the kernel and publishes it; rank 1 dials what it says.
        envB.put("XDLINK_PARAMS", "host_root=" + rootB + " tcp_control_port=0 tcp_peer_address="
                + awaitFile(address, a, outA, deadline) + " " + params);
        Process b = NativeHarness.start(envB, outB, concat(new String[]{"netbench", "--rank", "1"}, options));
        boolean doneA = a.waitFor(300, TimeUnit.SECONDS);
        boolean doneB = b.waitFor(60, TimeUnit.SECONDS);
        if (!doneA || !doneB) {
            a.destroyForcibly();
            b.destroyForcibly();
        }
        Logs logs = new Logs(Files.readString(outA, StandardCharsets.UTF_8), Files.readString(outB,
                StandardCharsets.UTF_8));
        assertThat(doneA && doneB).as(logs.both()).isTrue();
        return logs;
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
