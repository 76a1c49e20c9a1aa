package io.xdlink.rails.agent;

import io.xdlink.rails.Agent;
import io.xdlink.rails.IdleStrategy;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

class OwnerRunnerTest {

    /** Counts cycles, notes which threads ran them and whether two ever overlapped; fails on cycle {@code failAt}. */
    private static final class Probe implements Agent {
        final AtomicInteger cycles = new AtomicInteger();
        final Set<Thread> threads = ConcurrentHashMap.newKeySet();
        final AtomicInteger inside = new AtomicInteger();
        volatile boolean overlapped;
        volatile int failAt = -1;
        volatile CountDownLatch seenOnOther = new CountDownLatch(1);
        volatile Thread owner;

        @Override
        public int doWork() {
            if (inside.incrementAndGet() > 1) {
                overlapped = true;
            }
            try {
                threads.add(Thread.currentThread());
                if (Thread.currentThread() != owner) {
                    seenOnOther.countDown();
                }
                if (cycles.incrementAndGet() == failAt) {
                    throw new IllegalStateException("boom");
                }
                return 0;
            } finally {
                inside.decrementAndGet();
            }
        }

        @Override
        public String roleName() {
            return "xdlink-test-owned";
        }
    }

    @Test
    void theOwnersStepsRunTheAgentOnItsOwnThreadAndTheStandbyOnlyWhileItIsAway() throws Exception {
        Probe agent = new Probe();
        agent.owner = Thread.currentThread();
        AtomicReference<Throwable> error = new AtomicReference<>();
        try (OwnerRunner runner = new OwnerRunner(agent, BusySpinIdleStrategy::new, error::set, System::nanoTime)) {
            for (int i = 0; i < 100; i++) {
                runner.step(0);
            }
            assertThat(agent.threads).containsExactly(Thread.currentThread());
            assertThat(agent.cycles).hasValue(100);

            // Away on a call that blocks until the standby has run the agent.
            boolean ranMeanwhile = runner.away(() -> {
                try {
                    return agent.seenOnOther.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
            assertThat(ranMeanwhile).as("the standby ran the agent while the owner was away").isTrue();
            assertThat(agent.threads).contains(runner.standbyThread());

            // Back: the standby stops, and the owner's cycles are its own again.
            int before = cycles(agent);
            Thread.sleep(50);
            int after = cycles(agent);
            assertThat(after - before).as("the standby is parked once the owner is back").isLessThanOrEqualTo(1);
            assertThat(agent.overlapped).as("two threads never ran a cycle at once").isFalse();

            agent.failAt = agent.cycles.get() + 1;
            assertThat(runner.step(0)).as("a failed cycle counts as work").isEqualTo(1);
            assertThat(error.get()).hasMessage("boom");
        }
    }

    private static int cycles(Probe p) {
        return p.cycles.get();
    }

    @Test
    void aWakeEndsTheParkOfWhicheverThreadIdles() throws Exception {
        Probe agent = new Probe();
        // Parks at once, for up to a minute: only a wake ends it sooner.
        try (OwnerRunner runner = new OwnerRunner(agent,
                () -> new BackoffIdleStrategy(0, 0, 60_000_000_000L, 60_000_000_000L), e -> { }, System::nanoTime)) {
            Thread owner = Thread.ofPlatform().start(() -> runner.step(0));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (owner.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(owner.getState()).as("the owner parked").isEqualTo(Thread.State.TIMED_WAITING);
            runner.wake();
            owner.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(owner.isAlive()).as("the wake ended the park").isFalse();
            // A wake that comes while nobody idles is not lost: the next idle looks again at once instead.
            runner.wake();
            runner.step(0);
            assertThat(agent.cycles).hasValue(2);
        }
    }

    @Test
    void aThreadIsNamedTheIdlerOnlyForAStepThatBlocks() {
        Probe agent = new Probe();
        AtomicReference<Thread> idlerWhileSpinning = new AtomicReference<>();
        AtomicReference<Thread> idlerWhileParking = new AtomicReference<>();
        OwnerRunner[] runner = new OwnerRunner[1];
        // Spins on its first idle step and "parks" (returns at once) on the second, noting whom a waker would unpark.
        Supplier<IdleStrategy> idles = () -> new IdleStrategy() {
            private int steps;

            @Override
            public void idle(int workCount) {
            }

            @Override
            public void idle(int workCount, long limitNanos) {
                (steps++ == 0 ? idlerWhileSpinning : idlerWhileParking).set(runner[0].idlerForTests());
            }

            @Override
            public boolean blocksNext(long limitNanos) {
                return steps > 0;
            }
        };
        try (OwnerRunner r = new OwnerRunner(agent, idles, e -> { }, System::nanoTime)) {
            runner[0] = r;
            r.step(0);
            r.step(0);
            assertThat(idlerWhileSpinning.get()).as("a spin needs no unpark").isNull();
            assertThat(idlerWhileParking.get()).isSameAs(Thread.currentThread());
            assertThat(r.idlerForTests()).isNull();
        }
    }

    @Test
    void closeStopsTheStandbyEvenWhileItRuns() throws Exception {
        Probe agent = new Probe();
        agent.owner = Thread.currentThread();
        OwnerRunner runner = new OwnerRunner(agent, BusySpinIdleStrategy::new, e -> { }, System::nanoTime);
        CountDownLatch release = new CountDownLatch(1);
        Thread away = Thread.ofPlatform().start(() -> runner.away(() -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        assertThat(agent.seenOnOther.await(30, TimeUnit.SECONDS)).isTrue();
        runner.close();
        assertThat(runner.standbyThread().isAlive()).isFalse();
        release.countDown();
        away.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(away.isAlive()).isFalse();
    }

    @Test
    void anIdleStepTellsItsStrategyWhetherTheLoopWaitsForAnAnswer() {
        Probe agent = new Probe();
        java.util.List<Boolean> told = new java.util.concurrent.CopyOnWriteArrayList<>();
        Supplier<IdleStrategy> idles = () -> new IdleStrategy() {
            @Override
            public void idle(int workCount) {
            }

            @Override
            public void awaiting(boolean awaiting) {
                told.add(awaiting);
            }
        };
        try (OwnerRunner r = new OwnerRunner(agent, idles, e -> { }, System::nanoTime)) {
            r.step(0, true);
            r.step(0);
            r.step(0, false);
            r.step(3, true); // the caller's own pass did work: no idle step, nothing to tell
            assertThat(told).containsExactly(true, false, false);
        }
    }
}
