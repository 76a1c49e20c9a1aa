package io.xdlink.rails.agent;

import io.xdlink.rails.Agent;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AgentRunnerTest {

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
        assertThat(failed.await(30, TimeUnit.SECONDS)).isTrue();
        while (cycles.get() < 10) {
            Thread.sleep(1);
        }
        r.close();
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
        Agent agent = new Agent() {
            @Override
            public int doWork() {
                int n = cycles.incrementAndGet();
                if (n == 1) {
                    awaitQuietly(started);
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
        assertThat(secondCycle.await(30, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < 30_000 && idle.calls.get() == 0; i++) {
            Thread.sleep(1);
        }
        runner[0].close();
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
        assertThat(idled.await(30, TimeUnit.SECONDS)).isTrue();
        r.close();
        assertThat(idle.limits).isNotEmpty().allMatch(l -> l == 250_000);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
