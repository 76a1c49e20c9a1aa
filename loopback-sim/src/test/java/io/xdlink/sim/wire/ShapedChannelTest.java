package io.xdlink.sim.wire;

import io.xdlink.sim.SimClock;
import io.xdlink.sim.fault.FaultPlan;
import io.xdlink.sim.fault.FrameFaults;
import io.xdlink.xdomain.VirtualScheduler;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shaped channel in virtual time, frame by frame: when each frame arrives (its wire time queued behind the
 * frames before it, plus the latency), that the receiver takes none sooner, and which frames the drop judge drops
 * when the receive ring is full without end-to-end flow control. {@link ChannelTimelineTest} holds whole runs to
 * what the channel did before it was split; this says why the numbers are what they are.
 */
class ShapedChannelTest {
    private final VirtualScheduler scheduler = new VirtualScheduler();
    private final SimClock clock = SimClock.virtual(scheduler);

    /** Polls at every stop of virtual time, noting when each frame was handed over. */
    private List<long[]> arrivals(FrameChannel channel, int frames) {
        List<long[]> got = new ArrayList<>();
        while (got.size() < frames && scheduler.nanoTime() < 1_000_000) {
            channel.poll(f -> got.add(new long[] {Frames.seq(f), scheduler.nanoTime()}), 64);
            if (!scheduler.advanceToNext()) {
                break;
            }
        }
        return got;
    }

    @Test
    void framesArriveAtTheirWireTimeQueuedPlusTheLatency() {
        FrameChannel channel = FrameChannel.of(new Wire("c:a->b", clock, 10_000, 5_000), new Waker(clock),
                FrameFaults.of(FaultPlan.NONE, "shaped"), true, 8, 8);
        assertThat(channel).isInstanceOf(ShapedChannel.class);
        for (int i = 0; i < 3; i++) {
            assertThat(channel.offer(Frames.frame(i, 4096))).isTrue();
        }
        // 4096 bytes at 10 Gb/s take 3276.8 ns each; a frame leaves when its last bit does (rounded up to the
        // nanosecond) and arrives 5 us later.
        assertThat(arrivals(channel, 3)).extracting(a -> a[0] + "@" + a[1])
                .containsExactly("0@8277", "1@11554", "2@14831");
    }

    @Test
    void aSenderRunsAheadOfTheWireByItsTxRingAndNoMore() {
        FrameChannel channel = FrameChannel.of(new Wire("c:a->b", clock, 10_000, 0), new Waker(clock),
                FrameFaults.of(FaultPlan.NONE, "shaped"), false, 4, 64);
        int taken = 0;
        while (channel.offer(Frames.frame(taken, 4096))) {
            taken++;
        }
        assertThat(taken).isEqualTo(4);
        scheduler.advance(3_277);
        assertThat(channel.offer(Frames.frame(taken, 4096))).as("the first frame left the wire").isTrue();
    }

    @Test
    void withoutEndToEndFlowControlTheDropJudgeDropsWhatFoundTheReceiveRingFull() {
        FrameChannel channel = FrameChannel.of(new Wire("c:a->b", clock, 10_000, 0), new Waker(clock),
                FrameFaults.of(FaultPlan.NONE, "shaped"), false, 16, 4);
        for (int i = 0; i < 10; i++) {
            assertThat(channel.offer(Frames.frame(i, 100))).isTrue();
        }
        scheduler.advance(1_000_000);
        List<Long> got = new ArrayList<>();
        assertThat(channel.poll(f -> got.add(Frames.seq(f)), 64)).isEqualTo(4);
        // Nobody polled while the ten arrived: the first four filled the ring and the other six found it full.
        assertThat(got).containsExactly(0L, 1L, 2L, 3L);
        assertThat(channel.stats()).isEqualTo(new ChannelStats(10, 0, 0, 0, 0, 6, 4));
        assertThat(channel.offer(Frames.frame(10, 100))).isTrue();
        scheduler.advance(1_000_000);
        assertThat(channel.poll(f -> got.add(Frames.seq(f)), 64)).isEqualTo(1);
        assertThat(got).endsWith(10L);
    }
}
