package io.xdlink.sim.wire;

import io.xdlink.sim.SimClock;
import io.xdlink.sim.fault.FaultPlan;
import io.xdlink.sim.fault.FrameFaults;
import io.xdlink.xdomain.VirtualScheduler;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault stage in front of a channel does to each frame exactly what the seeded plan draws for it: a second
 * stream from the same plan and name predicts, frame by frame, which are lost, which arrive twice, which arrive
 * behind the next one, and which bit of which frame flips, and the receiver must see precisely that.
 */
class FaultStageTest {
    private static final long SEED = Long.getLong("xdlink.seed", 20261201L);
    private static final int FRAMES = 4000;

    private final VirtualScheduler scheduler = new VirtualScheduler();
    /** Unpaced: frames arrive when published, so only the fault stage decides what arrives and in what order. */
    private final SimClock clock = SimClock.unpaced(scheduler);

    /**
     * A frame as the receiver should see it: its bytes, and for messages which frame it is (as its first bytes say,
     * which a flipped bit may have changed, so only the bytes count).
     */
    record Arrival(long seq, byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Arrival a && java.util.Arrays.equals(a.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return "frame " + seq + " (" + bytes.length + " bytes)";
        }
    }

    private static int sizeOf(long seq) {
        // Small frames lie in the ring's compact area, larger ones in their own slots: both must take every fault.
        return seq % 3 == 0 ? 40 : 100 + (int) (seq % 7) * 500;
    }

    @Test
    void eachFrameMeetsExactlyTheFateThePlanDrawsForIt() {
        FaultPlan plan = FaultPlan.NONE.withSeed(SEED).withLoss(0.05).withBursts(0.005, 3).withReorder(0.05)
                .withDuplicates(0.05).withCorruption(0.05);
        FrameChannel channel = FrameChannel.of(new Wire("c:a->b", clock, 40_000, 0), new Waker(clock),
                FrameFaults.of(plan, "c/rail0:a->b"), true, 64, FRAMES * 2);
        assertThat(channel).isInstanceOf(ShapedChannel.class);

        FrameFaults predictor = FrameFaults.of(plan, "c/rail0:a->b");
        List<Arrival> expected = new ArrayList<>();
        Arrival held = null;
        for (long seq = 0; seq < FRAMES; seq++) {
            MemorySegment frame = Frames.frame(seq, sizeOf(seq));
            assertThat(channel.offer(frame)).isTrue();
            int fate = predictor.next();
            if ((fate & FrameFaults.LOSE) != 0) {
                continue;
            }
            byte[] bytes = frame.toArray(ValueLayout.JAVA_BYTE);
            if ((fate & FrameFaults.CORRUPT) != 0) {
                long bit = predictor.bitToFlip(bytes.length);
                bytes[(int) (bit >>> 3)] ^= (byte) (1 << (bit & 7));
            }
            Arrival a = new Arrival(seq, bytes);
            boolean twice = (fate & FrameFaults.DUPLICATE) != 0 && (fate & FrameFaults.HOLD) == 0;
            if (held != null) {
                expected.add(a);
                if (twice) {
                    expected.add(a);
                }
                expected.add(held);
                held = null;
            } else if ((fate & FrameFaults.HOLD) != 0) {
                held = a;
            } else {
                expected.add(a);
                if (twice) {
                    expected.add(a);
                }
            }
        }
        scheduler.advance(FaultStage.HOLD_NANOS);
        assertThat(channel.flush()).isEqualTo(held == null ? 0 : 1);
        if (held != null) {
            expected.add(held);
        }

        List<Arrival> got = new ArrayList<>();
        while (channel.poll(f -> got.add(new Arrival(Frames.seq(f), f.toArray(ValueLayout.JAVA_BYTE))), 100) > 0) {
            // take everything
        }
        assertThat(got).as("seed %d", SEED).containsExactlyElementsOf(expected);

        ChannelStats s = channel.stats();
        assertThat(s.sent()).isEqualTo(FRAMES);
        assertThat(s.delivered()).isEqualTo(expected.size());
        assertThat(s.lost()).isPositive();
        assertThat(s.duplicated()).isPositive();
        assertThat(s.reordered()).isPositive();
        assertThat(s.corrupted()).isPositive();
        assertThat(s.sent() - s.lost() + s.duplicated()).isEqualTo(s.delivered());
    }

    @Test
    void aHeldFrameWaitsItsTimeForOneToOvertakeItAndGoesOutWhenTheSenderCloses() {
        FaultPlan plan = FaultPlan.NONE.withSeed(SEED).withReorder(1.0);
        FrameChannel channel = FrameChannel.of(new Wire("c:a->b", clock, 40_000, 0), new Waker(clock),
                FrameFaults.of(plan, "held"), true, 8, 8);
        List<Long> got = new ArrayList<>();
        assertThat(channel.offer(Frames.frame(1, 64))).isTrue();
        assertThat(channel.poll(f -> got.add(Frames.seq(f)), 8)).as("held back").isZero();
        scheduler.advance(FaultStage.HOLD_NANOS - 1);
        assertThat(channel.flush()).as("not yet").isZero();
        scheduler.advance(1);
        assertThat(channel.flush()).isEqualTo(1);
        assertThat(channel.offer(Frames.frame(2, 64))).isTrue();
        channel.closeSender();
        channel.poll(f -> got.add(Frames.seq(f)), 8);
        assertThat(got).containsExactly(1L, 2L);
    }
}
