package io.xdlink.ccl;

import io.xdlink.rails.Agent;
import io.xdlink.rails.IdleStrategy;
import io.xdlink.rails.ParkedRead;
import io.xdlink.rails.agent.ThreadNice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class EngineTurnTest {

    /** Counts duty cycles, fails on one run inside another, and can hold a cycle until released. */
    private static final class CountingAgent implements Agent {
        final AtomicInteger cycles = new AtomicInteger();
        final AtomicInteger standbyCycles = new AtomicInteger();
        final AtomicInteger nested = new AtomicInteger();
        final AtomicInteger depth = new AtomicInteger();
        volatile Runnable inside = () -> { };
        volatile RuntimeException toThrow;

        /** Cycles a caller (not the standby) ran, full and standing by. */
        final AtomicInteger callerFull = new AtomicInteger();
        final AtomicInteger callerStandingBy = new AtomicInteger();

        @Override
        public int doWork() {
            return cycle(false);
        }

        @Override
        public int doWorkStandingBy() {
            return cycle(true);
        }

        private int cycle(boolean standingBy) {
            if (depth.incrementAndGet() > 1) {
                nested.incrementAndGet();
            }
            try {
                cycles.incrementAndGet();
                if (Thread.currentThread().getName().endsWith("-standby")) {
                    standbyCycles.incrementAndGet();
                } else {
                    (standingBy ? callerStandingBy : callerFull).incrementAndGet();
                }
                inside.run();
                RuntimeException t = toThrow;
                if (t != null) {
                    throw t;
                }
                return work;
            } finally {
                depth.decrementAndGet();
            }
        }

        /** Whether the agent says when its last cycle began ({@link Agent#lastCycleNanos}), as a device's engine does. */
        volatile boolean saysItsCycleTime;

        @Override
        public long lastCycleNanos() {
            return saysItsCycleTime ? System.nanoTime() : Long.MIN_VALUE;
        }

        /** What each cycle returns: 0 for one that found nothing, more for one that found frames to take in. */
        volatile int work;

        @Override
        public String roleName() {
            return "test-engine";
        }

        /** Whether the agent leaves its rail's read to the host when asked ({@link Agent#parkRead}), as one idle rail. */
        volatile boolean parks;
        /** When the agent's next timer is due ({@link Agent#nextDeadlineNanos}). */
        volatile long nextDeadline = Long.MAX_VALUE;
        final AtomicInteger parkCalls = new AtomicInteger();
        volatile ParkedRead parked;
        volatile long parkedUntil;

        @Override
        public long nextDeadlineNanos() {
            return nextDeadline;
        }

        @Override
        public boolean parkRead(ParkedRead park, long deadline) {
            if (!parks) {
                return false;
            }
            parkCalls.incrementAndGet();
            parked = park;
            parkedUntil = deadline;
            // No host reads this block: the descriptor and place only have to be plausible.
            return park.arm(this, 0, 4096, 64, deadline);
        }

        /** Whether the agent names its rails' sockets when asked ({@link Agent#watchRails}), as two idle rails. */
        volatile boolean watches;
        final AtomicInteger watchCalls = new AtomicInteger();
        volatile long watchedUntil;

        @Override
        public boolean watchRails(ParkedRead park, long deadline) {
            if (!watches) {
                return false;
            }
            watchCalls.incrementAndGet();
            watchedUntil = deadline;
            park.watch(new int[] {5, 6}, 2, deadline);
            return true;
        }
    }

    private static EngineTurn turn(CountingAgent agent) {
        // The standby sleeps 1 ms between idle cycles, so a test's own calls get the turn most of the time.
        return new EngineTurn(agent, w -> sleepQuietly(), System::nanoTime, false, 0);
    }

    /** Inside a cycle: says the turn is held, then keeps it until released. */
    private static void hold(CountDownLatch holding, CountDownLatch release) {
        holding.countDown();
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** An idle strategy that sleeps until {@code stop}: after its first cycle, the standby runs no more. */
    private static IdleStrategy sleepsUntil(AtomicBoolean stop) {
        return w -> {
            while (!stop.get()) {
                LockSupport.parkNanos(1_000_000);
            }
        };
    }

    /** Waits until the standby ran its first cycle and went to sleep, so every later cycle is a caller's. */
    private static void awaitTheStandbysFirstCycle(CountingAgent agent) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (agent.standbyCycles.get() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        Thread.sleep(50);
    }

    @Test
    @Timeout(10)
    void theStandbyRunsAtTheNiceValueItWasGivenAndTheHostsThreadKeepsItsOwn() throws Exception {
        Integer own = ThreadNice.current().orElse(null);
        assumeTrue(own != null && own < 13, "no getpriority here, or this thread already runs at 13 or above");
        CountingAgent agent = new CountingAgent();
        AtomicReference<Integer> standbys = new AtomicReference<>();
        CountDownLatch seen = new CountDownLatch(1);
        agent.inside = () -> {
            if (Thread.currentThread().getName().endsWith("-standby")) {
                standbys.compareAndSet(null, ThreadNice.current().orElse(-100));
                seen.countDown();
            }
        };
        try (EngineTurn t = new EngineTurn(agent, w -> sleepQuietly(), System::nanoTime, false, 0, 13)) {
            assertThat(seen.await(5, TimeUnit.SECONDS)).isTrue();
            t.step();
        }
        assertThat(standbys.get()).isEqualTo(13);
        assertThat(ThreadNice.current()).contains(own);
    }

    @Test
    void aNiceValueOutsideZeroToNineteenIsRefusedNamingIt() {
        CountingAgent agent = new CountingAgent();
        assertThatThrownBy(() -> new EngineTurn(agent, w -> sleepQuietly(), System::nanoTime, false, 0, 20))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("20").hasMessageContaining("0..19");
        assertThatThrownBy(() -> new EngineTurn(agent, w -> sleepQuietly(), System::nanoTime, false, 0, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThat(agent.cycles.get()).as("no standby started").isZero();
    }

    private static void sleepQuietly() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void theStandbyRunsTheEngineWhileNoCallerDoes() throws Exception {
        CountingAgent agent = new CountingAgent();
        try (EngineTurn t = turn(agent)) {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (agent.cycles.get() < 3 && System.nanoTime() < until) {
                Thread.sleep(1);
            }
            assertThat(agent.cycles.get()).isGreaterThanOrEqualTo(3);
        }
    }

    @Test
    void aCallerStepsTheEngineItselfAndNeverInsideACycle() {
        CountingAgent agent = new CountingAgent();
        try (EngineTurn t = turn(agent)) {
            // A completion produced inside a cycle drains an end, whose poll steps again: that step does nothing.
            agent.inside = t::step;
            int before = agent.cycles.get();
            for (int i = 0; i < 100; i++) {
                t.step();
            }
            assertThat(agent.cycles.get() - before).isPositive();
            assertThat(agent.nested.get()).isZero();
        }
    }

    @Test
    @Timeout(60)
    void aCallerNeverWaitsForTheTurn() throws Exception {
        CountingAgent agent = new CountingAgent();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (EngineTurn t = turn(agent)) {
            agent.inside = () -> hold(holding, release);
            assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue(); // the standby holds the turn now
            int before = agent.cycles.get();
            t.step(); // waited for the turn, it would never return: the standby lets go only after it did
            assertThat(agent.cycles.get()).isEqualTo(before);
            agent.inside = () -> { };
            release.countDown();
        }
    }

    @Test
    @Timeout(60)
    void workPostedWhileTheStandbyHoldsTheTurnRunsBeforeTheStandbyIdles() throws Exception {
        CountingAgent agent = new CountingAgent();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean stop = new AtomicBoolean();
        // Once it idles, this standby does not run the engine again until the test lets it go: only the mark a
        // missed step leaves can bring the next cycle.
        IdleStrategy sleepsUntilStopped = sleepsUntil(stop);
        // Set before the standby starts: its very first cycle holds the turn, since after one that did not it would
        // idle until stopped.
        agent.inside = () -> {
            agent.inside = () -> { };
            hold(holding, release);
        };
        EngineTurn t = new EngineTurn(agent, sleepsUntilStopped, System::nanoTime, false, 0);
        try {
            assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue(); // the standby holds the turn now
            int before = agent.cycles.get();
            t.step(); // a post's step: the turn is taken, so it marks it and returns
            release.countDown();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (agent.cycles.get() == before && System.nanoTime() < until) {
                Thread.sleep(1);
            }
            assertThat(agent.cycles.get()).as("the standby ran one more cycle for the posted work").isGreaterThan(before);
        } finally {
            stop.set(true);
            release.countDown();
            t.close();
        }
    }

    @Test
    @Timeout(60)
    void whileTheHostPollsTheStandbyStepsAsideAndComesBackWhenItStops() throws Exception {
        CountingAgent agent = new CountingAgent();
        long pause = TimeUnit.MILLISECONDS.toNanos(100);
        try (EngineTurn t = new EngineTurn(agent, w -> sleepQuietly(), System::nanoTime, true, pause)) {
            // The host polls for 800 ms: the standby, sleeping 1 ms between idle cycles, would run hundreds of them,
            // but each host call tells it to stay aside until 100 ms have passed since. Standing aside it runs no
            // cycle while the calls go on; it used to run one at the end of every pause, seven here, racing the
            // host's calls for the turn. A call held up for a whole pause allows one.
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(800);
            t.poll();
            Thread.sleep(110); // a cycle of the standby's own that began before the first call ends by now
            int before = agent.standbyCycles.get();
            while (System.nanoTime() < until) {
                t.poll();
                LockSupport.parkNanos(100_000);
            }
            assertThat(agent.standbyCycles.get() - before).as("standby cycles while the host polled")
                    .isLessThanOrEqualTo(1);
            int stopped = agent.standbyCycles.get();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (agent.standbyCycles.get() < stopped + 3 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertThat(agent.standbyCycles.get()).as("the standby runs again once the host stopped")
                    .isGreaterThanOrEqualTo(stopped + 3);
        }
    }

    @Test
    @Timeout(60)
    void whileTheHostPollsItsLooksStandByAndItsPostsRunFullCycles() throws Exception {
        for (boolean hostPolls : new boolean[] {true, false}) {
            CountingAgent agent = new CountingAgent();
            AtomicBoolean stop = new AtomicBoolean();
            // After its first cycle this standby idles until the test ends, so every call below takes the turn.
            EngineTurn t = new EngineTurn(agent, sleepsUntil(stop), System::nanoTime, hostPolls, 0);
            try {
                awaitTheStandbysFirstCycle(agent);
                for (int i = 0; i < 5; i++) {
                    t.poll();
                }
                for (int i = 0; i < 3; i++) {
                    t.step();
                }
                // A look that took a message in leaves the acknowledgement the peer asked for to the host's next
                // post, where it shares a write; a host that does not poll may never post again, so it sends it.
                assertThat(agent.callerStandingBy.get()).as("looks standing by, hostPolls=" + hostPolls)
                        .isEqualTo(hostPolls ? 5 : 0);
                assertThat(agent.callerFull.get()).as("full cycles, hostPolls=" + hostPolls)
                        .isEqualTo(hostPolls ? 3 : 8);
            } finally {
                stop.set(true);
                t.close();
            }
        }
    }

    @Test
    @Timeout(60)
    void aPostLeftForLaterRunsNothingNowAndMakesTheNextLookAPostsCycle() throws Exception {
        for (boolean hostPolls : new boolean[] {true, false}) {
            CountingAgent agent = new CountingAgent();
            AtomicBoolean stop = new AtomicBoolean();
            // A pause longer than the test: once the host calls, the standby stays aside and runs nothing.
            EngineTurn t = new EngineTurn(agent, sleepsUntil(stop), System::nanoTime, hostPolls,
                    TimeUnit.SECONDS.toNanos(30));
            String mode = "hostPolls=" + hostPolls;
            try {
                awaitTheStandbysFirstCycle(agent);
                t.postLater();
                // No host call yet: it may not call again soon, so the post runs now.
                assertThat(agent.callerFull.get()).as("cycles of a first post, " + mode).isEqualTo(1);
                t.poll();
                t.postLater();
                // A polling host that keeps calling calls again at once: its post waits for that call, which runs
                // it as a post's cycle (what the peer asked to have acknowledged goes with it). A host that does not
                // poll may not call again: its post runs now.
                assertThat(agent.callerFull.get()).as("cycles after a post of a calling host, " + mode)
                        .isEqualTo(hostPolls ? 1 : 3);
                t.poll();
                t.poll();
                assertThat(agent.callerFull.get()).as("full cycles, " + mode).isEqualTo(hostPolls ? 2 : 5);
                assertThat(agent.callerStandingBy.get()).as("looks standing by, " + mode)
                        .isEqualTo(hostPolls ? 2 : 0);
            } finally {
                stop.set(true);
                t.close();
            }
        }
    }

    /**
     * A standby that steps aside for the host's calls lets go of the rails it would sleep on (so what arrives
     * meanwhile wakes no one), and does so holding the turn, since the rails' registrations are the engine's.
     */
    @Test
    @Timeout(60)
    void aStandbyThatStepsAsideLetsGoOfTheRailsHoldingTheTurn() throws Exception {
        CountingAgent agent = new CountingAgent();
        AtomicInteger asides = new AtomicInteger();
        AtomicInteger withoutTheTurn = new AtomicInteger();
        AtomicReference<EngineTurn> self = new AtomicReference<>();
        IdleStrategy idle = new IdleStrategy() {
            @Override
            public void idle(int workCount) {
                sleepQuietly();
            }

            @Override
            public void stepAside() {
                asides.incrementAndGet();
                // A look from the thread that holds the turn runs nothing; from one that does not, a cycle.
                int before = agent.cycles.get();
                self.get().poll();
                if (agent.cycles.get() != before) {
                    withoutTheTurn.incrementAndGet();
                }
            }
        };
        long pause = TimeUnit.MILLISECONDS.toNanos(20);
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
        try (EngineTurn t = new EngineTurn(agent, idle, System::nanoTime, true, pause)) {
            self.set(t);
            while (System.nanoTime() < until) {
                t.poll();
                LockSupport.parkNanos(100_000);
            }
        }
        assertThat(asides.get()).as("pauses while the host polled").isGreaterThan(0);
        assertThat(withoutTheTurn).hasValue(0);
    }

    /**
     * A host's call notes when it ran at the time its duty cycle read, not by reading the clock again: a host polls
     * many times a message. The standby still steps aside by that time.
     */
    @Test
    @Timeout(60)
    void aHostsCallsAreNotedAtTheirCyclesTimeWithoutAClockReadOfTheirOwn() throws Exception {
        Thread host = Thread.currentThread();
        AtomicInteger hostReads = new AtomicInteger();
        CountingAgent agent = new CountingAgent();
        agent.saysItsCycleTime = true;
        long pause = TimeUnit.MILLISECONDS.toNanos(100);
        LongSupplier clock = () -> {
            if (Thread.currentThread() == host) {
                hostReads.incrementAndGet();
            }
            return System.nanoTime();
        };
        try (EngineTurn t = new EngineTurn(agent, w -> sleepQuietly(), clock, true, pause)) {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
            // The first call may find the standby's first cycle holding the turn, and note itself with a clock read.
            t.poll();
            Thread.sleep(110);
            int reads = hostReads.get();
            int before = agent.standbyCycles.get();
            while (System.nanoTime() < until) {
                t.poll();
                t.step();
                LockSupport.parkNanos(100_000);
            }
            assertThat(hostReads.get() - reads).as("clock reads by the host's calls").isZero();
            assertThat(agent.standbyCycles.get() - before).as("standby cycles while the host polled").isLessThan(10);
        }
    }

    /**
     * A standby whose cycles keep finding work (frames of a stream arriving) still steps aside while the host calls:
     * the host's calls take them in.
     */
    @Test
    @Timeout(60)
    void aStandbyWhoseCyclesFindWorkStillStepsAsideWhileTheHostPolls() throws Exception {
        CountingAgent agent = new CountingAgent();
        agent.work = 1;
        long pause = TimeUnit.MILLISECONDS.toNanos(100);
        try (EngineTurn t = new EngineTurn(agent, w -> sleepQuietly(), System::nanoTime, true, pause)) {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
            t.poll();
            Thread.sleep(110); // a cycle of the standby's own that began before the first call ends by now
            int before = agent.standbyCycles.get();
            while (System.nanoTime() < until) {
                t.poll();
                LockSupport.parkNanos(100_000);
            }
            assertThat(agent.standbyCycles.get() - before).as("standby cycles while the host polled")
                    .isLessThan(10);
        }
    }

    /**
     * A host's call that finds the turn taken counts as a call: the standby, holding the turn in a long cycle while
     * the host polls, steps aside when that cycle ends, though the host never got the turn to run a cycle of its own.
     */
    @Test
    @Timeout(60)
    void aHostsCallThatFindsTheTurnTakenTellsTheStandbyToStepAside() throws Exception {
        CountingAgent agent = new CountingAgent();
        agent.work = 1;
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        agent.inside = () -> {
            if (Thread.currentThread().getName().endsWith("-standby") && release.getCount() > 0) {
                hold(holding, release);
            }
        };
        long pause = TimeUnit.MILLISECONDS.toNanos(200);
        try (EngineTurn t = new EngineTurn(agent, w -> { }, System::nanoTime, true, pause)) {
            assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
            int calls = agent.callerFull.get() + agent.callerStandingBy.get();
            for (int i = 0; i < 100; i++) {
                t.poll(); // the standby holds the turn: each look finds it taken
            }
            assertThat(agent.callerFull.get() + agent.callerStandingBy.get()).as("cycles the host ran")
                    .isEqualTo(calls);
            int before = agent.standbyCycles.get();
            release.countDown();
            Thread.sleep(100);
            assertThat(agent.standbyCycles.get() - before).as("standby cycles after its long one, within the pause")
                    .isLessThanOrEqualTo(1);
        }
    }

    @Test
    @Timeout(60)
    void whileAPollingHostsCycleHoldsTheTurnTheStandbyWaitsOffTheRails() throws Exception {
        for (boolean hostPolls : new boolean[] {true, false}) {
            CountingAgent agent = new CountingAgent();
            AtomicInteger sleeps = new AtomicInteger();
            // A sleep on the rails that ends at once, as it does while bytes the host's cycle has not read are there.
            IdleStrategy endsAtOnce = w -> sleeps.incrementAndGet();
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            agent.inside = () -> {
                if (!Thread.currentThread().getName().endsWith("-standby")) {
                    hold(holding, release);
                }
            };
            EngineTurn t = new EngineTurn(agent, endsAtOnce, System::nanoTime, hostPolls,
                    TimeUnit.MILLISECONDS.toNanos(100));
            Thread host = Thread.ofPlatform().start(() -> {
                while (holding.getCount() > 0) {
                    t.poll();
                }
            });
            try {
                assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
                int before = sleeps.get();
                Thread.sleep(200);
                int during = sleeps.get() - before;
                // A polling host's standby waits for the cycle to end instead of sleeping on the rails over and over;
                // one whose host does not poll keeps its old way (its calls hold the turn only when they post).
                if (hostPolls) {
                    assertThat(during).as("sleeps on the rails while a polling host's cycle held the turn")
                            .isLessThan(5);
                } else {
                    assertThat(during).as("sleeps on the rails while a host's post held the turn")
                            .isGreaterThan(100);
                }
            } finally {
                release.countDown();
                host.join();
                t.close();
            }
        }
    }

    @Test
    void aTurnWhoseHostDoesNotPollNeverPausesItsStandby() throws Exception {
        CountingAgent agent = new CountingAgent();
        try (EngineTurn t = new EngineTurn(agent, w -> sleepQuietly(), System::nanoTime, false,
                TimeUnit.SECONDS.toNanos(100))) {
            t.poll();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (agent.standbyCycles.get() < 3 && System.nanoTime() < deadline) {
                t.poll();
                Thread.sleep(1);
            }
            assertThat(agent.standbyCycles.get()).isGreaterThanOrEqualTo(3);
            assertThat(t.hostPolls()).isFalse();
        }
    }

    @Test
    void anEngineFailureStaysInsideTheTurn() {
        CountingAgent agent = new CountingAgent();
        agent.toThrow = new IllegalStateException("engine broke");
        try (EngineTurn t = turn(agent)) {
            for (int i = 0; i < 10; i++) {
                t.step();
            }
            assertThat(t.lastError()).hasMessage("engine broke");
        }
    }

    @Test
    void noneStepsNothingAndClosesQuietly() {
        EngineTurn.NONE.step();
        EngineTurn.NONE.close();
        assertThat(EngineTurn.NONE.lastError()).isNull();
    }

    @Test
    @Timeout(60)
    void aHostsCycleThatLeftNothingToDoLeavesTheRailsReadToItsLooksUntilTheNextTimerAndAPostTakesItBack()
            throws Exception {
        CountingAgent agent = new CountingAgent();
        agent.parks = true;
        AtomicBoolean stop = new AtomicBoolean();
        long pause = TimeUnit.SECONDS.toNanos(30);
        EngineTurn t = new EngineTurn(agent, sleepsUntil(stop), System::nanoTime, true, pause);
        try {
            awaitTheStandbysFirstCycle(agent);
            assertThat(agent.parkCalls.get()).as("the standby leaves nothing to the host").isZero();
            long before = System.nanoTime();
            t.poll();
            assertThat(agent.parkCalls.get()).isEqualTo(1);
            assertThat(agent.parked.address()).isEqualTo(t.parkAddress()).isNotZero();
            assertThat(agent.parked.state()).isEqualTo(ParkedRead.ARMED);
            assertThat(agent.parkedUntil).as("a quarter of the standby's pause at most")
                    .isBetween(before, System.nanoTime() + pause / 4);

            t.postLater();
            assertThat(agent.parked.state()).as("a post left for the host's next call takes the read back")
                    .isEqualTo(ParkedRead.IDLE);
            agent.nextDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5);
            t.poll();
            assertThat(agent.callerFull.get()).as("that call ran the post's cycle").isEqualTo(1);
            assertThat(agent.parkCalls.get()).isEqualTo(2);
            assertThat(agent.parkedUntil).as("no later than the engine's next timer")
                    .isLessThan(agent.nextDeadline + TimeUnit.MICROSECONDS.toNanos(100));

            agent.parked.claim(agent); // the rail's next poll takes it back
            agent.nextDeadline = System.nanoTime() - 1;
            t.poll();
            assertThat(agent.parkCalls.get()).as("a timer due: the next look runs the engine").isEqualTo(2);
        } finally {
            stop.set(true);
            t.close();
        }
    }

    @Test
    @Timeout(60)
    void aHostsCycleOnSeveralRailsNamesTheirSocketsUntilTheNextTimerAndAnyCycleThatCannotTakesThemBack()
            throws Exception {
        CountingAgent agent = new CountingAgent();
        agent.watches = true;
        AtomicBoolean stop = new AtomicBoolean();
        long pause = TimeUnit.SECONDS.toNanos(30);
        EngineTurn t = new EngineTurn(agent, sleepsUntil(stop), System::nanoTime, true, pause);
        try {
            awaitTheStandbysFirstCycle(agent);
            long before = System.nanoTime();
            t.poll();
            assertThat(agent.watchCalls.get()).isEqualTo(1);
            MemorySegment block = MemorySegment.ofAddress(t.parkAddress()).reinterpret(ParkedRead.BYTES);
            assertThat(block.get(JAVA_LONG, ParkedRead.WATCH_DEADLINE)).as("a quarter of the standby's pause at most")
                    .isEqualTo(agent.watchedUntil).isBetween(before, System.nanoTime() + pause / 4);
            assertThat(block.get(JAVA_INT, ParkedRead.WATCH_COUNT)).isEqualTo(2);

            t.postLater();
            assertThat(block.get(JAVA_LONG, ParkedRead.WATCH_DEADLINE)).as("a post left for the host's next call")
                    .isZero();
            t.poll();
            assertThat(agent.watchCalls.get()).isEqualTo(2);
            agent.watches = false;
            t.poll();
            assertThat(block.get(JAVA_LONG, ParkedRead.WATCH_DEADLINE)).as("a cycle that named nothing").isZero();
            agent.watches = true;
            t.poll();
            agent.nextDeadline = System.nanoTime() - 1;
            t.poll();
            assertThat(block.get(JAVA_LONG, ParkedRead.WATCH_DEADLINE)).as("a timer due").isZero();
            agent.nextDeadline = Long.MAX_VALUE;
            t.poll();
            assertThat(block.get(JAVA_LONG, ParkedRead.WATCH_DEADLINE)).isNotZero();
            agent.toThrow = new IllegalStateException("a rail broke");
            t.poll();
            assertThat(t.lastError()).isSameAs(agent.toThrow);
            assertThat(block.get(JAVA_LONG, ParkedRead.WATCH_DEADLINE)).as("a cycle that failed").isZero();
            assertThat(block.get(JAVA_LONG, ParkedRead.WATCH_VERSION) % 2).as("no write left half done").isZero();
        } finally {
            stop.set(true);
            t.close();
        }
    }

    @Test
    @Timeout(60)
    void aPostThatFindsTheTurnTakenTakesTheReadBackAndTheHolderLeavesNoneBehindIt() throws Exception {
        CountingAgent agent = new CountingAgent();
        agent.parks = true;
        AtomicBoolean stop = new AtomicBoolean();
        EngineTurn t = new EngineTurn(agent, sleepsUntil(stop), System::nanoTime, true, TimeUnit.SECONDS.toNanos(30));
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try {
            awaitTheStandbysFirstCycle(agent);
            t.poll();
            ParkedRead park = agent.parked;
            assertThat(park.state()).isEqualTo(ParkedRead.ARMED);
            park.claim(agent);
            // Another host thread's look holds the turn, its cycle under way.
            agent.inside = () -> {
                agent.inside = () -> { };
                hold(holding, release);
            };
            Thread other = Thread.ofPlatform().start(t::poll);
            assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
            t.step(); // a post: the turn is taken, so it marks it
            release.countDown();
            other.join();
            assertThat(agent.parkCalls.get()).as("the holder's cycle asked to park").isEqualTo(2);
            assertThat(park.state()).as("and took it back at once for the marked post").isEqualTo(ParkedRead.IDLE);
        } finally {
            stop.set(true);
            release.countDown();
            t.close();
        }
    }

    @Test
    void aHostThatDoesNotPollHasNoReadToLeave() {
        CountingAgent agent = new CountingAgent();
        agent.parks = true;
        EngineTurn t = turn(agent);
        try {
            assertThat(t.parkAddress()).isZero();
            t.poll();
            t.step();
            assertThat(agent.parkCalls.get()).isZero();
            assertThat(EngineTurn.NONE.parkAddress()).isZero();
        } finally {
            t.close();
        }
    }
}
