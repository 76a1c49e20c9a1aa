package io.xdlink.rails.agent;

import io.xdlink.rails.Agent;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every wait here has a deadline and fails naming what it waited for: a runner that hangs fails its test, it does
 * not hang the build.
 */
class AgentRunnerTest {
    /** How long anything here may take; generous, because CI machines are shared. */
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    /** Waits for {@code latch}, at most {@link #PATIENCE}. */
    private static void await(String what, CountDownLatch latch) throws InterruptedException {
        if (!latch.await(PATIENCE.toNanos(), TimeUnit.NANOSECONDS)) {
            throw new AssertionError("still waiting after " + PATIENCE.toSeconds() + " s for " + what);
        }
    }

    /** Waits until {@code done} holds, at most {@link #PATIENCE}, looking every millisecond. */
    private static void await(String what, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("still waiting after " + PATIENCE.toSeconds() + " s for " + what);
            }
            Thread.sleep(1);
        }
    }

    /**
     * Closes {@code runner} on a thread of its own and waits at most {@link #PATIENCE} for the close to return:
     * close joins the runner's thread without a limit, as it must, so a runner that never stops would hang here.
     */
    private static void closeWithin(AgentRunner runner) throws InterruptedException {
        Thread closer = Thread.ofPlatform().name("agent-runner-test-close").daemon(true).start(runner::close);
        if (!closer.join(PATIENCE)) {
            throw new AssertionError("close() did not return within " + PATIENCE.toSeconds() + " s; the runner's"
                    + " thread is " + runner.thread().getState() + " in "
                    + java.util.Arrays.toString(runner.thread().getStackTrace()));
        }
    }

    @Test
    void aRunnerCyclesSurvivesErrorsAndClosesTheAgentOnItsOwnThread() throws Exception {
        AtomicInteger cycles = new AtomicInteger();
        CountDownLatch failed = new CountDownLatch(1);
        Thread[] closedOn = new Thread[1];
        Agent agent = new Agent() {
            @Override
            public int doWork() {
                if (cycles.incrementAndGet() == 5) {
                    throw new IllegalStateException("boom");
                }
                return 0;
            }

            @Override
            public String roleName() {
                return "xdlink-test-agent";
            }

            @Override
            public void onClose() {
                closedOn[0] = Thread.currentThread();
            }
        };
        AgentRunner r = AgentRunner.start(agent, new BackoffIdleStrategy(), e -> failed.countDown());
        await("the fifth cycle's error to reach the handler", failed);
        await("ten cycles, the error behind them", () -> cycles.get() >= 10);
        closeWithin(r);
        assertThat(r.isRunning()).isFalse();
        assertThat(r.errors()).isEqualTo(1);
        assertThat(closedOn[0]).isSameAs(r.thread());
    }

    @Test
    void aWakeDuringACycleThatFoundNothingIsNotLost() throws Exception {
        // The agent finds nothing, but work is handed over (and wake() called) while its cycle runs: the runner
        // must look again rather than idle, however its idle strategy would wait.
        AtomicInteger cycles = new AtomicInteger();
        AgentRunner[] runner = new AgentRunner[1];
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch secondCycle = new CountDownLatch(1);
        AtomicBoolean startSeen = new AtomicBoolean();
        Agent agent = new Agent() {
            @Override
            public int doWork() {
                int n = cycles.incrementAndGet();
                if (n == 1) {
                    startSeen.set(awaitQuietly(started));
                    runner[0].wake();
                } else if (n == 2) {
                    secondCycle.countDown();
                }
                return 0;
            }

            @Override
            public String roleName() {
                return "xdlink-test-agent";
            }
        };
        RecordingIdle idle = new RecordingIdle();
        runner[0] = AgentRunner.start(agent, idle, e -> { });
        started.countDown();
        await("a second cycle", secondCycle);
        assertThat(startSeen).as("the first cycle saw the test start within %s", PATIENCE).isTrue();
        await("the runner to idle once", () -> idle.calls.get() > 0);
        closeWithin(runner[0]);
        // The first cycle's empty result went straight to a second cycle: no idle call in between.
        assertThat(idle.firstIdleAfterCycle).isGreaterThanOrEqualTo(2);
        assertThat(idle.resets.get()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void idlingNeverWaitsPastTheAgentsNextDeadline() throws Exception {
        long[] clock = {1_000_000};
        CountDownLatch idled = new CountDownLatch(3);
        Agent agent = new Agent() {
            @Override
            public int doWork() {
                return 0;
            }

            @Override
            public String roleName() {
                return "xdlink-test-agent";
            }

            @Override
            public long nextDeadlineNanos() {
                return 1_250_000;
            }
        };
        RecordingIdle idle = new RecordingIdle() {
            @Override
            public void idle(int workCount, long limitNanos) {
                super.idle(workCount, limitNanos);
                idled.countDown();
            }
        };
        AgentRunner r = AgentRunner.start(agent, idle, e -> { }, () -> clock[0]);
        await("three idle calls", idled);
        closeWithin(r);
        assertThat(idle.limits).isNotEmpty().allMatch(l -> l == 250_000);
    }

    /** For the agent's own thread, which cannot throw the test's failure: whether the latch opened in time. */
    private static boolean awaitQuietly(CountDownLatch latch) {
        try {
            return latch.await(PATIENCE.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Counts what the runner asks of its idle strategy, and never waits. */
    private static class RecordingIdle implements io.xdlink.rails.IdleStrategy {
        final java.util.concurrent.ConcurrentLinkedQueue<Long> limits = new java.util.concurrent.ConcurrentLinkedQueue<>();
        final AtomicInteger resets = new AtomicInteger();
        volatile int firstIdleAfterCycle;
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public void idle(int workCount) {
            Thread.onSpinWait();
        }

        @Override
        public void idle(int workCount, long limitNanos) {
            if (calls.getAndIncrement() == 0) {
                firstIdleAfterCycle = resets.get();
            }
            limits.add(limitNanos);
            Thread.onSpinWait();
        }

        @Override
        public void reset() {
            resets.incrementAndGet();
        }
    }

    @Test
    void backoffBlocksOnlyWhenItParks() {
        BackoffIdleStrategy b = new BackoffIdleStrategy(2, 1, 1_000, 1_000);
        for (int step = 0; step < 3; step++) {
            assertThat(b.blocksNext(Long.MAX_VALUE)).as("spin or yield %d", step).isFalse();
            b.idle(0, Long.MAX_VALUE);
        }
        assertThat(b.blocksNext(Long.MAX_VALUE)).as("the park").isTrue();
        assertThat(b.blocksNext(0)).as("a timer already due is spun for").isFalse();
        b.idle(1);
        assertThat(b.blocksNext(Long.MAX_VALUE)).as("work starts the spins again").isFalse();
        assertThat(new BusySpinIdleStrategy().blocksNext(Long.MAX_VALUE)).isFalse();
    }

    @Test
    void aWakeWhileTheRunnerOnlySpinsIsTakenUpByItsNextCycle() throws Exception {
        // An idle strategy that never blocks: the runner never says it idles, and a wake handed over between two
        // spins is found by the cycle that comes next all the same.
        AtomicInteger handedOver = new AtomicInteger();
        AtomicInteger taken = new AtomicInteger();
        Agent agent = new Agent() {
            @Override
            public int doWork() {
                if (handedOver.get() > taken.get()) {
                    taken.incrementAndGet();
                    return 1;
                }
                return 0;
            }

            @Override
            public String roleName() {
                return "xdlink-test-agent";
            }
        };
        RecordingIdle spinsOnly = new RecordingIdle() {
            @Override
            public boolean blocksNext(long limitNanos) {
                return false;
            }
        };
        AgentRunner runner = AgentRunner.start(agent, spinsOnly, e -> { });
        for (int i = 1; i <= 1000; i++) {
            handedOver.incrementAndGet();
            runner.wake();
            int expected = i;
            await("hand-over " + i, () -> taken.get() == expected);
        }
        closeWithin(runner);
        // The one reset the runner's start makes; a wake never resets a strategy that did not block.
        assertThat(spinsOnly.resets).hasValue(1);
    }

    @Test
    void backoffRefusesNonsense() {
        assertThatThrownBy(() -> new BackoffIdleStrategy(1, 1, 10, 5)).hasMessageContaining("park");
        BackoffIdleStrategy b = new BackoffIdleStrategy(2, 2, 1, 4);
        for (int i = 0; i < 10; i++) {
            b.idle(0);
        }
        b.idle(1);
        new BusySpinIdleStrategy().idle(0);
    }
}
