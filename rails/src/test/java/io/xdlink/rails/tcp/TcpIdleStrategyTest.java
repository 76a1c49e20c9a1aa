package io.xdlink.rails.tcp;

import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TcpIdleStrategyTest {

    @Test
    void aThreadSleepingOnItsRailsWakesWhenAFrameArrives() throws Exception {
        try (TcpLoopbackPair pair = TcpLoopbackPair.open(TcpSettings.defaults(), LinkState.of(Generation.GEN3, 1))) {
            // A sleep of up to ten minutes: only the frame can end it within the test's patience.
            TcpIdleStrategy idle = new TcpIdleStrategy(0, 0, 600_000);
            CountDownLatch polling = new CountDownLatch(1);
            CompletableFuture<byte[]> received = new CompletableFuture<>();
            Thread engine = Thread.ofPlatform().name("xdlink-idle-test").start(() -> {
                try {
                    RailWaiter.forCurrentThread();
                    byte[][] got = new byte[1][];
                    pair.b().poll(f -> got[0] = f.toArray(ValueLayout.JAVA_BYTE), 1); // joins the thread's waiter
                    polling.countDown();
                    while (got[0] == null) {
                        idle.idle(0);
                        pair.b().poll(f -> got[0] = f.toArray(ValueLayout.JAVA_BYTE), 1);
                    }
                    received.complete(got[0]);
                } catch (RuntimeException e) {
                    received.completeExceptionally(e);
                } finally {
                    TcpIdleStrategy.release();
                }
            });
            assertThat(polling.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(pair.a().offer(MemorySegment.ofArray(new byte[] {4, 2}))).isTrue();
            pair.a().flush();
            assertThat(received.get(30, TimeUnit.SECONDS)).containsExactly(4, 2);
            engine.join();
        }
    }

    /**
     * A thread that steps aside lets go of its rails, so a frame arriving meanwhile readies nothing of its selector,
     * keeps the other channels it wakes on, and takes the rails back with its next poll.
     */
    @Test
    void aThreadThatStepsAsideLetsGoOfItsRailsUntilItPollsAgain() throws Exception {
        try (TcpLoopbackPair pair = TcpLoopbackPair.open(TcpSettings.defaults(), LinkState.of(Generation.GEN3, 1));
                Pipe.SourceChannel other = Pipe.open().source()) {
            TcpIdleStrategy idle = new TcpIdleStrategy(0, 0, 1);
            try {
                Selector selector = RailWaiter.forCurrentThread().selector;
                other.configureBlocking(false);
                TcpIdleStrategy.wakeOn(other);
                List<byte[]> got = new ArrayList<>();
                pair.b().poll(f -> got.add(f.toArray(ValueLayout.JAVA_BYTE)), 1);
                assertThat(attachments(selector)).containsExactly(pair.b());

                idle.stepAside();
                assertThat(attachments(selector)).as("the rail let go of, the other channel kept").isEmpty();
                assertThat(selector.keys()).hasSize(1);
                assertThat(pair.a().offer(MemorySegment.ofArray(new byte[] {4, 2}))).isTrue();
                pair.a().flush();
                Thread.sleep(50);
                assertThat(selector.selectNow()).as("a frame arriving meanwhile readies nothing").isZero();

                while (got.isEmpty()) {
                    pair.b().poll(f -> got.add(f.toArray(ValueLayout.JAVA_BYTE)), 1);
                }
                assertThat(got.getFirst()).containsExactly(4, 2);
                assertThat(attachments(selector)).as("taken back by the poll").containsExactly(pair.b());
                assertThat(pair.a().offer(MemorySegment.ofArray(new byte[] {7}))).isTrue();
                pair.a().flush();
                assertThat(selector.select(30_000)).as("the next frame readies it again").isEqualTo(1);
            } finally {
                TcpIdleStrategy.release();
            }
        }
    }

    private static List<Object> attachments(Selector selector) {
        return selector.keys().stream().filter(SelectionKey::isValid).map(SelectionKey::attachment)
                .filter(a -> a != null).toList();
    }

    @Test
    void onlyASleepOnTheRailsBlocks() {
        TcpIdleStrategy idle = new TcpIdleStrategy(2, 1, 5);
        for (int spin = 0; spin < 2; spin++) {
            assertThat(idle.blocksNext(Long.MAX_VALUE)).as("spin %d", spin).isFalse();
            idle.idle(0, Long.MAX_VALUE);
        }
        assertThat(idle.blocksNext(Long.MAX_VALUE)).as("the yield").isFalse();
        idle.idle(0, Long.MAX_VALUE);
        assertThat(idle.blocksNext(Long.MAX_VALUE)).as("the sleep").isTrue();
        assertThat(idle.blocksNext(999_999)).as("a timer due within a millisecond is yielded for").isFalse();
        assertThat(idle.blocksNext(1_000_000)).isTrue();
        idle.idle(1);
        assertThat(idle.blocksNext(Long.MAX_VALUE)).as("work starts the spins again").isFalse();
    }

    @Test
    void badSettingsAreRefused() {
        assertThatThrownBy(() -> new TcpIdleStrategy(-1, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TcpIdleStrategy(0, 0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bad idle strategy: spins 0, yields 0, wait 0 ms");
    }
}
