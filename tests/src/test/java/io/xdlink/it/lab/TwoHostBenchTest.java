package io.xdlink.it.lab;

import io.xdlink.cli.bench.BenchReport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two-box lab on one machine: {@code xdlink bench write_bw} as server in namespace a and client in namespace b,
 * two veth "cables" shaped to {@value #RATE_MBIT} Mbit/s each, fake sysfs trees saying each link negotiated one Gen 2
 * lane. The numbers asked of it are the field's: one rail fills its cable, two rails on two cables add up, two rails
 * on one cable add nothing, and the link speed xdlink reports is what the tree negotiated.
 *
 * <p>The shaped rate is low enough that two cables' worth of traffic through two processes does not run out of
 * processor on a shared 2-core machine, even with other work on it (at 2000 Mbit/s the two-cable run measured what
 * the processors, not the cables, allowed; at 1000 Mbit/s it did so once under a load average of 10), and every run
 * warms up first ({@code --perform_warm_up}) so a cold process's first second of
 * class loading and compilation is not what a 300-iteration row measures.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("multiprocess")
class TwoHostBenchTest {
    static final int RATE_MBIT = 500;
    private static final int CABLES = 2;
    private static final String SIZE = "1M";
    private static final String ITERS = "300";

    @TempDir
    static Path dir;
    private static NetnsLab lab;
    private static double oneRailGbps;

    @BeforeAll
    static void build() {
        lab = NetnsLab.create("bw", CABLES, RATE_MBIT, 65520);
        LabHost.write(dir.resolve("sys-a"), true, CABLES);
        LabHost.write(dir.resolve("sys-b"), false, CABLES);
    }

    @AfterAll
    static void tearDown() {
        if (lab != null) {
            lab.close();
        }
    }

    @Test
    @Order(1)
    void oneRailFillsItsCableAndReportsTheTreesSpeed() throws Exception {
        Run r = run("one", List.of("--rail", "thunderbolt0"));
        assertThat(r.clientOut()).contains("Link 0-1        : Gen 2 x1, 10 Gb/s via thunderbolt0")
                .contains("on cable 0-1").doesNotContain("on cable 0-3");
        // Both sides print the same row.
        assertThat(r.serverRow()).isEqualTo(r.clientRow());
        oneRailGbps = r.gbps();
        assertThat(oneRailGbps).as(r.describe()).isGreaterThanOrEqualTo(0.85 * RATE_MBIT / 1000.0);
    }

    @Test
    @Order(2)
    void twoRailsOnTwoCablesAddUp() throws Exception {
        Run r = run("two-cables", List.of());
        assertThat(r.clientOut()).contains("on cable 0-1").contains("on cable 0-3");
        assertThat(r.gbps()).as(r.describe() + " against one rail at " + oneRailGbps)
                .isGreaterThanOrEqualTo(1.8 * oneRailGbps);
    }

    @Test
    @Order(3)
    void twoRailsOnOneCableAddNothing() throws Exception {
        Run r = run("one-cable", List.of("--rail", "thunderbolt0", "-P", "rails_per_link=2"));
        assertThat(r.clientOut()).contains("Rail 1").doesNotContain("on cable 0-3");
        assertThat(r.gbps()).as(r.describe() + " against one rail at " + oneRailGbps)
                .isLessThanOrEqualTo(1.1 * oneRailGbps);
    }

    /** One server/client pair; returns the client's table and result. */
    private Run run(String name, List<String> extra) throws IOException, InterruptedException {
        Path json = dir.resolve(name + ".json");
        List<String> common = new ArrayList<>(List.of("bench", "write_bw", "--report_gbits", "--perform_warm_up", "-s", SIZE, "-n", ITERS,
                "--timeout", "60"));
        common.addAll(extra);
        List<String> server = new ArrayList<>(common);
        server.addAll(List.of("-P", "host_root=" + dir.resolve("sys-a")));
        List<String> client = new ArrayList<>(common);
        client.addAll(List.of(NetnsLab.address(0, true), "-P", "host_root=" + dir.resolve("sys-b"), "--json",
                json.toString()));
        Process s = start(true, server, dir.resolve(name + "-server.log"));
        try {
            waitFor(dir.resolve(name + "-server.log"), "Waiting for client", s);
            Process c = start(false, client, dir.resolve(name + "-client.log"));
            boolean clientDone = c.waitFor(240, TimeUnit.SECONDS);
            boolean serverDone = s.waitFor(60, TimeUnit.SECONDS);
            String cout = Files.readString(dir.resolve(name + "-client.log"));
            String sout = Files.readString(dir.resolve(name + "-server.log"));
            assertThat(clientDone && serverDone).as("finished in time; client:\n" + cout + "\nserver:\n" + sout)
                    .isTrue();
            assertThat(c.exitValue()).as("client:\n" + cout + "\nserver:\n" + sout).isZero();
            assertThat(s.exitValue()).as("server:\n" + sout).isZero();
            // The client's table goes to the test's output, so a run's figures can be read back from the reports.
            System.out.println(name + ":\n" + cout);
            BenchReport report = BenchReport.fromJson(json.toString(), Files.readString(json));
            return new Run(cout, sout, report.bw().getFirst().average());
        } finally {
            s.destroyForcibly();
        }
    }

    private static Process start(boolean hostA, List<String> args, Path log) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                "io.xdlink.cli.Main"));
        cmd.addAll(args);
        return new ProcessBuilder(lab.inNamespace(hostA, cmd)).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
    }

    private static void waitFor(Path log, String text, Process p) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log).contains(text)) {
                return;
            }
            if (!p.isAlive()) {
                throw new AssertionError("the server stopped: " + Files.readString(log));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the server never said '" + text + "': " + Files.readString(log));
    }

    private record Run(String clientOut, String serverOut, double gbps) {
        String clientRow() {
            return row(clientOut);
        }

        String serverRow() {
            return row(serverOut);
        }

        private static String row(String out) {
            return out.lines().filter(l -> l.startsWith(" 1048576 ")).findFirst().orElse("(no row)");
        }

        String describe() {
            return gbps + " Gb/s; client:\n" + clientOut;
        }
    }
}
