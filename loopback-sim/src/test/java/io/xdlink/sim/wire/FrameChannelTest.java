package io.xdlink.sim.wire;

import io.xdlink.rails.RailClosedException;
import io.xdlink.sim.SimClock;
import io.xdlink.sim.fault.FaultPlan;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.VirtualScheduler;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Rates, sharing, ring limits and flow control of rails over simulated wires, in virtual time. */
class FrameChannelTest {
    private static final long MS = 1_000_000;

    private final VirtualScheduler scheduler = new VirtualScheduler();
    private final SimClock clock = SimClock.virtual(scheduler);
    private final Waker waker = new Waker(clock);
    private final Pump pump = new Pump(scheduler);

    private SimRail rail(String name, Wire aToB, Wire bToA, FaultPlan plan, int ring) {
        return new SimRail(name, "cable", LinkState.of(Generation.GEN3, 2), aToB, bToA, plan,
                new SimRail.Rings(ring, ring), new SimRail.Rings(ring, ring), waker, () -> { });
    }

    private static double mbps(long bytes, long nanos) {
        return bytes * 8.0 / nanos * 1000;
    }

    /** Bytes the receivers got between two virtual times. */
    private double measure(long from, long to, Pump.Receiver... receivers) {
        pump.runUntil(from);
        long before = 0;
        for (Pump.Receiver r : receivers) {
            before += r.bytes;
        }
        pump.runUntil(to);
        long after = 0;
        for (Pump.Receiver r : receivers) {
            after += r.bytes;
        }
        return mbps(after - before, to - from);
    }

    @Test
    void oneRailRunsAtTheWireRate() {
        Wire w = new Wire("c:a->b", clock, 40_000, 1_000);
        SimRail r = rail("c/rail0", w, new Wire("c:b->a", clock, 40_000, 1_000), FaultPlan.NONE, 1024);
        pump.send(r.endA(), 4096);
        Pump.Receiver rx = pump.receive(r.endB());
        assertThat(measure(1 * MS, 3 * MS, rx)).isCloseTo(40_000, Percentage.withPercentage(0.1));
        assertThat(rx.damaged).isZero();
        assertThat(r.endA().sentStats().overflowed()).isZero();
    }

    @Test
    void twoRailsOnOneWireShareIt() {
        Wire ab = new Wire("c:a->b", clock, 20_000, 1_000);
        Wire ba = new Wire("c:b->a", clock, 20_000, 1_000);
        SimRail r0 = rail("c/rail0", ab, ba, FaultPlan.NONE, 32);
        SimRail r1 = rail("c/rail1", ab, ba, FaultPlan.NONE, 32);
        pump.send(r0.endA(), 4096);
        pump.send(r1.endA(), 4096);
        Pump.Receiver x0 = pump.receive(r0.endB());
        Pump.Receiver x1 = pump.receive(r1.endB());
        assertThat(measure(1 * MS, 3 * MS, x0, x1)).isCloseTo(20_000, Percentage.withPercentage(0.1));
        // The wire serves the rails first come first served, a TX ring at a time: neither starves.
        assertThat((double) x0.bytes).isCloseTo(x1.bytes, Percentage.withPercentage(5));
    }

    @Test
    void railsOnTwoWiresAddUp() {
        SimRail r0 = rail("c0/rail0", new Wire("c0:a->b", clock, 20_000, 1_000),
                new Wire("c0:b->a", clock, 20_000, 1_000), FaultPlan.NONE, 256);
        SimRail r1 = rail("c1/rail0", new Wire("c1:a->b", clock, 20_000, 1_000),
                new Wire("c1:b->a", clock, 20_000, 1_000), FaultPlan.NONE, 256);
        pump.send(r0.endA(), 4096);
        pump.send(r1.endA(), 4096);
        Pump.Receiver x0 = pump.receive(r0.endB());
        Pump.Receiver x1 = pump.receive(r1.endB());
        assertThat(measure(1 * MS, 3 * MS, x0, x1)).isCloseTo(40_000, Percentage.withPercentage(0.1));
    }

    @Test
    void eachDirectionRunsAtItsOwnRate() {
        SimRail r = rail("c/rail0", new Wire("c:a->b", clock, 22_700, 1_000),
                new Wire("c:b->a", clock, 11_700, 1_000), FaultPlan.NONE, 512);
        pump.send(r.endA(), 4096);
        pump.send(r.endB(), 4096);
        Pump.Receiver atB = pump.receive(r.endB());
        Pump.Receiver atA = pump.receive(r.endA());
        pump.runUntil(1 * MS);
        long b0 = atB.bytes;
        long a0 = atA.bytes;
        pump.runUntil(3 * MS);
        assertThat(mbps(atB.bytes - b0, 2 * MS)).isCloseTo(22_700, Percentage.withPercentage(0.1));
        assertThat(mbps(atA.bytes - a0, 2 * MS)).isCloseTo(11_700, Percentage.withPercentage(0.1));
    }

    @Test
    void aFrameTakesSerialisationPlusLatencyToArrive() {
        SimRail r = rail("c/rail0", new Wire("c:a->b", clock, 10_000, 5_000),
                new Wire("c:b->a", clock, 10_000, 5_000), FaultPlan.NONE, 16);
        scheduler.advance(1 * MS); // the wire idles long enough to have its burst credit
        assertThat(r.endA().offer(Frames.frame(7, 100))).isTrue();
        Pump.Receiver rx = pump.receive(r.endB());
        scheduler.advance(4_999);
        assertThat(rx.step()).isZero();
        scheduler.advanceToNext();
        assertThat(rx.step()).isEqualTo(1);
        assertThat(rx.order).containsExactly(7L);
    }

    @Test
    void endToEndFlowControlNeverDropsAndRefusesWhenTheReceiverIsFull() {
        SimRail r = rail("c/rail0", new Wire("c:a->b", clock, 40_000, 1_000),
                new Wire("c:b->a", clock, 40_000, 1_000), FaultPlan.NONE, 64);
        Pump.Sender tx = pump.send(r.endA(), 4096);
        Pump.Receiver rx = pump.receive(r.endB());
        rx.paused = true;
        pump.runUntil(1 * MS);
        assertThat(tx.next).isEqualTo(64); // exactly the receive ring, then refusals
        rx.paused = false;
        pump.runUntil(2 * MS);
        assertThat(r.endA().sentStats().overflowed()).isZero();
        assertThat(rx.order).hasSize((int) rx.frames).isSorted();
        assertThat(rx.order.get(rx.order.size() - 1)).isEqualTo(rx.frames - 1);
    }

    @Test
    void withoutEndToEndFlowControlAFullReceiveRingDrops() {
        FaultPlan noE2e = FaultPlan.NONE.withE2eFlowControl(false);
        SimRail r = rail("c/rail0", new Wire("c:a->b", clock, 40_000, 1_000),
                new Wire("c:b->a", clock, 40_000, 1_000), noE2e, 64);
        assertThat(r.endA().info().lossy()).isTrue();
        Pump.Sender tx = pump.send(r.endA(), 4096);
        Pump.Receiver rx = pump.receive(r.endB());
        rx.paused = true;
        pump.runUntil(1 * MS);
        // The sender never waited for the receiver: it went on at the wire rate.
        assertThat(tx.next).isGreaterThan(1000);
        rx.paused = false;
        rx.step();
        assertThat(rx.frames).isEqualTo(64);
        assertThat(rx.order).containsExactlyElementsOf(java.util.stream.LongStream.range(0, 64).boxed().toList());
        pump.runUntil(2 * MS);
        tx.limit = tx.next;
        pump.runUntil(3 * MS);
        ChannelStats s = r.endA().sentStats();
        assertThat(s.overflowed()).isGreaterThan(0);
        assertThat(s.delivered() + s.overflowed()).isEqualTo(s.sent());
    }

    @Test
    void aSenderCannotQueueMoreThanItsTxRingAheadOfTheWire() {
        SimRail r = rail("c/rail0", new Wire("c:a->b", clock, 10_000, 0),
                new Wire("c:b->a", clock, 10_000, 0), FaultPlan.NONE.withE2eFlowControl(false), 32);
        int accepted = 0;
        while (r.endA().offer(Frames.frame(accepted, 4096))) {
            accepted++;
        }
        // In virtual time an idle wire saves up no burst credit: the 32-entry TX ring fills and that is all.
        assertThat(accepted).isEqualTo(32);
        scheduler.advance(10 * MS);
        assertThat(r.endA().offer(Frames.frame(accepted, 4096))).isTrue();
    }

    @Test
    void failureEndsBothDirectionsAtOnce() {
        SimRail r = rail("c/rail0", new Wire("c:a->b", clock, 10_000, 0),
                new Wire("c:b->a", clock, 10_000, 0), FaultPlan.NONE, 32);
        r.endA().offer(Frames.frame(1, 64));
        r.fail("cable c pulled");
        assertThat(r.endA().isOpen()).isFalse();
        assertThatThrownBy(() -> r.endA().offer(Frames.frame(2, 64)))
                .isInstanceOf(RailClosedException.class).hasMessage("cable c pulled");
        assertThatThrownBy(() -> r.endB().poll(f -> { }, 10))
                .isInstanceOf(RailClosedException.class).hasMessage("cable c pulled");
    }
}
