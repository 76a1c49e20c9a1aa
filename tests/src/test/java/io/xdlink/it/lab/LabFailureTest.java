package io.xdlink.it.lab;

import io.xdlink.it.stress.BusyLoops;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the two lab hosts do when one side fails or is starved, measured as a user meets it: a server whose client
 * stopped or died, a client whose server died, a peer descheduled for two seconds, a host loaded to three times its
 * core count, a rail closed underneath a run, and stray connections to the bench port. Noticing takes the session
 * keepalive (3 s by default) plus the time to act on it; the bound asserted here, {@value #NOTICE_BOUND_S} s, is
 * loose so a loaded machine passes, and still far under the exchange timeout (60 s) or the peer timeout (10 s)
 * that used to decide. Each measured time is printed.
 *
 * <p>The runs skip the warm-up ({@code --no-perform_warm_up}), so a failure lands in the measured run itself, which
 * moves the same writes through the same engine: a warm-up adds two seconds or more to each run here (more when a
 * peer is stopped in the middle of it, as its rate then never levels), and the tests that time warm-ups and rates
 * ({@code TwoHostBenchTest}, {@code UnshapedLabTest}) keep it on, as users do.
 */
@Tag("multiprocess")
class LabFailureTest {
    private static final long NOTICE_BOUND_S = 20;

    @TempDir
    static Path dir;
    private static NetnsLab lab;
    /** Numbers each run's logs across the class: JUnit makes an instance per test, so a field there restarts at 0. */
    private static final AtomicInteger RUNS = new AtomicInteger();

    @BeforeAll
    static void build() {
        lab = NetnsLab.create("fl", 1, 1000, 65520);
        LabHost.write(dir.resolve("sys-a"), true, 1);
        LabHost.write(dir.resolve("sys-b"), false, 1);
    }

    @AfterAll
    static void tearDown() {
        if (lab != null) {
            lab.close();
        }
    }

    /** A server and a client running write_bw for {@code seconds}, the client past its set-up. */
    private Pair start(int seconds) throws Exception {
        int run = RUNS.incrementAndGet();
        List<String> common = List.of("bench", "write_bw", "-s", "65536", "-D", Integer.toString(seconds),
                "--timeout", "60", "--no-perform_warm_up");
        List<String> server = new ArrayList<>(common);
        server.addAll(List.of("-P", "host_root=" + dir.resolve("sys-a")));
        List<String> client = new ArrayList<>(common);
        client.addAll(List.of(NetnsLab.address(0, true), "-P", "host_root=" + dir.resolve("sys-b")));
        Path slog = dir.resolve(run + "-server.log");
        Path clog = dir.resolve(run + "-client.log");
        Process s = LabBench.start(lab, true, server, slog);
        LabBench.waitFor(slog, "Waiting for client", s, 120);
        Process c = LabBench.start(lab, false, client, clog);
        // The table's header comes once the queue pairs are up, right before the measuring starts.
        LabBench.waitFor(clog, "#bytes", c, 120);
        return new Pair(s, c, slog, clog);
    }

    private record Pair(Process server, Process client, Path serverLog, Path clientLog) implements AutoCloseable {
        String logs() throws Exception {
            return "client:\n" + LabBench.read(clientLog) + "\nserver:\n" + LabBench.read(serverLog);
        }

        @Override
        public void close() {
            LabBench.stop(client, server);
        }
    }

    /** Seconds until {@code p} exits, at most {@code bound} (then -1). */
    private static double secondsUntilExit(Process p, long t0, long bound) throws InterruptedException {
        if (!p.waitFor(bound, TimeUnit.SECONDS)) {
            return -1;
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    @Test
    void theServerNoticesAStoppedClientWithinTheKeepalive() throws Exception {
        try (Pair p = start(60)) {
            Thread.sleep(500);
            long t0 = System.nanoTime();
            LabBench.signal(p.client(), "STOP");
            double took = secondsUntilExit(p.server(), t0, NOTICE_BOUND_S);
            System.out.printf("server noticed a stopped client in %.1f s%n", took);
            assertThat(took).as(p.logs()).isPositive();
            assertThat(p.server().exitValue()).isEqualTo(1);
            assertThat(LabBench.read(p.serverLog())).contains("xdlink: lost the client: peer ")
                    .contains("keepalive timeout");
            LabBench.signal(p.client(), "KILL");
        }
    }

    @Test
    void theServerNoticesAKilledClientAtOnce() throws Exception {
        try (Pair p = start(60)) {
            Thread.sleep(500);
            long t0 = System.nanoTime();
            LabBench.signal(p.client(), "KILL");
            double took = secondsUntilExit(p.server(), t0, NOTICE_BOUND_S);
            System.out.printf("server noticed a killed client in %.1f s%n", took);
            assertThat(took).as(p.logs()).isPositive();
            assertThat(p.server().exitValue()).isEqualTo(1);
        }
    }

    @Test
    void theClientNoticesAKilledServerWithinTheKeepalive() throws Exception {
        try (Pair p = start(60)) {
            Thread.sleep(500);
            long t0 = System.nanoTime();
            LabBench.signal(p.server(), "KILL");
            double took = secondsUntilExit(p.client(), t0, NOTICE_BOUND_S);
            System.out.printf("client noticed a killed server in %.1f s%n", took);
            assertThat(took).as(p.logs()).isPositive();
            assertThat(p.client().exitValue()).isEqualTo(1);
            assertThat(LabBench.read(p.clientLog())).as(p.logs()).contains("xdlink: lost the server: peer ")
                    .doesNotContain("RETRY_EXCEEDED");
        }
    }

    @Test
    void aPeerDescheduledForTwoSecondsIsSlowNotDead() throws Exception {
        for (boolean stopServer : new boolean[] {true, false}) {
            try (Pair p = start(5)) {
                Thread.sleep(1000);
                Process victim = stopServer ? p.server() : p.client();
                LabBench.signal(victim, "STOP");
                Thread.sleep(2000);
                LabBench.signal(victim, "CONT");
                boolean done = p.client().waitFor(120, TimeUnit.SECONDS) && p.server().waitFor(30, TimeUnit.SECONDS);
                assertThat(done).as(p.logs()).isTrue();
                assertThat(p.client().exitValue()).as((stopServer ? "server" : "client") + " paused; " + p.logs())
                        .isZero();
                assertThat(p.server().exitValue()).as(p.logs()).isZero();
            }
        }
    }

    @Test
    void aRailClosedUnderneathIsReopenedAndItsQueuePairsGoOn() throws Exception {
        try (Pair p = start(6)) {
            Thread.sleep(1000);
            // Every connection of host b but the sessions (port 18520) and the bench's own (18515): the rail.
            String filter = "dport != :18520 and sport != :18520 and dport != :18515";
            String killed = NetnsLab.exec("ip", "netns", "exec", lab.namespaceB(), "ss", "-K", "-tn", "state",
                    "established", filter);
            assertThat(killed.lines().count()).as("ss -K closed the rail: " + killed).isGreaterThan(1);
            boolean done = p.client().waitFor(120, TimeUnit.SECONDS) && p.server().waitFor(30, TimeUnit.SECONDS);
            assertThat(done).as(p.logs()).isTrue();
            assertThat(p.client().exitValue()).as(killed + p.logs()).isZero();
            assertThat(p.server().exitValue()).as(p.logs()).isZero();
        }
    }

    /** Brings its own busy loops, so the stress pass, whose loops would add to them, leaves it out. */
    @Test
    @Tag("not-under-load")
    void aRunUnderLoadAtThreeTimesTheCoreCountCompletes() throws Exception {
        int loops = 3 * Runtime.getRuntime().availableProcessors();
        try (BusyLoops load = BusyLoops.start(loops, Duration.ofMinutes(5)); Pair p = start(4)) {
            boolean done = p.client().waitFor(180, TimeUnit.SECONDS) && p.server().waitFor(30, TimeUnit.SECONDS);
            assertThat(done).as(p.logs()).isTrue();
            assertThat(p.client().exitValue()).as(load.count() + " busy loops; " + p.logs()).isZero();
            assertThat(p.server().exitValue()).as(p.logs()).isZero();
        }
    }

    @Test
    void strayConnectionsAreDroppedAndTheServerStillTakesARealClient() throws Exception {
        int run = RUNS.incrementAndGet();
        List<String> args = List.of("bench", "write_bw", "-s", "65536", "-n", "100", "--timeout", "60",
                "--no-perform_warm_up");
        List<String> server = new ArrayList<>(args);
        server.addAll(List.of("-P", "host_root=" + dir.resolve("sys-a")));
        Path slog = dir.resolve(run + "-server.log");
        Process s = LabBench.start(lab, true, server, slog);
        Process c = null;
        try {
            LabBench.waitFor(slog, "Waiting for client", s, 120);
            String to = "/dev/tcp/" + NetnsLab.address(0, true) + "/18515";
            // An HTTP request, bytes that are nobody's protocol, and a connection that says nothing: each is
            // dropped (the read of the reply ends), the last after the 5 s greeting wait.
            for (String send : List.of("printf 'GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n' >&3",
                    "head -c 300 /dev/urandom >&3", ":")) {
                long t0 = System.nanoTime();
                String out = probe(to, send);
                System.out.printf("stray connection (%s) dropped after %.1f s%n", send,
                        (System.nanoTime() - t0) / 1e9);
                assertThat(out.lines().map(String::strip).toList()).as(out).containsExactly("connected", "sent",
                        "read 0");
            }
            List<String> client = new ArrayList<>(args);
            client.addAll(List.of(NetnsLab.address(0, true), "-P", "host_root=" + dir.resolve("sys-b")));
            Path clog = dir.resolve(run + "-client.log");
            c = LabBench.start(lab, false, client, clog);
            boolean done = c.waitFor(120, TimeUnit.SECONDS) && s.waitFor(30, TimeUnit.SECONDS);
            String logs = "client:\n" + LabBench.read(clog) + "\nserver:\n" + LabBench.read(slog);
            assertThat(done).as(logs).isTrue();
            assertThat(c.exitValue()).as(logs).isZero();
            assertThat(s.exitValue()).as(logs).isZero();
            assertThat(LabBench.read(slog).lines().filter(l -> l.startsWith("xdlink: dropped a connection from"))
                    .toList()).as(logs).hasSize(3)
                    .anyMatch(l -> l.contains("it sent 'GET / HTTP/1.1"))
                    .anyMatch(l -> l.contains("it sent nothing within 5 s"));
        } finally {
            LabBench.stop(c, s);
        }
    }

    /**
     * Connects from host b to {@code to} with bash, runs {@code send} on the connection, then reads until the server
     * drops it. Each stage names itself as it ends, so a probe stopped by its timeout still says how far it came. A
     * probe that never connected is tried once more: what this test is about starts once the server holds the
     * connection, and a lost handshake on a loaded machine is the kernel's, not the server's.
     */
    private static String probe(String to, String send) {
        String[] command = {"ip", "netns", "exec", lab.namespaceB(), "timeout", "30", "bash", "-c", "exec 3<>" + to
                + " && echo connected && " + send + " && echo sent && echo \"read $(cat <&3 | wc -c)\""};
        for (int attempt = 1; ; attempt++) {
            NetnsLab.Ran ran = NetnsLab.attempt(command);
            if (ran.ok()) {
                return ran.output();
            }
            if (attempt == 2 || ran.output().lines().anyMatch(l -> l.strip().equals("connected"))) {
                throw new IllegalStateException(ran.failure(command));
            }
            System.out.println("stray connection (" + send + ") did not connect, trying once more: "
                    + ran.failure(command));
        }
    }
}
