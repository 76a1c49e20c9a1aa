package io.xdlink.cli.bench;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The warm-up's question about the server's compilers, over a real rendezvous connection. */
class PeerCompilersTest {
    private static final Duration LONG = Duration.ofSeconds(20);
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    /** A server that accepts one client and then runs {@code serving} on its rendezvous. */
    private <T> Future<T> server(AtomicInteger port, ServerWork<T> serving) throws InterruptedException {
        CountDownLatch bound = new CountDownLatch(1);
        Future<T> f = pool.submit(() -> {
            try (Rendezvous rv = Rendezvous.listen("127.0.0.1", 0, LONG, LONG, p -> {
                port.set(p);
                bound.countDown();
            })) {
                return serving.on(rv);
            }
        });
        assertThat(bound.await(20, TimeUnit.SECONDS)).isTrue();
        return f;
    }

    @FunctionalInterface
    private interface ServerWork<T> {
        T on(Rendezvous rv) throws Exception;
    }

    @Test
    void questionsAreAnsweredUntilTheSizesResultWhichAloneReachesTheReply() throws Exception {
        AtomicInteger port = new AtomicInteger();
        List<String> replied = new CopyOnWriteArrayList<>();
        UnaryOperator<String> reply = t -> {
            replied.add(t);
            return "OK";
        };
        Future<String> served = server(port, rv -> PeerCompilers.serveSize(rv, reply, () -> 0));
        try (Rendezvous client = Rendezvous.connect("127.0.0.1", port.get(), LONG)) {
            long first = PeerCompilers.askOnce(client);
            long second = PeerCompilers.askOnce(client);
            assertThat(first).isNotNegative();
            assertThat(second).as("a running total").isGreaterThanOrEqualTo(first);
            assertThat(client.exchange("RESULT bw=1.5")).isEqualTo("OK");
        }
        assertThat(served.get(20, TimeUnit.SECONDS)).isEqualTo("RESULT bw=1.5");
        assertThat(replied).containsExactly("RESULT bw=1.5");
    }

    @Test
    void anAnswerThatIsNotANumberOfMillisecondsIsRefusedByName() throws Exception {
        for (String answer : List.of("OK", "COMPILED", "COMPILED ms=-5", "COMPILED ms=12x", "COMPILED ms=1 ms=2",
                "COMPILED ms=99999999999999999999", "COMPILED ms=", "ERROR busy")) {
            AtomicInteger port = new AtomicInteger();
            Future<String> served = server(port, rv -> rv.serve(t -> answer));
            try (Rendezvous client = Rendezvous.connect("127.0.0.1", port.get(), LONG)) {
                assertThatThrownBy(() -> PeerCompilers.askOnce(client)).as(answer)
                        .isInstanceOf(BenchException.class)
                        .hasMessageContaining(answer.startsWith("ERROR") ? "busy"
                                : answer.equals("OK") ? "expected a COMPILED record" : "ms");
            }
            assertThat(served.get(20, TimeUnit.SECONDS)).isEqualTo("COMPILED");
        }
    }

    @Test
    void theServersAnswerIsItsOwnCompilersRunningTotal() {
        BenchRecord answer = BenchRecord.parse(PeerCompilers.answer(), PeerCompilers.KIND);
        assertThat(answer.getLong("ms", 0, Long.MAX_VALUE)).isNotNegative();
        assertThat(PeerCompilers.isQuestion(BenchRecord.of(PeerCompilers.KIND).format())).isTrue();
        assertThat(PeerCompilers.isQuestion("COMPILEDX")).isFalse();
        assertThat(PeerCompilers.isQuestion("RESULT ms=3")).isFalse();
    }
}
