package io.xdlink.cli.bench;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

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
        CountDownLatch bound = new CountDownLatch(1);
        Future<Rendezvous> f = pool.submit(() -> Rendezvous.listen("127.0.0.1", 0, LONG, LONG, p -> {
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
    void aServerThatNeverAnswersTimesOut() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Future<Socket> accepted = pool.submit(silent::accept);
            try (Rendezvous client = Rendezvous.connect("127.0.0.1", silent.getLocalPort(), Duration.ofMillis(300))) {
                assertThatThrownBy(() -> client.exchange("hello")).isInstanceOf(BenchException.class)
                        .hasMessageContaining("went silent");
            }
            accepted.get(20, TimeUnit.SECONDS).close();
        }
    }

    @Test
    void aPeerThatDisconnectsMidRunIsReported() throws Exception {
        try (ServerSocket ss = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Future<?> half = pool.submit(() -> {
                try (Socket s = ss.accept(); OutputStream o = s.getOutputStream()) {
                    o.write(new byte[100]);
                }
                return null;
            });
            try (Rendezvous client = Rendezvous.connect("127.0.0.1", ss.getLocalPort(), LONG)) {
                assertThatThrownBy(() -> client.exchange("hello")).isInstanceOf(BenchException.class)
                        .hasMessageContaining("disconnected in the middle of a record");
            }
            half.get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void noClientWithinTheAcceptTimeout() {
        assertThatThrownBy(() -> Rendezvous.listen("127.0.0.1", 0, Duration.ofMillis(200), LONG, null))
                .isInstanceOf(BenchException.class).hasMessageContaining("no client connected");
    }

    @Test
    void recordsAreFixedSizePrintableAsciiAndForeignBytesAreRefused() {
        byte[] b = Rendezvous.encode("size=65536 iters=5000");
        assertThat(b).hasSize(Rendezvous.RECORD_BYTES);
        assertThat(Rendezvous.decode(b)).isEqualTo("size=65536 iters=5000");
        assertThatThrownBy(() -> Rendezvous.encode("x".repeat(Rendezvous.RECORD_BYTES)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Rendezvous.encode("tab\there")).isInstanceOf(IllegalArgumentException.class);

        byte[] perftest = new byte[Rendezvous.RECORD_BYTES];
        perftest[0] = '0';
        perftest[1] = (byte) 0x9f;
        assertThatThrownBy(() -> Rendezvous.decode(perftest)).isInstanceOf(BenchException.class)
                .hasMessageContaining("not an xdlink bench record");
        byte[] trailing = Rendezvous.encode("ok");
        trailing[200] = 'x';
        assertThatThrownBy(() -> Rendezvous.decode(trailing)).isInstanceOf(BenchException.class)
                .hasMessageContaining("malformed");
        assertThatThrownBy(() -> Rendezvous.connect("127.0.0.1", 70000, LONG)).isInstanceOf(BenchException.class)
                .hasMessageContaining("out of range");
    }
}
