package io.xdlink.sim.wire;

import io.xdlink.rails.RailTransport;
import io.xdlink.sim.SimClock;
import io.xdlink.sim.fault.FaultPlan;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.VirtualScheduler;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fixed runs over one rail whose every delivery (which frame, at what virtual time, with which bytes) is summed up
 * in one number, recorded from the channel as it was before it was split into a ring, a plain and a shaped channel
 * and a fault stage. A change to the channel that moves a single frame by a nanosecond, drops another one, or draws
 * the faults in another order changes the number: the split was meant to change nothing of that, and this holds it
 * to it. A deliberate change of timing records the new numbers here, saying why.
 */
class ChannelTimelineTest {
    private final VirtualScheduler scheduler = new VirtualScheduler();
    private final SimClock clock = SimClock.virtual(scheduler);

    /** What arrived: a digest of every (time, length, bytes) in order, and the counters of the sending end. */
    record Timeline(long digest, int frames, long lastArrival, ChannelStats stats) {
    }

    /**
     * Sends 3000 frames of mixed shapes (small ones in the compact head area, whole 4 KiB ones, data frames in two
     * parts), at most 20 a round, over a 40 Gb/s rail with 1 us of latency, while a receiver that takes 7 frames at
     * a time polls every third round and not at all for 50 us of every 200, so that rings fill, then reads what
     * arrived when.
     */
    private Timeline run(FaultPlan plan, SimClock clock) {
        SimRail rail = new SimRail("c/rail0", "c", LinkState.of(Generation.GEN3, 2),
                new Wire("c:a->b", clock, 40_000, 1_000), new Wire("c:b->a", clock, 40_000, 1_000), plan,
                new SimRail.Rings(64, 64), new SimRail.Rings(64, 16), new Waker(clock), () -> { });
        RailTransport tx = rail.endA();
        RailTransport rx = rail.endB();
        SplittableRandom shapes = new SplittableRandom(7);
        MemorySegment payloads = MemorySegment.ofArray(new byte[1 << 16]);
        for (int i = 0; i < payloads.byteSize(); i++) {
            payloads.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + (i >>> 8)));
        }
        CRC32 crc = new CRC32();
        long[] digest = {17};
        int[] frames = {0};
        long[] last = {0};
        RailTransport.FrameReceiver receiver = new RailTransport.FrameReceiver() {
            @Override
            public void onFrame(MemorySegment frame) {
                crc.reset();
                crc.update(frame.asByteBuffer());
                long now = clock.now();
                digest[0] = (digest[0] * 1_000_003 + now) * 1_000_003 + frame.byteSize() * 0x1_0000_0000L
                        + crc.getValue();
                frames[0]++;
                last[0] = now;
            }
        };
        int next = 0;
        int total = 3000;
        long round = 0;
        while (scheduler.nanoTime() < 50_000_000L) {
            int work = 0;
            int burst = 0;
            while (next < total && burst++ < 20) {
                int seq = next;
                int kind = shapes.nextInt(4);
                boolean ok;
                if (kind == 0) {
                    ok = tx.offer(40, (b, at) -> fill(b, at, 40, seq));
                } else if (kind == 1) {
                    int max = RailTransport.MAX_FRAME_BYTES;
                    ok = tx.offer(max, (b, at) -> fill(b, at, max, seq));
                } else {
                    int length = 1 + (seq * 97) % 3000;
                    ok = tx.offerRun(32, RailTransport.FrameRun.of((b, at) -> fill(b, at, 32, seq),
                            (seq * 13L) % 60_000, length), payloads, 1) == 1;
                }
                if (!ok) {
                    break;
                }
                next++;
                work++;
            }
            work += tx.flush();
            if (round++ % 3 == 0 && (scheduler.nanoTime() / 50_000) % 4 != 3) {
                work += rx.poll(receiver, 7);
            }
            if (work == 0) {
                if (next == total && scheduler.nextDeadline() == Long.MAX_VALUE) {
                    work += rx.poll(receiver, Integer.MAX_VALUE);
                    if (work == 0) {
                        break;
                    }
                    continue;
                }
                if (!scheduler.advanceToNext()) {
                    scheduler.advance(1_000);
                }
            }
        }
        return new Timeline(digest[0], frames[0], last[0], rail.endA().sentStats());
    }

    private static void fill(MemorySegment b, long at, int length, int seq) {
        for (int i = 0; i < length; i++) {
            b.set(ValueLayout.JAVA_BYTE, at + i, (byte) (seq * 7 + i * 3));
        }
    }

    @Test
    void aPacedRailWithEveryFaultAndNoEndToEndFlowControl() {
        FaultPlan plan = FaultPlan.NONE.withSeed(11).withLoss(0.02).withReorder(0.03).withDuplicates(0.03)
                .withCorruption(0.03).withE2eFlowControl(false);
        Timeline t = run(plan, clock);
        assertThat(t).isEqualTo(
                new Timeline(-5648654759058952988L, 2039, 1080222, new ChannelStats(3000, 61, 53, 57, 76, 953, 2039)));
    }

    @Test
    void aPacedRailWithEndToEndFlowControl() {
        Timeline t = run(FaultPlan.NONE, clock);
        assertThat(t).isEqualTo(
                new Timeline(8592750423617750621L, 3000, 1437706, new ChannelStats(3000, 0, 0, 0, 0, 0, 3000)));
    }

    @Test
    void anUnpacedRailWithFaults() {
        FaultPlan plan = FaultPlan.NONE.withSeed(12).withLoss(0.02).withReorder(0.03).withDuplicates(0.03)
                .withCorruption(0.03);
        Timeline t = run(plan, SimClock.unpaced(scheduler));
        assertThat(t).isEqualTo(
                new Timeline(2634836607157541472L, 3030, 532000, new ChannelStats(3000, 54, 84, 93, 78, 0, 3030)));
    }

    @Test
    void anUnpacedRailWithoutEndToEndFlowControl() {
        Timeline t = run(FaultPlan.NONE.withE2eFlowControl(false), SimClock.unpaced(scheduler));
        assertThat(t).isEqualTo(
                new Timeline(8406905127668642079L, 366, 0, new ChannelStats(3000, 0, 0, 0, 0, 2634, 366)));
    }

    @Test
    void anUnpacedRailWithoutFaults() {
        Timeline t = run(FaultPlan.NONE, SimClock.unpaced(scheduler));
        assertThat(t).isEqualTo(
                new Timeline(2385214022853608035L, 3000, 528000, new ChannelStats(3000, 0, 0, 0, 0, 0, 3000)));
    }
}
