package io.xdlink.sim.wire;

import io.xdlink.sim.SimClock;
import io.xdlink.sim.fault.FaultPlan;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.VirtualScheduler;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The fault plan applied to real frames on a rail: what arrives, how often, and in what state. */
class FrameFaultsOnRailTest {
    private static final long SEED = Long.getLong("xdlink.seed", 20261130L);
    private static final int FRAMES = 20_000;

    private final VirtualScheduler scheduler = new VirtualScheduler();
    private final SimClock clock = SimClock.virtual(scheduler);

    /** Sends FRAMES frames of 512 bytes over a 40 Gb/s rail under {@code plan} and returns what arrived. */
    private Run run(FaultPlan plan) {
        return run(plan, 512);
    }

    /** As above with frames of {@code size} bytes (64 or less: the channel keeps them in its compact head area). */
    private Run run(FaultPlan plan, int size) {
        SimRail r = new SimRail("c/rail0", "c", LinkState.of(Generation.GEN3, 2),
                new Wire("c:a->b", clock, 40_000, 1_000), new Wire("c:b->a", clock, 40_000, 1_000), plan,
                new SimRail.Rings(256, 256), new SimRail.Rings(256, 256), new Waker(clock), () -> { });
        Pump pump = new Pump(scheduler);
        Pump.Sender tx = pump.send(r.endA(), size);
        tx.limit = FRAMES;
        Pump.Receiver rx = pump.receive(r.endB());
        pump.runUntil(100_000_000);
        assertThat(tx.next).as("seed %d", SEED).isEqualTo(FRAMES);
        return new Run(rx, r.endA().sentStats());
    }

    record Run(Pump.Receiver rx, ChannelStats stats) {
    }

    @Test
    void independentLossLosesAboutTheRate() {
        Run run = run(FaultPlan.NONE.withSeed(SEED).withLoss(0.05));
        assertThat(run.stats.lost() / (double) FRAMES).as("seed %d", SEED).isCloseTo(0.05, within(0.006));
        assertThat(run.rx.frames).isEqualTo(FRAMES - run.stats.lost());
        assertThat(run.rx.order).isSorted().doesNotHaveDuplicates();
        assertThat(run.rx.damaged).isZero();
    }

    @Test
    void burstsLoseRunsOfFramesOfTheMeanLength() {
        Run run = run(FaultPlan.NONE.withSeed(SEED).withBursts(0.002, 8));
        List<Integer> bursts = new ArrayList<>();
        long expected = 0;
        for (long seq : run.rx.order) {
            if (seq > expected) {
                bursts.add((int) (seq - expected));
            }
            expected = seq + 1;
        }
        double mean = bursts.stream().mapToInt(Integer::intValue).average().orElse(0);
        // About FRAMES x 0.002 = 40 bursts; two bursts can touch, so the mean of gaps is near 8, a little above.
        assertThat(bursts.size()).as("seed %d", SEED).isBetween(20, 60);
        assertThat(mean).as("seed %d", SEED).isBetween(5.0, 12.0);
        assertThat(run.stats.lost()).isEqualTo(bursts.stream().mapToLong(Integer::longValue).sum());
    }

    @Test
    void duplicatesArriveTwiceAndIntact() {
        Run run = run(FaultPlan.NONE.withSeed(SEED).withDuplicates(0.01));
        Set<Long> seen = new HashSet<>();
        long twice = run.rx.order.stream().filter(s -> !seen.add(s)).count();
        assertThat(twice).isEqualTo(run.stats.duplicated()).isPositive();
        assertThat(seen).hasSize(FRAMES);
        assertThat(run.rx.damaged).isZero();
    }

    @Test
    void reorderedFramesArriveOnceEachButOutOfOrder() {
        Run run = run(FaultPlan.NONE.withSeed(SEED).withReorder(0.01));
        long inversions = 0;
        for (int i = 1; i < run.rx.order.size(); i++) {
            if (run.rx.order.get(i) < run.rx.order.get(i - 1)) {
                inversions++;
            }
        }
        assertThat(inversions).as("seed %d", SEED).isEqualTo(run.stats.reordered()).isPositive();
        assertThat(run.rx.order).hasSize(FRAMES).doesNotHaveDuplicates();
    }

    @Test
    void corruptionFlipsOneBitInTheDeliveredCopyOnly() {
        Run run = run(FaultPlan.NONE.withSeed(SEED).withCorruption(0.01));
        assertThat(run.rx.damaged).as("seed %d", SEED).isEqualTo(run.stats.corrupted()).isPositive();
        assertThat(run.rx.frames).isEqualTo(FRAMES);
    }

    @Test
    void smallFramesKeptInTheCompactAreaAreDuplicatedAndReorderedIntact() {
        Run run = run(FaultPlan.NONE.withSeed(SEED).withDuplicates(0.02).withReorder(0.02), 48);
        Set<Long> seen = new HashSet<>();
        long twice = run.rx.order.stream().filter(s -> !seen.add(s)).count();
        assertThat(twice).as("seed %d", SEED).isEqualTo(run.stats.duplicated()).isPositive();
        assertThat(run.stats.reordered()).isPositive();
        assertThat(seen).hasSize(FRAMES);
        assertThat(run.rx.damaged).isZero();
    }

    @Test
    void smallFramesKeptInTheCompactAreaAreCorruptedOneBitAtATime() {
        Run run = run(FaultPlan.NONE.withSeed(SEED).withCorruption(0.01), 48);
        assertThat(run.rx.damaged).as("seed %d", SEED).isEqualTo(run.stats.corrupted()).isPositive();
        assertThat(run.rx.frames).isEqualTo(FRAMES);
    }

    @Test
    void theSameSeedGivesTheSameRunAndAnotherSeedAnother() {
        FaultPlan plan = FaultPlan.NONE.withSeed(SEED).withLoss(0.02).withReorder(0.02).withDuplicates(0.02);
        List<Long> first = run(plan).rx.order;
        List<Long> again = new FrameFaultsOnRailTest().run(plan).rx.order;
        List<Long> other = new FrameFaultsOnRailTest().run(plan.withSeed(SEED + 1)).rx.order;
        assertThat(again).as("seed %d", SEED).isEqualTo(first);
        assertThat(other).isNotEqualTo(first);
    }
}
