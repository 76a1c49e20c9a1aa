package io.xdlink.cli.bench;

import io.xdlink.rails.tcp.TcpParams;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The raw baseline's server against a client speaking its header by hand: warm-ups, and counts it must refuse. */
class RawBaselineTest {

    private static BenchSettings settings(String... args) {
        return settings(BenchTest.WRITE_BW, args);
    }

    private static BenchSettings settings(BenchTest test, String... args) {
        BenchOptions o = new BenchOptions();
        new picocli.CommandLine(o).parseArgs(args);
        return o.settings(test, false);
    }

    /** Runs the server for {@code s} and hands its outcome (null, or what it threw) to the caller's client. */
    private static CompletableFuture<Throwable> serve(ServerSocketChannel ss, BenchSettings s) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                RawBaseline.server(ss, s);
                return null;
            } catch (RuntimeException e) {
                return e;
            }
        });
    }

    /**
     * Starts a server agreed on 10 messages of 4096 bytes, completes {@code outcome} with what it ends with, and
     * returns a client connected to it.
     */
    private static Socket clientOfAServer(CompletableFuture<Throwable> outcome) throws Exception {
        ServerSocketChannel ss = RawBaseline.listen("127.0.0.1", 0);
        serve(ss, settings("-s", "4096", "-n", "10")).whenComplete((t, e) -> outcome.complete(e != null ? e : t));
        Socket c = new Socket();
        c.connect(new InetSocketAddress("127.0.0.1", ss.socket().getLocalPort()), 5000);
        return c;
    }

    private static void header(DataOutputStream out, long size, long count) throws Exception {
        out.writeLong(size);
        out.writeLong(count);
    }

    @Test
    void warmUpRoundsComeBeforeTheAgreedSizeAndAreNotCountedAsOne() throws Exception {
        CompletableFuture<Throwable> server = new CompletableFuture<>();
        try (Socket c = clientOfAServer(server)) {
            DataOutputStream out = new DataOutputStream(c.getOutputStream());
            DataInputStream in = new DataInputStream(c.getInputStream());
            for (long count : new long[] {-3, -7, 10}) {
                header(out, 4096, count);
                out.write(new byte[(int) (4096 * Math.abs(count))]);
                out.flush();
                assertThat(in.readByte()).as("acknowledged after %d messages", count).isEqualTo((byte) 1);
            }
        }
        assertThat(server.get(10, TimeUnit.SECONDS)).as("the server ends after the one agreed size").isNull();
    }

    @Test
    void aCountNoRunMayHaveIsRefusedByName() throws Exception {
        for (long count : new long[] {0, Long.MIN_VALUE, -(BenchOptions.MAX_ITERS + 1), BenchOptions.MAX_ITERS + 1}) {
            CompletableFuture<Throwable> server = new CompletableFuture<>();
            try (Socket c = clientOfAServer(server)) {
                header(new DataOutputStream(c.getOutputStream()), 4096, count);
                assertThat(server.get(10, TimeUnit.SECONDS)).as("count %d", count).isInstanceOf(BenchException.class)
                        .hasMessage("the raw baseline client sent size 4096 x " + Math.abs(count)
                                + ", not what was agreed");
            }
        }
    }

    @Test
    void aSizeOutsideTheAgreedOnesIsRefusedByName() throws Exception {
        for (long size : new long[] {0, -4096, 4097, Long.MAX_VALUE}) {
            CompletableFuture<Throwable> server = new CompletableFuture<>();
            try (Socket c = clientOfAServer(server)) {
                header(new DataOutputStream(c.getOutputStream()), size, -3);
                assertThat(server.get(10, TimeUnit.SECONDS)).as("size %d", size).isInstanceOf(BenchException.class)
                        .hasMessage("the raw baseline client sent size " + size + " x 3, not what was agreed");
            }
        }
    }

    @Test
    void aHeaderCutShortOrAWarmUpCutShortEndsTheServerWithOneLine() throws Exception {
        for (int cut : new int[] {0, 7, 15}) {
            CompletableFuture<Throwable> server = new CompletableFuture<>();
            try (Socket c = clientOfAServer(server)) {
                c.getOutputStream().write(new byte[cut]);
            }
            assertThat(server.get(10, TimeUnit.SECONDS)).as("%d header bytes", cut)
                    .isInstanceOf(BenchException.class)
                    .hasMessage("the raw baseline failed: the peer closed the baseline connection");
        }
        CompletableFuture<Throwable> server = new CompletableFuture<>();
        try (Socket c = clientOfAServer(server)) {
            DataOutputStream out = new DataOutputStream(c.getOutputStream());
            header(out, 4096, -3);
            out.write(new byte[4096 * 2 + 100]); // a warm-up of three messages that stops inside the third
            out.flush();
        }
        assertThat(server.get(10, TimeUnit.SECONDS)).as("warm-up cut short").isInstanceOf(BenchException.class)
                .hasMessage("the raw baseline failed: the peer closed the baseline connection");
    }

    /** A server in turns, accepted on a thread of the test's, serving {@code runs} runs on a thread of its own. */
    private static CompletableFuture<RawBaseline.Server> turnsServer(ServerSocketChannel ss, BenchSettings s,
                                                                     int runs) {
        return CompletableFuture.supplyAsync(() -> {
            RawBaseline.Server server = RawBaseline.Server.accept(ss, s);
            server.startServing(runs);
            return server;
        });
    }

    private static void run(DataOutputStream out, DataInputStream in, long count) throws Exception {
        header(out, 4096, count);
        out.write(new byte[(int) (4096 * Math.abs(count))]);
        out.flush();
        assertThat(in.readByte()).isEqualTo((byte) 1);
    }

    @Test
    void inTurnsTheConnectionRestsBetweenRunsForLongerThanTheTimeout() throws Exception {
        ServerSocketChannel ss = RawBaseline.listen("127.0.0.1", 0);
        CompletableFuture<RawBaseline.Server> served = turnsServer(ss,
                settings("-s", "4096", "-n", "10", "--timeout", "1"), 2);
        try (Socket c = new Socket()) {
            c.connect(new InetSocketAddress("127.0.0.1", ss.socket().getLocalPort()), 5000);
            DataOutputStream out = new DataOutputStream(c.getOutputStream());
            DataInputStream in = new DataInputStream(c.getInputStream());
            run(out, in, -3);
            run(out, in, 5);
            Thread.sleep(1600); // xdlink's turn, longer than the timeout: the watchdog must not close the socket
            run(out, in, 5);
            try (RawBaseline.Server server = served.get(10, TimeUnit.SECONDS)) {
                server.finish();
            }
        }
    }

    @Test
    void inTurnsAClientThatStopsBetweenRunsIsReportedWhenTheServerFinishes() throws Exception {
        ServerSocketChannel ss = RawBaseline.listen("127.0.0.1", 0);
        CompletableFuture<RawBaseline.Server> served = turnsServer(ss, settings("-s", "4096", "-n", "10"), 3);
        try (Socket c = new Socket()) {
            c.connect(new InetSocketAddress("127.0.0.1", ss.socket().getLocalPort()), 5000);
            run(new DataOutputStream(c.getOutputStream()), new DataInputStream(c.getInputStream()), 5);
        }
        try (RawBaseline.Server server = served.get(10, TimeUnit.SECONDS)) {
            assertThatThrownBy(server::finish).isInstanceOf(BenchException.class)
                    .hasMessage("the raw baseline failed: the peer closed the baseline connection");
        }
    }

    @Test
    void aPollingServerEchoesEveryRoundTripByteForByte() throws Exception {
        ServerSocketChannel ss = RawBaseline.listen("127.0.0.1", 0);
        CompletableFuture<Throwable> server = serve(ss, settings(BenchTest.WRITE_LAT, "-s", "64", "-n", "200",
                "--baseline", "poll"));
        java.util.Random random = new java.util.Random(0x5eed);
        try (Socket c = new Socket()) {
            c.connect(new InetSocketAddress("127.0.0.1", ss.socket().getLocalPort()), 5000);
            DataOutputStream out = new DataOutputStream(c.getOutputStream());
            DataInputStream in = new DataInputStream(c.getInputStream());
            for (long count : new long[] {-50, 200}) {
                header(out, 64, count);
                for (long i = 0; i < Math.abs(count); i++) {
                    byte[] ping = new byte[64];
                    random.nextBytes(ping);
                    out.write(ping);
                    out.flush();
                    byte[] pong = new byte[64];
                    in.readFully(pong);
                    assertThat(pong).as("round trip %d of %d", i, count).isEqualTo(ping);
                }
            }
        }
        assertThat(server.get(10, TimeUnit.SECONDS)).as("the server ends after the one agreed size").isNull();
    }

    @Test
    void aPollingServerWhosePeerFallsSilentMidRunStopsAfterTheTimeout() throws Exception {
        ServerSocketChannel ss = RawBaseline.listen("127.0.0.1", 0);
        CompletableFuture<Throwable> server = serve(ss, settings(BenchTest.WRITE_LAT, "-s", "64", "-n", "200",
                "--baseline", "poll", "--timeout", "1"));
        try (Socket c = new Socket()) {
            c.connect(new InetSocketAddress("127.0.0.1", ss.socket().getLocalPort()), 5000);
            DataOutputStream out = new DataOutputStream(c.getOutputStream());
            header(out, 64, 200);
            out.write(new byte[64]);
            out.flush();
            new DataInputStream(c.getInputStream()).readFully(new byte[64]);
            // Silent from here, the socket open: the server spins on its reads until its watchdog gives up.
            assertThat(server.get(10, TimeUnit.SECONDS)).isInstanceOf(BenchException.class)
                    .hasMessage("the raw baseline made no progress for 1 s; the peer stopped");
        }
    }
    /**
     * The socket warms up before each size it measures, as xdlink does before each size of {@code -a} (perftest warms
     * up before each size too): unmeasured runs, sent with negated counts, before the first measured run of every
     * size, and none at all without {@code --perform_warm_up}. A server of the test's own records what the client
     * announces.
     */
    @Test
    void theSocketWarmsUpBeforeEachSizeAndNotAtAllWhenToldNotTo() throws Exception {
        assertThat(announcedRuns(settings("-a", "-n", "10"), 4096, 8192))
                .as("warm-ups (negative) before each size's one measured run of 10")
                .matches(runs -> runs.matches("(4096x-\\d+ )+4096x10 (8192x-\\d+ )+8192x10 "), "warm-ups, then 10");
        assertThat(announcedRuns(settings("-a", "-n", "10", "--no-perform_warm_up"), 4096, 8192))
                .isEqualTo("4096x10 8192x10 ");
    }

    /** Runs the real client's rows for {@code sizes} against a recording server; returns "SIZExCOUNT " per run. */
    private static String announcedRuns(BenchSettings s, long... sizes) throws Exception {
        try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<String> recorded = CompletableFuture.supplyAsync(() -> {
                StringBuilder runs = new StringBuilder();
                try (Socket peer = ss.accept()) {
                    DataInputStream in = new DataInputStream(peer.getInputStream());
                    DataOutputStream out = new DataOutputStream(peer.getOutputStream());
                    while (true) {
                        long size;
                        try {
                            size = in.readLong();
                        } catch (EOFException end) {
                            return runs.toString();
                        }
                        long count = in.readLong();
                        runs.append(size).append('x').append(count).append(' ');
                        in.skipNBytes(size * Math.abs(count));
                        out.writeByte(1);
                        out.flush();
                    }
                } catch (IOException e) {
                    return runs + "failed: " + e;
                }
            });
            try (RawBaseline.Client client = RawBaseline.Client.connect(s, "127.0.0.1", ss.getLocalPort(),
                    TcpParams.CONGESTION_CONTROL.defaultValue())) {
                for (long size : sizes) {
                    assertThat(client.row(size)).isInstanceOf(BenchResult.Bw.class);
                }
            }
            return recorded.get(30, TimeUnit.SECONDS);
        }
    }
}
