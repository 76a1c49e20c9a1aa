package io.xdlink.sim.wire;

import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailTransport;
import io.xdlink.sim.SimClock;
import io.xdlink.sim.fault.FaultPlan;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.SystemScheduler;
import io.xdlink.xdomain.VirtualScheduler;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimRailTransportTest {
    private final VirtualScheduler scheduler = new VirtualScheduler();
    private final SimClock clock = SimClock.virtual(scheduler);
    private final AtomicInteger released = new AtomicInteger();

    private SimRail rail(SimClock c, LinkState link) {
        return new SimRail("c/rail0", "c", link, new Wire("c:a->b", c, 40_000, 1_000),
                new Wire("c:b->a", c, 20_000, 1_000), FaultPlan.NONE, new SimRail.Rings(64, 64),
                new SimRail.Rings(64, 64), new Waker(c), released::incrementAndGet);
    }

    private SimRail rail() {
        return rail(clock, LinkState.of(Generation.GEN3, 2));
    }

    @Test
    void eachEndReportsTheLinkAsItSeesIt() {
        SimRail r = rail(clock, new LinkState(20_000, 2, 20_000, 1));
        assertThat(r.endA().info().link().txMbps()).isEqualTo(40_000);
        assertThat(r.endB().info().link().txMbps()).isEqualTo(20_000);
        assertThat(r.endB().info().link().rxMbps()).isEqualTo(40_000);
        assertThat(r.endA().info().linkId()).isEqualTo("c").isEqualTo(r.endB().info().linkId());
        assertThat(r.endA().info().lossy()).isFalse();
    }

    @Test
    void framesArriveIntactUnlessTheFaultPlanCorruptsThem() {
        assertThat(rail().endA().info().intact()).isTrue();
        Waker waker = new Waker(clock);
        for (FaultPlan plan : List.of(FaultPlan.NONE.withLoss(0.1), FaultPlan.NONE.withReorder(0.1),
                FaultPlan.NONE.withDuplicates(0.1), FaultPlan.NONE.withE2eFlowControl(false))) {
            SimRail r = new SimRail("c/rail0", "c", LinkState.of(Generation.GEN3, 2), new Wire("c:a->b", clock,
                    40_000, 1_000), new Wire("c:b->a", clock, 40_000, 1_000), plan, new SimRail.Rings(64, 64),
                    new SimRail.Rings(64, 64), waker, released::incrementAndGet);
            assertThat(r.endA().info().intact()).as(plan.toString()).isTrue();
            assertThat(r.endB().info().intact()).as(plan.toString()).isTrue();
        }
        SimRail corrupting = new SimRail("c/rail0", "c", LinkState.of(Generation.GEN3, 2), new Wire("c:a->b", clock,
                40_000, 1_000), new Wire("c:b->a", clock, 40_000, 1_000), FaultPlan.NONE.withCorruption(0.01),
                new SimRail.Rings(64, 64), new SimRail.Rings(64, 64), waker, released::incrementAndGet);
        assertThat(corrupting.endA().info().intact()).isFalse();
        assertThat(corrupting.endB().info().intact()).isFalse();
    }

    @Test
    void framesOfZeroOrMoreThanMaxBytesAreRefused() {
        SimRail r = rail();
        try (Arena arena = Arena.ofConfined()) {
            assertThatThrownBy(() -> r.endA().offer(MemorySegment.NULL))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not 0");
            assertThatThrownBy(() -> r.endA().offer(arena.allocate(RailTransport.MAX_FRAME_BYTES + 1)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not 4097");
            assertThat(r.endA().offer(arena.allocate(RailTransport.MAX_FRAME_BYTES))).isTrue();
        }
        assertThatThrownBy(() -> r.endA().poll(f -> { }, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFrameWriterBuildsTheFrameInTheRingSlotAndOnlyWhenTheFrameIsTaken() {
        SimRail r = new SimRail("c/rail0", "c", LinkState.of(Generation.GEN3, 2),
                new Wire("c:a->b", clock, 40_000, 1_000), new Wire("c:b->a", clock, 40_000, 1_000), FaultPlan.NONE,
                new SimRail.Rings(2, 2), new SimRail.Rings(2, 2), new Waker(clock), () -> { });
        int[] writes = {0};
        RailTransport.FrameWriter writer = (buffer, offset) -> {
            writes[0]++;
            Frames.fill(buffer.asSlice(offset, 300), writes[0]);
        };
        assertThat(r.endA().offer(300, writer)).isTrue();
        assertThat(r.endA().offer(300, writer)).isTrue();
        assertThat(r.endA().offer(300, writer)).as("the receiver's two-entry ring is full").isFalse();
        assertThat(writes[0]).isEqualTo(2);
        assertThatThrownBy(() -> r.endA().offer(0, writer)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.endA().offer(4097, writer)).isInstanceOf(IllegalArgumentException.class);
        scheduler.advance(1_000_000);
        List<Long> got = new ArrayList<>();
        r.endB().poll(f -> {
            assertThat(f.byteSize()).isEqualTo(300);
            assertThat(Frames.intact(f, Frames.seq(f))).isTrue();
            got.add(Frames.seq(f));
        }, 10);
        assertThat(got).containsExactly(1L, 2L);
    }

    @Test
    void theReceivingEngineIsWokenByArrivalsAndTheSendingOneByRoomAfterARefusal() {
        SimRail r = new SimRail("c/rail0", "c", LinkState.of(Generation.GEN3, 2),
                new Wire("c:a->b", clock, 40_000, 1_000), new Wire("c:b->a", clock, 40_000, 1_000), FaultPlan.NONE,
                new SimRail.Rings(2, 2), new SimRail.Rings(2, 2), new Waker(clock), () -> { });
        AtomicInteger wokeA = new AtomicInteger();
        AtomicInteger wokeB = new AtomicInteger();
        r.endA().onArrival(wokeA::incrementAndGet);
        r.endB().onArrival(wokeB::incrementAndGet);
        assertThat(r.endA().offer(Frames.frame(1, 64))).isTrue();
        assertThat(wokeB).as("the receiver hears of the frame").hasValue(1);
        assertThat(r.endA().offer(Frames.frame(2, 64))).isTrue();
        assertThat(r.endA().offer(Frames.frame(3, 64))).as("B's two-entry ring is full").isFalse();
        assertThat(wokeA).hasValue(0);
        scheduler.advance(1_000_000);
        assertThat(r.endB().poll(f -> { }, 1)).isEqualTo(1);
        assertThat(wokeA).as("the refused sender hears of the room").hasValue(1);
        assertThat(r.endB().poll(f -> { }, 1)).isEqualTo(1);
        assertThat(wokeA).as("only once per refusal").hasValue(1);
    }

    @Test
    void inRealTimeAFrameDueLaterWakesItsEngineAgainWhenItIsDue() throws Exception {
        try (SystemScheduler system = new SystemScheduler("xdlink-sim-test")) {
            SimClock real = SimClock.real(system);
            SimRail r = new SimRail("c/rail0", "c", LinkState.of(Generation.GEN3, 2),
                    new Wire("c:a->b", real, 40_000, 500_000), new Wire("c:b->a", real, 40_000, 500_000),
                    FaultPlan.NONE, new SimRail.Rings(8, 8), new SimRail.Rings(8, 8), new Waker(real), () -> { });
            java.util.concurrent.CountDownLatch due = new java.util.concurrent.CountDownLatch(1);
            AtomicInteger woken = new AtomicInteger();
            r.endB().onArrival(() -> {
                woken.incrementAndGet();
                due.countDown();
            });
            long sent = System.nanoTime();
            assertThat(r.endA().offer(Frames.frame(1, 64))).isTrue();
            // Not when the frame is published (it could not be taken yet), but once its 500 us of latency are over.
            assertThat(due.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(System.nanoTime() - sent).as("woken when due").isGreaterThanOrEqualTo(500_000);
            assertThat(woken).hasValue(1);
            List<Long> got = new ArrayList<>();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (got.isEmpty() && System.nanoTime() < deadline) {
                r.endB().poll(f -> got.add(Frames.seq(f)), 1);
            }
            assertThat(got).containsExactly(1L);
        }
    }

    @Test
    void inRealTimeASenderRefusedByItsFullTxRingIsWokenOnceHalfTheRingHasLeft() throws Exception {
        try (SystemScheduler system = new SystemScheduler("xdlink-sim-test")) {
            SimClock real = SimClock.real(system);
            // 100 Mb/s: a 4 KiB frame holds the wire 328 us, so the ring's frames leave far apart.
            SimRail r = new SimRail("c/rail0", "c", LinkState.of(Generation.GEN3, 2),
                    new Wire("c:a->b", real, 100, 0), new Wire("c:b->a", real, 100, 0), FaultPlan.NONE,
                    new SimRail.Rings(8, 1024), new SimRail.Rings(8, 1024), new Waker(real), () -> { });
            java.util.concurrent.CountDownLatch room = new java.util.concurrent.CountDownLatch(1);
            AtomicInteger woken = new AtomicInteger();
            r.endA().onArrival(() -> {
                woken.incrementAndGet();
                room.countDown();
            });
            // The wire's saved-up credit lets the first frames leave at once; then the TX ring fills with 8 frames
            // that leave 328 us apart. The receiver's ring is far from full, so the TX ring is what refuses.
            int queued = 0;
            while (r.endA().offer(Frames.frame(queued, 4096))) {
                queued++;
            }
            assertThat(queued).isBetween(8, 1000);
            assertThat(room.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(woken).as("one wake for half a ring").hasValue(1);
            int sent = 0;
            while (r.endA().offer(Frames.frame(2000 + sent, 4096))) {
                sent++;
            }
            assertThat(sent).as("the room it was woken for").isGreaterThanOrEqualTo(4);
        }
    }

    @Test
    void afterItsOwnCloseAnEndRefusesEverything() {
        SimRail r = rail();
        r.endA().close();
        r.endA().close();
        assertThat(r.endA().isOpen()).isFalse();
        assertThatThrownBy(() -> r.endA().offer(Frames.frame(1, 64))).isInstanceOf(RailClosedException.class);
        assertThatThrownBy(() -> r.endA().poll(f -> { }, 1)).isInstanceOf(RailClosedException.class);
        assertThat(r.endA().flush()).isZero();
        assertThat(released).hasValue(0);
    }

    @Test
    void whenThePeerClosesEveryFrameItSentStillArrivesThenTheCloseIsReported() {
        SimRail r = rail();
        for (int i = 0; i < 5; i++) {
            assertThat(r.endA().offer(Frames.frame(i, 1000))).isTrue();
        }
        r.endA().close();
        assertThat(r.endB().isOpen()).isFalse();
        assertThatThrownBy(() -> r.endB().offer(Frames.frame(9, 64)))
                .isInstanceOf(RailClosedException.class).hasMessageContaining("peer closed");
        List<Long> got = new ArrayList<>();
        // Frames still on the wire: nothing yet, and no close reported while they are in flight.
        assertThat(r.endB().poll(f -> got.add(Frames.seq(f)), 10)).isZero();
        scheduler.advance(1_000_000);
        assertThat(r.endB().poll(f -> got.add(Frames.seq(f)), 3)).isEqualTo(3);
        assertThat(r.endB().poll(f -> got.add(Frames.seq(f)), 10)).isEqualTo(2);
        assertThat(got).containsExactly(0L, 1L, 2L, 3L, 4L);
        assertThatThrownBy(() -> r.endB().poll(f -> { }, 10))
                .isInstanceOf(RailClosedException.class).hasMessageContaining("peer closed");
        r.endB().close();
        assertThat(released).hasValue(1);
    }

    @Test
    void twoThreadsMoveFramesUnpacedWithoutLossOrDamage() throws Exception {
        try (SystemScheduler system = new SystemScheduler("sim-test")) {
            SimRail r = rail(SimClock.unpaced(system), LinkState.of(Generation.GEN3, 2));
            int frames = 50_000;
            Thread sender = Thread.ofPlatform().start(() -> {
                MemorySegment f = Frames.frame(0, 256);
                for (long i = 0; i < frames; ) {
                    Frames.fill(f, i);
                    if (r.endA().offer(f)) {
                        i++;
                    } else {
                        Thread.onSpinWait();
                    }
                }
            });
            long[] expected = {0};
            long[] damaged = {0};
            while (expected[0] < frames) {
                r.endB().poll(f -> {
                    if (!Frames.intact(f, expected[0])) {
                        damaged[0]++;
                    }
                    expected[0]++;
                }, 64);
            }
            sender.join();
            assertThat(damaged[0]).isZero();
            assertThat(r.endB().receivedStats().delivered()).isEqualTo(frames);
        }
    }

    /** A receiver that keeps what a two-part frame looked like when it was handed over. */
    private static final class TwoParts implements RailTransport.FrameReceiver {
        final List<byte[]> heads = new ArrayList<>();
        final List<byte[]> payloads = new ArrayList<>();
        final List<byte[]> whole = new ArrayList<>();

        @Override
        public void onFrame(MemorySegment frame) {
            whole.add(frame.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        }

        @Override
        public void onFrame(MemorySegment head, long headOffset, int headLength, MemorySegment payload,
                            long payloadOffset, int payloadLength) {
            if (payload == null) {
                onFrame(head.asSlice(headOffset, headLength));
                return;
            }
            heads.add(head.asSlice(headOffset, headLength).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
            payloads.add(payload.asSlice(payloadOffset, payloadLength).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        }
    }

    /** Offers one data frame as a run of one: its head written by {@code head}, its payload by reference. */
    private static boolean one(RailTransport t, int headLength, RailTransport.FrameWriter head, MemorySegment payload,
                               long payloadOffset, int payloadLength) {
        return t.offerRun(headLength, RailTransport.FrameRun.of(head, payloadOffset, payloadLength), payload, 1) == 1;
    }

    private static RailTransport.FrameWriter head(int length, byte fill) {
        return (buffer, offset) -> buffer.asSlice(offset, length).fill(fill);
    }

    @Test
    void aPayloadCarriedByReferenceIsReadWhereTheSenderKeepsItWhenTheReceiverTakesTheFrame() {
        SimRail r = rail();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment registered = arena.allocate(8192);
            registered.fill((byte) 1);
            assertThat(one(r.endA(), 40, head(40, (byte) 9), registered, 100, 4000)).isTrue();
            // Until the frame is taken its payload is the sender's memory: nothing was copied at the offer.
            registered.asSlice(100, 4000).fill((byte) 2);
            scheduler.advance(1_000_000);
            TwoParts got = new TwoParts();
            assertThat(r.endB().poll(got, 10)).isEqualTo(1);
            assertThat(got.whole).isEmpty();
            assertThat(got.heads.getFirst()).hasSize(40).containsOnly((byte) 9);
            assertThat(got.payloads.getFirst()).hasSize(4000).containsOnly((byte) 2);
            assertThatThrownBy(() -> one(r.endA(), 40, head(40, (byte) 9), registered, 0, 4057))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("payload 4057");
        }
    }

    @Test
    void anUnpacedFaultFreeRailRefusesAtAFullReceiveRingAndHandsOverEveryFrameOnceInOrder() throws Exception {
        try (SystemScheduler system = new SystemScheduler("sim-test"); Arena arena = Arena.ofConfined()) {
            SimRail r = rail(SimClock.unpaced(system), LinkState.of(Generation.GEN3, 2));
            MemorySegment registered = arena.allocate(100 * 4000L);
            for (int i = 0; i < 100; i++) {
                registered.asSlice(i * 4000L, 4000).fill((byte) i);
            }
            // The receive ring holds 64 frames: two-part frames and one laid out whole fill it, the next is refused.
            for (int i = 0; i < 63; i++) {
                assertThat(one(r.endA(), 40, head(40, (byte) i), registered, i * 4000L, 4000)).as("frame %d", i)
                        .isTrue();
            }
            assertThat(r.endA().offer(MemorySegment.ofArray(new byte[100]).fill((byte) 63))).isTrue();
            assertThat(one(r.endA(), 40, head(40, (byte) 64), registered, 64 * 4000L, 4000)).isFalse();
            TwoParts got = new TwoParts();
            assertThat(r.endB().poll(got, 10)).isEqualTo(10);
            // Room again: the refused frame goes now, and more behind it.
            for (int i = 64; i < 74; i++) {
                assertThat(one(r.endA(), 40, head(40, (byte) i), registered, i * 4000L, 4000)).as("frame %d", i)
                        .isTrue();
            }
            assertThat(r.endB().poll(got, 100)).isEqualTo(64);
            assertThat(r.endB().poll(got, 100)).isZero();
            assertThat(got.whole).hasSize(1);
            assertThat(got.whole.getFirst()).hasSize(100).containsOnly((byte) 63);
            assertThat(got.heads).hasSize(73);
            for (int k = 0; k < 73; k++) {
                int i = k < 63 ? k : k + 1;
                assertThat(got.heads.get(k)).as("head %d", k).hasSize(40).containsOnly((byte) i);
                assertThat(got.payloads.get(k)).as("payload %d", k).hasSize(4000).containsOnly((byte) i);
            }
            assertThat(r.endA().sentStats().sent()).isEqualTo(74);
            assertThat(r.endB().receivedStats().delivered()).isEqualTo(74);
        }
    }

    /**
     * A run of frames 4000 payload bytes apart, frame {@code i}'s head filled with {@code i}; frame {@code stopAt}
     * reports its predecessor's payload unreadable.
     */
    private static final class Run implements RailTransport.FrameRun {
        final int first;
        final int stopAt;
        int current;

        Run(int first, int stopAt) {
            this.first = first;
            this.stopAt = stopAt;
        }

        @Override
        public boolean frame(int i) {
            current = first + i;
            return i != stopAt;
        }

        @Override
        public long payloadOffset() {
            return current * 4000L;
        }

        @Override
        public int payloadLength() {
            return current == 4242 ? 4057 : 4000;
        }

        @Override
        public void write(MemorySegment buffer, long offset) {
            buffer.asSlice(offset, 40).fill((byte) current);
        }
    }

    @Test
    void anUnpacedRailTakesARunUpToItsReceiveRingsRoomAndHandsItOverInOrder() throws Exception {
        try (SystemScheduler system = new SystemScheduler("sim-test"); Arena arena = Arena.ofConfined()) {
            SimRail r = rail(SimClock.unpaced(system), LinkState.of(Generation.GEN3, 2));
            MemorySegment registered = arena.allocate(100 * 4000L);
            for (int i = 0; i < 100; i++) {
                registered.asSlice(i * 4000L, 4000).fill((byte) i);
            }
            // The receive ring holds 64 frames: a run of 50 goes whole, the next one only as far as the room left.
            assertThat(r.endA().offerRun(40, new Run(0, -1), registered, 50)).isEqualTo(50);
            assertThat(r.endA().offerRun(40, new Run(50, -1), registered, 30)).isEqualTo(14);
            assertThat(r.endA().offerRun(40, new Run(64, -1), registered, 1)).isZero();
            TwoParts got = new TwoParts();
            assertThat(r.endB().poll(got, 100)).isEqualTo(64);
            // A run ends before the frame whose predecessor could not be read.
            assertThat(r.endA().offerRun(40, new Run(64, 5), registered, 30)).isEqualTo(5);
            assertThat(r.endB().poll(got, 100)).isEqualTo(5);
            assertThat(got.whole).isEmpty();
            assertThat(got.heads).hasSize(69);
            for (int i = 0; i < 69; i++) {
                assertThat(got.heads.get(i)).as("head %d", i).hasSize(40).containsOnly((byte) i);
                assertThat(got.payloads.get(i)).as("payload %d", i).hasSize(4000).containsOnly((byte) i);
            }
            assertThat(r.endA().sentStats().sent()).isEqualTo(69);
            assertThat(r.endB().receivedStats().delivered()).isEqualTo(69);
        }
    }

    @Test
    void aPacedRailTakesARunFrameByFrameAsItsWireAllows() {
        SimRail r = rail();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment registered = arena.allocate(100 * 4000L);
            registered.fill((byte) 5);
            // The TX ring holds 64 frames in flight on the wire: the rest of the run waits.
            assertThat(r.endA().offerRun(40, new Run(0, -1), registered, 80)).isEqualTo(64);
            TwoParts got = new TwoParts();
            assertThat(r.endB().poll(got, 100)).isZero();
            scheduler.advance(1_000_000_000L);
            assertThat(r.endB().poll(got, 100)).isEqualTo(64);
            for (int i = 0; i < 64; i++) {
                assertThat(got.heads.get(i)).as("head %d", i).containsOnly((byte) i);
            }
        }
    }

    @Test
    void aRunWithoutAPayloadOrWithAFrameTooLongIsRefusedLoudly() {
        try (SystemScheduler system = new SystemScheduler("sim-test"); Arena arena = Arena.ofConfined()) {
            SimRail r = rail(SimClock.unpaced(system), LinkState.of(Generation.GEN3, 2));
            MemorySegment registered = arena.allocate(5000 * 4000L);
            assertThatThrownBy(() -> r.endA().offerRun(40, new Run(0, -1), null, 2))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no payload");
            assertThatThrownBy(() -> r.endA().offerRun(4096, new Run(0, -1), registered, 2))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("head 4096");
            assertThatThrownBy(() -> r.endA().offerRun(40, new Run(4240, -1), registered, 5))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("payload 4057");
            // Nothing of the refused run was published.
            TwoParts got = new TwoParts();
            assertThat(r.endB().poll(got, 100)).isZero();
        }
    }

    @Test
    void aCorruptedTwoPartFrameIsLaidOutWholeAndTheSendersMemoryStaysIntact() {
        long seed = Long.getLong("xdlink.test.seed", 77);
        SimRail r = new SimRail("c/rail0", "c", LinkState.of(Generation.GEN3, 2),
                new Wire("c:a->b", clock, 40_000, 1_000), new Wire("c:b->a", clock, 40_000, 1_000),
                FaultPlan.NONE.withSeed(seed).withCorruption(1.0).withDuplicates(1.0), new SimRail.Rings(64, 64),
                new SimRail.Rings(64, 64), new Waker(clock), () -> { });
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment registered = arena.allocate(1000);
            registered.fill((byte) 3);
            assertThat(one(r.endA(), 40, (buffer, offset) -> {
                buffer.asSlice(offset, 36).fill((byte) 9);
                buffer.asSlice(offset + 36, 4).fill((byte) 7);
            }, registered, 0, 1000)).isTrue();
            scheduler.advance(1_000_000);
            TwoParts got = new TwoParts();
            assertThat(r.endB().poll(got, 10)).as("seed " + seed).isEqualTo(2);
            assertThat(got.heads).as("seed " + seed).isEmpty();
            assertThat(registered.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)).containsOnly((byte) 3);
            for (byte[] frame : got.whole) {
                assertThat(frame).hasSize(1040);
                // Header, payload, trailer, with exactly one bit flipped somewhere.
                byte[] expected = new byte[1040];
                java.util.Arrays.fill(expected, 0, 36, (byte) 9);
                java.util.Arrays.fill(expected, 36, 1036, (byte) 3);
                java.util.Arrays.fill(expected, 1036, 1040, (byte) 7);
                int flipped = 0;
                for (int i = 0; i < frame.length; i++) {
                    flipped += Integer.bitCount((frame[i] ^ expected[i]) & 0xFF);
                }
                assertThat(flipped).as("seed " + seed).isEqualTo(1);
            }
        }
    }
}
