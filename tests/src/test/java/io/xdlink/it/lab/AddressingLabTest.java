package io.xdlink.it.lab;

import io.xdlink.it.lab.NetnsLab.Addressing;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code xdlink bench} between the two lab hosts with each way users number thunderbolt-net links: a /30 per cable,
 * a /24 per cable, NetworkManager's 169.254/16 on every cable, and IPv6 link-local only. With two cables the peer
 * must be found on each link and each link's rail must go to the same cable's far end, where every cable has the
 * same subnet (169.254/16, fe80::/64) as much as where each has its own, and each cable must carry its rail's share
 * of the bytes: with every cable in 169.254/16 the kernel routes them all out of the first unless each rail is tied
 * to its interface (it sent 13.5 GB out of one and 2 KB out of the other before). No {@code tcp_peer_address} is given:
 * finding the peer is the fabric's job. The runs skip the warm-up ({@code --no-perform_warm_up}): what is asserted is
 * where the rails go, which the table says before any byte moves, and a warm-up on a shaped cable is two seconds
 * of nothing more ({@code TwoHostBenchTest} and {@code UnshapedLabTest} run with it, as users do).
 */
@Tag("multiprocess")
class AddressingLabTest {
    private static final int CABLES = 2;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Addressing.class)
    void benchFindsThePeerOnEveryCable(Addressing addressing) throws Exception {
        String name = addressing.name().toLowerCase(Locale.ROOT);
        try (NetnsLab lab = NetnsLab.create("ad" + name, CABLES, 1000, 65520, addressing)) {
            LabHost.write(dir.resolve("sys-a"), true, CABLES);
            LabHost.write(dir.resolve("sys-b"), false, CABLES);
            List<String> common = List.of("bench", "write_bw", "-s", "65536", "-n", "200", "--timeout", "30",
                    "--no-perform_warm_up");
            List<String> server = new ArrayList<>(common);
            server.addAll(List.of("-P", "host_root=" + dir.resolve("sys-a")));
            List<String> client = new ArrayList<>(common);
            client.addAll(List.of(lab.serverAddress(), "-P", "host_root=" + dir.resolve("sys-b")));
            Path slog = dir.resolve("server.log");
            Path clog = dir.resolve("client.log");
            long[] before = new long[CABLES];
            for (int k = 0; k < CABLES; k++) {
                before[k] = lab.txBytes(false, k);
            }
            Process s = LabBench.start(lab, true, server, slog);
            Process c = null;
            try {
                LabBench.waitFor(slog, "Waiting for client", s, 120);
                long t0 = System.nanoTime();
                c = LabBench.start(lab, false, client, clog);
                boolean done = c.waitFor(120, TimeUnit.SECONDS) && s.waitFor(30, TimeUnit.SECONDS);
                String out = "client:\n" + LabBench.read(clog) + "\nserver:\n" + LabBench.read(slog);
                assertThat(done).as("finished in time; " + out).isTrue();
                assertThat(c.exitValue()).as(out).isZero();
                assertThat(s.exitValue()).as(out).isZero();
                assertThat(LabBench.read(clog)).as(out).contains("on cable 0-1").contains("on cable 0-3")
                        .doesNotContain("share one cable");
                long[] sent = new long[CABLES];
                long total = 0;
                for (int k = 0; k < CABLES; k++) {
                    sent[k] = lab.txBytes(false, k) - before[k];
                    total += sent[k];
                }
                System.out.printf("%s: the client's cables sent %s bytes%n", addressing, Arrays.toString(sent));
                // 200 messages of 64 KiB striped over two rails: each cable carries about half; a quarter is the
                // floor, far above what a rail routed out of the other cable leaves (hellos, a few KB).
                for (int k = 0; k < CABLES; k++) {
                    assertThat(sent[k]).as("bytes out of %s of %s in all; %s", NetnsLab.interfaceName(k), total, out)
                            .isGreaterThan(total / 4);
                }
                System.out.printf("%s: client ran in %.1f s%n", addressing,
                        (System.nanoTime() - t0) / 1e9);
            } finally {
                LabBench.stop(c, s);
            }
        }
    }
}
