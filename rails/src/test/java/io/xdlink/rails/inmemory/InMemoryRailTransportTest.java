package io.xdlink.rails.inmemory;

import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.testing.Seeds;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InMemoryRailTransportTest {
    private static final RailInfo LOSSLESS = new RailInfo("m", "c", LinkState.of(Generation.GEN3, 1), false);
    private static final RailInfo LOSSY = new RailInfo("m", "c", LinkState.of(Generation.GEN3, 1), true);

    private static MemorySegment frame(int n) {
        MemorySegment f = MemorySegment.ofArray(new byte[8]);
        f.set(ValueLayout.JAVA_INT_UNALIGNED, 0, n);
        return f;
    }

    private static List<Integer> drain(InMemoryRailTransport t) {
        List<Integer> got = new ArrayList<>();
        t.poll(f -> got.add(f.get(ValueLayout.JAVA_INT_UNALIGNED, 0)), 1 << 20);
        return got;
    }

    @Test
    void framesArriveInOrderAndAFullRingRefuses() {
        InMemoryRailPair p = InMemoryRailPair.create(LOSSLESS, 4);
        for (int i = 0; i < 4; i++) {
            assertThat(p.a().offer(frame(i))).isTrue();
        }
        assertThat(p.a().offer(frame(9))).isFalse();
        assertThat(p.a().stats().refused()).isEqualTo(1);
        assertThat(drain(p.b())).containsExactly(0, 1, 2, 3);
        assertThat(p.a().offer(frame(4))).isTrue();
        assertThat(drain(p.b())).containsExactly(4);
    }

    @Test
    void sizesOutsideAFrameAreRefusedAndAClosedEndThrows() {
        InMemoryRailPair p = InMemoryRailPair.create(LOSSLESS, 4);
        assertThatThrownBy(() -> p.a().offer(MemorySegment.ofArray(new byte[0])))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> p.a().offer(MemorySegment.ofArray(new byte[4097])))
                .isInstanceOf(IllegalArgumentException.class);
        p.a().offer(frame(1));
        p.a().close();
        assertThatThrownBy(() -> p.a().offer(frame(2))).isInstanceOf(RailClosedException.class);
        assertThat(p.b().isOpen()).isFalse();
        assertThat(drain(p.b())).containsExactly(1);
        assertThatThrownBy(() -> drain(p.b())).isInstanceOf(RailClosedException.class);
        assertThatThrownBy(() -> p.b().offer(frame(3))).isInstanceOf(RailClosedException.class);
    }

    @Test
    void aBlackholedRailSwallowsEverythingUntilItReturnsAndACutOneIsGone() {
        InMemoryRailPair p = InMemoryRailPair.create(LOSSLESS, 8);
        p.blackhole(true);
        assertThat(p.a().offer(frame(1))).isTrue();
        assertThat(p.a().isOpen()).isTrue();
        assertThat(drain(p.b())).isEmpty();
        p.blackhole(false);
        p.a().offer(frame(2));
        assertThat(drain(p.b())).containsExactly(2);
        assertThat(p.a().stats().blackholed()).isEqualTo(1);
        p.cut();
        assertThat(p.a().isOpen()).isFalse();
        assertThatThrownBy(() -> p.a().offer(frame(3))).isInstanceOf(RailClosedException.class);
        assertThatThrownBy(() -> drain(p.b())).isInstanceOf(RailClosedException.class);
    }

    @Test
    void faultsFollowTheirRatesAndTheirSeed() {
        long seed = Seeds.seed("InMemoryRailTransportTest.faults");
        List<List<Integer>> runs = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            InMemoryRailPair p = InMemoryRailPair.create(LOSSY, 64, new RailFaultPlan(0.1, 0.1, 0.1, 0, seed));
            List<Integer> got = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                p.a().offer(frame(i));
                p.a().flush();
                got.addAll(drain(p.b()));
            }
            InMemoryRailStats s = p.a().stats();
            assertThat(s.lost()).as("seed %d", seed).isBetween(1_600L, 2_400L);
            assertThat(s.duplicated()).as("seed %d", seed).isBetween(1_400L, 2_200L);
            assertThat(s.reordered()).as("seed %d", seed).isPositive();
            int outOfOrder = 0;
            for (int i = 1; i < got.size(); i++) {
                if (got.get(i) < got.get(i - 1)) {
                    outOfOrder++;
                }
            }
            assertThat(outOfOrder).as("seed %d", seed).isPositive();
            runs.add(got);
        }
        assertThat(runs.get(0)).as("seed %d replays exactly", seed).isEqualTo(runs.get(1));
    }

    @Test
    void aHeldFrameIsOvertakenByThreeFramesAtMostEvenWhenItsRingIsFullAtItsTurn() {
        // Every frame that can be held is; the receiver frees the ring only when the sender is refused, so a held
        // frame's turn often comes with no room for it, and it must still go before a fourth frame.
        for (long seed = 0; seed < 40; seed++) {
            for (int ring = 1; ring <= 4; ring++) {
                InMemoryRailPair p = InMemoryRailPair.create(LOSSY, ring, new RailFaultPlan(0, 1.0, 0, 0, seed));
                List<Integer> got = new ArrayList<>();
                for (int i = 0; i < 40; i++) {
                    while (!p.a().offer(frame(i))) {
                        got.addAll(drain(p.b()));
                    }
                }
                for (int i = 0; i < 8; i++) { // a frame held last goes once the sender has paused long enough
                    p.a().flush();
                    got.addAll(drain(p.b()));
                }
                for (int k = 0; k < got.size(); k++) {
                    int seq = got.get(k);
                    long overtakers = got.subList(0, k).stream().filter(s -> s > seq).count();
                    assertThat(overtakers).as("frame %d, ring %d, seed %d: %s", seq, ring, seed, got)
                            .isLessThanOrEqualTo(3);
                }
                assertThat(got).as("ring %d, seed %d", ring, seed).hasSize(40).doesNotHaveDuplicates();
            }
        }
    }

    @Test
    void corruptionFlipsExactlyOneBit() {
        InMemoryRailPair p = InMemoryRailPair.create(LOSSY, 16, new RailFaultPlan(0, 0, 0, 1.0, 7));
        byte[] zeros = new byte[64];
        p.a().offer(MemorySegment.ofArray(zeros));
        int[] bits = new int[1];
        p.b().poll(f -> {
            for (long i = 0; i < f.byteSize(); i++) {
                bits[0] += Integer.bitCount(f.get(ValueLayout.JAVA_BYTE, i) & 0xFF);
            }
        }, 1);
        assertThat(bits[0]).isEqualTo(1);
    }

    @Test
    void aRailThatCarriesPayloadsByReferenceDeliversTheSendersOwnMemory() {
        InMemoryRailPair p = InMemoryRailPair.createByReference(LOSSLESS, 4, RailFaultPlan.NONE);
        MemorySegment source = MemorySegment.ofArray(new byte[] {1, 2, 3, 4});
        RailTransport.FrameRun nines = RailTransport.FrameRun.of((b, o) -> b.asSlice(o, 6).fill((byte) 9), 1, 2);
        assertThat(p.a().offerRun(6, nines, source, 1)).isEqualTo(1);
        source.set(ValueLayout.JAVA_BYTE, 1, (byte) 7); // the sender's memory, read when the receiver reads it
        int[] got = new int[4];
        p.b().poll(new io.xdlink.rails.RailTransport.FrameReceiver() {
            @Override
            public void onFrame(MemorySegment frame) {
                throw new AssertionError("expected two parts");
            }

            @Override
            public void onFrame(MemorySegment head, long ho, int hl, MemorySegment payload, long po, int pl) {
                assertThat(payload).isNotNull();
                got[0] = hl;
                got[1] = pl;
                got[2] = payload.get(ValueLayout.JAVA_BYTE, po);
                got[3] = head.get(ValueLayout.JAVA_BYTE, ho);
            }
        }, 1);
        assertThat(got).containsExactly(6, 2, 7, 9);
        // A receiver that wants frames whole gets them laid out: header, payload, trailer.
        p.a().offerRun(6, nines, source, 1);
        byte[][] whole = new byte[1][];
        p.b().poll(f -> whole[0] = f.toArray(ValueLayout.JAVA_BYTE), 1);
        assertThat(whole[0]).containsExactly(9, 9, 7, 3, 9, 9, 9, 9);
        // Without by-reference, a run's frame is laid out whole by the sender.
        InMemoryRailPair copying = InMemoryRailPair.create(LOSSLESS, 4);
        copying.a().offerRun(6, RailTransport.FrameRun.of((b, o) -> b.asSlice(o, 6).fill((byte) 5), 0, 1), source, 1);
        source.set(ValueLayout.JAVA_BYTE, 0, (byte) 0);
        copying.b().poll(f -> whole[0] = f.toArray(ValueLayout.JAVA_BYTE), 1);
        assertThat(whole[0]).containsExactly(5, 5, 1, 5, 5, 5, 5);
    }

    @Test
    void corruptingAFrameCarriedByReferenceNeverTouchesTheSendersMemory() {
        InMemoryRailPair p = InMemoryRailPair.createByReference(LOSSY, 4, new RailFaultPlan(0, 0, 0, 1.0, 3));
        byte[] src = new byte[64];
        MemorySegment source = MemorySegment.ofArray(src);
        p.a().offerRun(8, RailTransport.FrameRun.of((b, o) -> b.asSlice(o, 8).fill((byte) 0), 0, 64), source, 1);
        int[] bits = new int[1];
        p.b().poll(f -> {
            for (long i = 0; i < f.byteSize(); i++) {
                bits[0] += Integer.bitCount(f.get(ValueLayout.JAVA_BYTE, i) & 0xFF);
            }
        }, 1);
        assertThat(bits[0]).isEqualTo(1);
        assertThat(src).containsOnly(0);
    }

    @Test
    void faultsNeedALossyRail() {
        assertThatThrownBy(() -> InMemoryRailPair.create(LOSSLESS, 4, RailFaultPlan.loss(0.1, 1)))
                .hasMessageContaining("lossy");
        assertThatThrownBy(() -> new RailFaultPlan(1.5, 0, 0, 0, 1)).hasMessageContaining("loss");
    }
}
