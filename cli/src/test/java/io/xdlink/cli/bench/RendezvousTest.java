package io.xdlink.cli.bench;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RendezvousTest {
    private static final Duration LONG = Duration.ofSeconds(20);
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    /** Starts a server on a free port and returns it once the port is known. */
    private Future<Rendezvous> server(AtomicInteger port) throws InterruptedException {
        return server(port, LONG);
    }

    /** As {@link #server(AtomicInteger)}, waiting at most {@code timeout} for each exchange. */
    private Future<Rendezvous> server(AtomicInteger port, Duration timeout) throws InterruptedException {
        CountDownLatch bound = new CountDownLatch(1);
        Future<Rendezvous> f = pool.submit(() -> Rendezvous.listen("127.0.0.1", 0, LONG, timeout, p -> {
            port.set(p);
            bound.countDown();
        }));
        assertThat(bound.await(20, TimeUnit.SECONDS)).isTrue();
        return f;
    }

    @Test
    void clientWritesFirstServerReadsFirstAndBothGetTheOthersRecord() throws Exception {
        AtomicInteger port = new AtomicInteger();
        Future<Rendezvous> server = server(port);
        try (Rendezvous client = Rendezvous.connect("127.0.0.1", port.get(), LONG);
             Rendezvous s = server.get(20, TimeUnit.SECONDS)) {
            CompletableFuture<String> atServer = CompletableFuture.supplyAsync(() -> s.exchange("server says hi"), pool);
            assertThat(client.exchange("client says hi")).isEqualTo("server says hi");
            assertThat(atServer.get(20, TimeUnit.SECONDS)).isEqualTo("client says hi");
            assertThat(s.isServer()).isTrue();
            assertThat(client.isServer()).isFalse();

            CompletableFuture<Void> b = CompletableFuture.runAsync(() -> s.barrier("size 2"), pool);
            client.barrier("size 2");
            b.get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void barriersOutOfStepAreReported() throws Exception {
        AtomicInteger port = new AtomicInteger();
        Future<Rendezvous> server = server(port);
        try (Rendezvous client = Rendezvous.connect("127.0.0.1", port.get(), LONG);
             Rendezvous s = server.get(20, TimeUnit.SECONDS)) {
            CompletableFuture<Throwable> atServer = barrierFailure(s, "size 4");
            assertThatThrownBy(() -> client.barrier("size 2")).isInstanceOf(BenchException.class)
                    .hasMessageContaining("out of step");
            assertThat(atServer.get(20, TimeUnit.SECONDS)).hasMessageContaining("expected barrier 'size 4'");
        }
    }

    @Test
    void aPeerThatGaveUpAtABarrierIsReportedWithItsReason() throws Exception {
        AtomicInteger port = new AtomicInteger();
        Future<Rendezvous> server = server(port);
        try (Rendezvous client = Rendezvous.connect("127.0.0.1", port.get(), LONG);
             Rendezvous s = server.get(20, TimeUnit.SECONDS)) {
            CompletableFuture<Throwable> atServer = barrierFailure(s, "connected");
            client.sendQuietly(BenchRecord.error("could not connect to the peer's device"));
            assertThat(atServer.get(20, TimeUnit.SECONDS))
                    .hasMessage("the peer gave up: could not connect to the peer's device");
        }
    }

    /** Runs a barrier on the server's side; completes with what it threw, or null when it passed. */
    private CompletableFuture<Throwable> barrierFailure(Rendezvous s, String name) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                s.barrier(name);
                return null;
            } catch (BenchException e) {
                return e;
            }
        }, pool);
    }

    @Test
    void aPortInUseIsOneClearLine() throws IOException {
        try (ServerSocket taken = new ServerSocket(0)) {
            assertThatThrownBy(() -> Rendezvous.listen(null, taken.getLocalPort(), LONG, LONG, null))
                    .isInstanceOf(BenchException.class)
                    .hasMessage("port " + taken.getLocalPort() + " is already in use (another xdlink bench or "
                            + "perftest server?); choose another with -p");
        }
    }

    @Test
    void theServerPortIsFreeAgainAfterClose() throws Exception {
        AtomicInteger port = new AtomicInteger();
        Future<Rendezvous> server = server(port);
        Rendezvous.connect("127.0.0.1", port.get(), LONG).close();
        server.get(20, TimeUnit.SECONDS).close();
        try (ServerSocket again = new ServerSocket()) {
            again.setReuseAddress(true);
            again.bind(new java.net.InetSocketAddress("127.0.0.1", port.get()));
            assertThat(again.getLocalPort()).isEqualTo(port.get());
        }
    }

    @Test
    void anUnreachableServerIsOneClearLine() throws IOException {
        int free;
        try (ServerSocket s = new ServerSocket(0)) {
            free = s.getLocalPort();
        }
        assertThatThrownBy(() -> Rendezvous.connect("127.0.0.1", free, LONG))
                .isInstanceOf(BenchException.class)
                .hasMessageStartingWith("could not reach an xdlink bench server at 127.0.0.1:" + free)
                .hasMessageEndingWith("is the server running?");
        assertThatThrownBy(() -> Rendezvous.connect("no-such-host.invalid", 18515, LONG))
                .isInstanceOf(BenchException.class).hasMessage("unknown host 'no-such-host.invalid'");
    }

    @Test
    void aClientWhoseAddressIsNotUsableYetTriesAgainUntilItIs() throws Exception {
        AtomicInteger port = new AtomicInteger();
        Future<Rendezvous> server = server(port);
        AtomicInteger tries = new AtomicInteger();
        // The first tries fail as a connect from a tentative IPv6 address does (EADDRNOTAVAIL), then the address
        // is usable and the real connection is made.
        Rendezvous.Opener settling = (socket, to, millis) -> {
            if (tries.incrementAndGet() <= 3) {
                throw new BindException("Cannot assign requested address");
            }
            socket.connect(to, millis);
        };
        try (Rendezvous client = Rendezvous.connect("127.0.0.1", port.get(), LONG, settling);
             Rendezvous s = server.get(20, TimeUnit.SECONDS)) {
            assertThat(tries.get()).isEqualTo(4);
            CompletableFuture<String> atServer = CompletableFuture.supplyAsync(() -> s.exchange("settled"), pool);
            assertThat(client.exchange("hello")).isEqualTo("settled");
            assertThat(atServer.get(20, TimeUnit.SECONDS)).isEqualTo("hello");
        }
    }

    @Test
    void anAddressThatNeverBecomesUsableFailsAtTheTimeoutWithOneClearLine() {
        AtomicInteger tries = new AtomicInteger();
        Rendezvous.Opener never = (socket, to, millis) -> {
            tries.incrementAndGet();
            throw new BindException("Cannot assign requested address");
        };
        assertThatThrownBy(() -> Rendezvous.connect("127.0.0.1", 18515, Duration.ofMillis(400), never))
                .isInstanceOf(BenchException.class)
                .hasMessageStartingWith("could not connect to 127.0.0.1:18515 within ")
                .hasMessageContaining("Cannot assign requested address")
                .hasMessageEndingWith("is the link's interface up, with its address configured?)");
        assertThat(tries.get()).isGreaterThan(1);
    }

    @Test
    void aRefusedConnectionIsNotTriedAgain() throws IOException {
        int free;
        try (ServerSocket s = new ServerSocket(0)) {
            free = s.getLocalPort();
        }
        AtomicInteger tries = new AtomicInteger();
        Rendezvous.Opener counting = (socket, to, millis) -> {
            tries.incrementAndGet();
            socket.connect(to, millis);
        };
        assertThatThrownBy(() -> Rendezvous.connect("127.0.0.1", free, LONG, counting))
                .isInstanceOf(BenchException.class).hasMessageEndingWith("is the server running?");
        assertThat(tries.get()).isEqualTo(1);
    }

    /** A stand-in server that greets as xdlink does, then does {@code then} with the connection. */
    private Future<?> greetingServer(ServerSocket ss, SocketAction then) {
        return pool.submit(() -> {
            try (Socket s = ss.accept()) {
                s.getInputStream().readNBytes(Rendezvous.RECORD_BYTES);
                s.getOutputStream().write(RendezvousRecords.encode(Rendezvous.GREETING));
                then.run(s);
            }
            return null;
        });
    }

    private interface SocketAction {
        void run(Socket s) throws Exception;
    }

    @Test
    void aServerThatNeverAnswersTimesOut() throws Exception {
        try (ServerSocket ss = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            CountDownLatch done = new CountDownLatch(1);
            Future<?> f = greetingServer(ss, s -> done.await(20, TimeUnit.SECONDS));
            try (Rendezvous client = Rendezvous.connect("127.0.0.1", ss.getLocalPort(), Duration.ofMillis(300))) {
                assertThatThrownBy(() -> client.exchange("hello")).isInstanceOf(BenchException.class)
                        .hasMessageContaining("went silent");
            }
            done.countDown();
            f.get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void aPeerThatDisconnectsMidRunIsReported() throws Exception {
        try (ServerSocket ss = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Future<?> half = greetingServer(ss, s -> {
                OutputStream o = s.getOutputStream();
                o.write(new byte[100]);
                o.flush();
            });
            try (Rendezvous client = Rendezvous.connect("127.0.0.1", ss.getLocalPort(), LONG)) {
                assertThatThrownBy(() -> client.exchange("hello")).isInstanceOf(BenchException.class)
                        .hasMessageContaining("disconnected in the middle of a record");
            }
            half.get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void strayConnectionsAreDroppedWithALineAndTheServerWaitsOnForARealClient() throws Exception {
        java.util.List<String> log = new java.util.concurrent.CopyOnWriteArrayList<>();
        AtomicInteger port = new AtomicInteger();
        CountDownLatch bound = new CountDownLatch(1);
        // An exchange timeout of 1 s caps the greeting wait too, so the idle stray costs 1 s here, 5 s by default.
        Future<Rendezvous> server = pool.submit(() -> Rendezvous.listen("127.0.0.1", 0, LONG, Duration.ofSeconds(1),
                p -> {
                    port.set(p);
                    bound.countDown();
                }, log::add));
        assertThat(bound.await(20, TimeUnit.SECONDS)).isTrue();
        try (Socket idle = new Socket("127.0.0.1", port.get())) {
            // Dropped once its greeting is overdue: the read sees the server close it.
            idle.setSoTimeout(20_000);
            assertThat(idle.getInputStream().read()).isEqualTo(-1);
        }
        try (Socket http = new Socket("127.0.0.1", port.get())) {
            http.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(
                    java.nio.charset.StandardCharsets.US_ASCII));
            http.setSoTimeout(20_000);
            assertThat(http.getInputStream().read()).isEqualTo(-1);
        }
        try (Socket garbage = new Socket("127.0.0.1", port.get())) {
            garbage.getOutputStream().write(new byte[] {'X', 'D', 0, (byte) 0xff, 0x1b});
            garbage.setSoTimeout(20_000);
            assertThat(garbage.getInputStream().read()).isEqualTo(-1);
        }
        try (Socket closes = new Socket("127.0.0.1", port.get())) {
            closes.shutdownOutput();
            closes.setSoTimeout(20_000);
            assertThat(closes.getInputStream().read()).isEqualTo(-1);
        }
        try (Rendezvous client = Rendezvous.connect("127.0.0.1", port.get(), LONG);
             Rendezvous s = server.get(20, TimeUnit.SECONDS)) {
            CompletableFuture<String> atServer = CompletableFuture.supplyAsync(() -> s.exchange("ok"), pool);
            assertThat(client.exchange("real")).isEqualTo("ok");
            assertThat(atServer.get(20, TimeUnit.SECONDS)).isEqualTo("real");
        }
        assertThat(log).hasSize(4).allMatch(l -> l.startsWith("xdlink: dropped a connection from /127.0.0.1:")
                && l.endsWith("; still waiting for a client"));
        assertThat(log.get(0)).contains("it sent nothing within 1 s");
        assertThat(log.get(1)).contains("it is not an xdlink bench peer (it sent 'GET / HTTP/1.1\\x0d\\x0aHost: x");
        assertThat(log.get(2)).contains("(it sent 'XD\\x00");
        assertThat(log.get(3)).contains("it closed the connection without a word");
    }

    @Test
    void aServerOfAnotherVersionIsNamedAsSuch() throws Exception {
        try (ServerSocket old = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Future<?> f = pool.submit(() -> {
                try (Socket s = old.accept()) {
                    s.getInputStream().readNBytes(Rendezvous.RECORD_BYTES);
                    s.getOutputStream().write(RendezvousRecords.encode(Rendezvous.GREETING_NAME + "1"));
                    s.getInputStream().read();
                }
                return null;
            });
            assertThatThrownBy(() -> Rendezvous.connect("127.0.0.1", old.getLocalPort(), LONG))
                    .isInstanceOf(BenchException.class)
                    .hasMessageContaining("is an xdlink bench server, but it runs another version of xdlink bench "
                            + "(it sent 'XDLINK-BENCH 1', this side")
                    .hasMessageContaining("this side " + Rendezvous.GREETING)
                    .hasMessageEndingWith("run the same xdlink on both hosts");
            f.get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void aClientOfAnotherVersionHearsThisServersGreetingBeforeTheDrop() throws Exception {
        AtomicInteger port = new AtomicInteger();
        List<String> log = new CopyOnWriteArrayList<>();
        CountDownLatch bound = new CountDownLatch(1);
        pool.submit(() -> Rendezvous.listen("127.0.0.1", 0, LONG, LONG, p -> {
            port.set(p);
            bound.countDown();
        }, log::add));
        assertThat(bound.await(20, TimeUnit.SECONDS)).isTrue();
        try (Socket future = new Socket("127.0.0.1", port.get())) {
            future.getOutputStream().write(RendezvousRecords.encode(Rendezvous.GREETING_NAME + "99"));
            future.setSoTimeout(20_000);
            byte[] greeting = future.getInputStream().readNBytes(Rendezvous.RECORD_BYTES);
            assertThat(greeting).isEqualTo(RendezvousRecords.encode(Rendezvous.GREETING));
            assertThat(future.getInputStream().read()).as("then dropped").isEqualTo(-1);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (log.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(log).as("the server's line about the drop").isNotEmpty();
        assertThat(log.getFirst()).contains("it runs another version of xdlink bench (it sent 'XDLINK-BENCH 99', "
                + "this side " + Rendezvous.GREETING + "); run the same xdlink on both hosts")
                .endsWith("; still waiting for a client");
    }

    @Test
    void aClientPointedAtAnotherProgramSaysSoAtOnceOrWithinFiveSeconds() throws Exception {
        try (ServerSocket ssh = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Future<?> f = pool.submit(() -> {
                try (Socket s = ssh.accept()) {
                    s.getOutputStream().write("SSH-2.0-OpenSSH_9.6\r\n".getBytes(
                            java.nio.charset.StandardCharsets.US_ASCII));
                    s.getInputStream().read();
                }
                return null;
            });
            assertThatThrownBy(() -> Rendezvous.connect("127.0.0.1", ssh.getLocalPort(), LONG))
                    .isInstanceOf(BenchException.class)
                    .hasMessage("the listener at 127.0.0.1:" + ssh.getLocalPort() + " is not an xdlink bench server:"
                            + " it is not an xdlink bench peer (it sent 'SSH-2.0-OpenSSH_9.6\\x0d\\x0a')");
            f.get(20, TimeUnit.SECONDS);
        }
        try (ServerSocket silent = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Future<Socket> accepted = pool.submit(silent::accept);
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> Rendezvous.connect("127.0.0.1", silent.getLocalPort(), LONG))
                    .isInstanceOf(BenchException.class)
                    .hasMessageEndingWith("is not an xdlink bench server: it sent nothing within 5 s (not an xdlink"
                            + " bench peer?)");
            // The greeting's 5 s, not the 20 s exchange timeout, is what it waited.
            assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(15));
            accepted.get(20, TimeUnit.SECONDS).close();
        }
    }

    @Test
    void aWaitEndsAsSoonAsTheWatchSaysThePeerIsGone() throws Exception {
        AtomicInteger port = new AtomicInteger();
        Future<Rendezvous> server = server(port);
        try (Rendezvous client = Rendezvous.connect("127.0.0.1", port.get(), LONG);
             Rendezvous s = server.get(20, TimeUnit.SECONDS)) {
            java.util.concurrent.atomic.AtomicBoolean gone = new java.util.concurrent.atomic.AtomicBoolean();
            s.watch(() -> gone.get() ? "lost the client: peer x lost: silent for 3000 ms" : null);
            CompletableFuture<Throwable> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    s.exchange("never");
                    return null;
                } catch (BenchException e) {
                    return e;
                }
            }, pool);
            Thread.sleep(300);
            assertThat(waiting).isNotDone();
            gone.set(true);
            assertThat(waiting.get(20, TimeUnit.SECONDS)).hasMessage("lost the client: peer x lost: silent for 3000 ms");
            assertThat(client.isServer()).isFalse();
        }
    }

    /**
     * A latency test's server waits for the client's result while its responder answers the pings: on a loaded host
     * the 20000 warm-up round trips took longer than the timeout, the server gave up on a client that was only slow
     * and closed its side, and the client saw its WRITE flushed. Each look at the run here finds it a step further,
     * and the client answers only after ten looks, each a read slice (100 ms) after the last: the wait outlasts the
     * 200 ms timeout several times over, whatever the host's speed.
     */
    @Test
    void aServerWaitsForARunThatKeepsMovingLongerThanTheTimeout() throws Exception {
        AtomicInteger port = new AtomicInteger();
        Future<Rendezvous> server = server(port, Duration.ofMillis(200));
        try (Rendezvous client = Rendezvous.connect("127.0.0.1", port.get(), LONG);
             Rendezvous s = server.get(20, TimeUnit.SECONDS)) {
            CountDownLatch looked = new CountDownLatch(10);
            AtomicLong steps = new AtomicLong();
            CompletableFuture<String> atServer = CompletableFuture.supplyAsync(() -> s.serve(t -> "OK", () -> {
                looked.countDown();
                return steps.incrementAndGet();
            }), pool);
            assertThat(looked.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(client.exchange("RESULT lat")).isEqualTo("OK");
            assertThat(atServer.get(20, TimeUnit.SECONDS)).isEqualTo("RESULT lat");
        }
    }

    /** A run that stopped moving is given up on after the timeout, counted from its last step. */
    @Test
    void aServerGivesUpOnARunThatStoppedMovingAfterTheTimeout() throws Exception {
        AtomicInteger port = new AtomicInteger();
        Future<Rendezvous> server = server(port, Duration.ofMillis(200));
        try (Rendezvous client = Rendezvous.connect("127.0.0.1", port.get(), LONG);
             Rendezvous s = server.get(20, TimeUnit.SECONDS)) {
            AtomicLong looks = new AtomicLong();
            assertThatThrownBy(() -> s.serve(t -> "OK", () -> Math.min(5, looks.incrementAndGet())))
                    .isInstanceOf(BenchException.class)
                    .hasMessageContaining("went silent (nothing for 0.2 s, and no progress in the run)");
            // It moved for five looks and gave up only on a look that found it standing still.
            assertThat(looks.get()).isGreaterThanOrEqualTo(6);
            assertThat(client.isServer()).isFalse();
        }
    }

    @Test
    void noClientWithinTheAcceptTimeout() {
        assertThatThrownBy(() -> Rendezvous.listen("127.0.0.1", 0, Duration.ofMillis(200), LONG, null))
                .isInstanceOf(BenchException.class).hasMessageContaining("no client connected");
    }

    @Test
    void recordsAreFixedSizePrintableAsciiAndForeignBytesAreRefused() {
        byte[] b = RendezvousRecords.encode("size=65536 iters=5000");
        assertThat(b).hasSize(Rendezvous.RECORD_BYTES);
        assertThat(RendezvousRecords.decode(b)).isEqualTo("size=65536 iters=5000");
        assertThatThrownBy(() -> RendezvousRecords.encode("x".repeat(Rendezvous.RECORD_BYTES)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RendezvousRecords.encode("tab\there")).isInstanceOf(IllegalArgumentException.class);

        byte[] perftest = new byte[Rendezvous.RECORD_BYTES];
        perftest[0] = '0';
        perftest[1] = (byte) 0x9f;
        assertThatThrownBy(() -> RendezvousRecords.decode(perftest)).isInstanceOf(BenchException.class)
                .hasMessageContaining("not an xdlink bench record");
        byte[] trailing = RendezvousRecords.encode("ok");
        trailing[200] = 'x';
        assertThatThrownBy(() -> RendezvousRecords.decode(trailing)).isInstanceOf(BenchException.class)
                .hasMessageContaining("malformed");
        assertThatThrownBy(() -> Rendezvous.connect("127.0.0.1", 70000, LONG)).isInstanceOf(BenchException.class)
                .hasMessageContaining("out of range");
    }
}
