package io.xdlink.rails.engine;

import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.inmemory.RailFaultPlan;
import io.xdlink.rails.inmemory.InMemoryRailPair;
import io.xdlink.rails.testing.Seeds;
import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.CompletionStatus;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.RailStats;
import io.xdlink.rails.verbs.TwoDevices;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One rail: its credits and control budget (no frame ever overruns the peer's receive ring), and what happens when it
 * drops (failed over to the other rails) and returns (it rejoins the pool).
 */
class RailTest {

    /** Both directions stream at once through rings exactly the size of the credit window. */
    private static void bothWays(boolean lossy, long seed) throws Exception {
        RailsSettings s = RailsSettings.of("rail_window_frames", "64", "ack_every_frames", "4");
        try (TwoDevices t = new TwoDevices(List.of("c0", "c1"), LinkState.of(Generation.GEN3, 2), lossy, s, 64, seed)
                .connect(); Arena arena = Arena.ofShared()) {
            if (lossy) {
                t.faults(new RailFaultPlan(0.03, 0, 0, 0.01, seed));
            }
            MemorySegment srcA = arena.allocate(4 << 20);
            MemorySegment srcB = arena.allocate(4 << 20);
            srcA.fill((byte) 1);
            srcB.fill((byte) 2);
            MemoryRegion inA = t.pdA.register(arena.allocate(4 << 20), Access.REMOTE_WRITE);
            MemoryRegion inB = t.pdB.register(arena.allocate(4 << 20), Access.REMOTE_WRITE);
            MemoryRegion outA = t.pdA.register(srcA);
            MemoryRegion outB = t.pdB.register(srcB);
            int done = 0;
            for (int i = 0; i < 16; i++) {
                t.qpA().postWrite(i, outA, 0, 4 << 20, inB.address(), inB.rkey());
                t.qpB().postWrite(i, outB, 0, 4 << 20, inA.address(), inA.rkey());
            }
            int[] n = new int[1];
            t.driver.runUntil(() -> {
                while (t.cqA.poll() != null) {
                    n[0]++;
                }
                while (t.cqB.poll() != null) {
                    n[0]++;
                }
                return n[0] == 32;
            }, 600_000_000_000L);
            assertThat(n[0]).as("seed %d", seed).isEqualTo(32);
            assertThat(inA.segment().mismatch(srcB)).isEqualTo(-1);
            assertThat(inB.segment().mismatch(srcA)).isEqualTo(-1);
            for (InMemoryRailPair p : t.pairs) {
                assertThat(p.a().stats().refused()).as("seed %d: frames A offered into a full ring", seed).isZero();
                assertThat(p.b().stats().refused()).as("seed %d: frames B offered into a full ring", seed).isZero();
            }
            assertThat(t.a.stats().ackFramesSent()).isPositive();
            assertThat(t.b.stats().ackFramesSent()).isPositive();
            t.faults(RailFaultPlan.NONE);
            t.settle(1_000_000_000L);
            for (Device d : List.of(t.a, t.b)) {
                assertThat(d.stats().rails()).allSatisfy(r -> assertThat(r.credits()).isEqualTo(r.window()));
            }
        }
    }

    @Test
    void dataAndAcknowledgementsBothWaysNeverOverrunAReceiveRing() throws Exception {
        bothWays(false, 1);
    }

    @Test
    void noRingIsOverrunWhenFramesAreLostEither() throws Exception {
        bothWays(true, Seeds.seed("RailTest.lossyBothWays"));
    }

    @Test
    void aLostTailRefundsItsCreditsWithoutAnyNewFrame() throws Exception {
        try (TwoDevices t = new TwoDevices(List.of("c0"), LinkState.of(Generation.GEN3, 2), true,
                RailsSettings.defaults(), 1024, 3).connect(); Arena arena = Arena.ofShared()) {
            MemorySegment src = arena.allocate(40_000);
            MemoryRegion s = t.pdB.register(src);
            MemoryRegion d = t.pdA.register(arena.allocate(40_000), Access.REMOTE_WRITE);
            // Everything of this write is lost: its frames, and with them the credit they took.
            t.pairs.get(0).faults(RailFaultPlan.loss(1.0, 3));
            t.qpB().postWrite(1, s, 0, 40_000, d.address(), d.rkey());
            t.settle(1_000_000);
            assertThat(t.b.stats().rails().get(0).credits()).isLessThan(1024);
            t.pairs.get(0).faults(RailFaultPlan.NONE);
            assertThat(t.next(t.cqB).status()).isEqualTo(CompletionStatus.SUCCESS);
            t.settle(1_000_000_000L);
            assertThat(t.b.stats().rails().get(0).credits()).isEqualTo(1024);
            assertThat(t.a.stats().rails().get(0).credits()).isEqualTo(1024);
        }
    }

    private static TwoDevices threeRails() {
        return new TwoDevices(List.of("c0", "c1", "c2"), LinkState.of(Generation.GEN3, 2), true,
                RailsSettings.of("rail_timeout_ms", "20", "qp_max_recv_wr", "1024"), 1024, 11);
    }

    @Test
    void aSilentRailIsFailedOverAndRejoinsWhenItReturns() throws Exception {
        try (TwoDevices t = threeRails().connect()) {
            long[] sizes = new long[3000];
            for (int i = 0; i < sizes.length; i++) {
                sizes[i] = 1 + (i * 7919L) % (256 * 1024);
            }
            try (MessageStream s = new MessageStream(t, 3000, i -> sizes[i], 8 << 20, 16 << 20, 5)) {
                s.runUntil(1000, 60_000_000_000L);
                InMemoryRailPair dropped = t.pairs.get(1);
                dropped.blackhole(true);
                s.runUntil(2000, 60_000_000_000L);
                RailStats down = t.b.stats().rails().get(1);
                assertThat(down.state()).isIn("DOWN", "HANDSHAKE");
                assertThat(down.failovers()).isEqualTo(1);
                dropped.blackhole(false);
                t.settle(200_000_000);
                s.run(60_000_000_000L);
            }
            for (Device d : List.of(t.a, t.b)) {
                RailStats back = d.stats().rails().get(1);
                assertThat(back.state()).isEqualTo("UP");
                assertThat(back.dataFramesSent() + back.dataFramesReceived()).isPositive();
            }
            assertThat(t.b.stats().rails().get(1).rejoins() + t.a.stats().rails().get(1).rejoins()).isPositive();
        }
    }

    @Test
    void aCutRailIsDroppedAndAReplacementJoinsThePool() throws Exception {
        try (TwoDevices t = threeRails().connect()) {
            long[] sizes = new long[2000];
            for (int i = 0; i < sizes.length; i++) {
                sizes[i] = 1 + (i * 104729L) % (512 * 1024);
            }
            try (MessageStream s = new MessageStream(t, 2000, i -> sizes[i], 8 << 20, 16 << 20, 8)) {
                s.runUntil(300, 60_000_000_000L);
                t.pairs.get(0).cut();
                s.runUntil(1000, 60_000_000_000L);
                assertThat(t.a.stats().rails()).hasSize(2);
                InMemoryRailPair fresh = InMemoryRailPair.create(new RailInfo("new", "c0",
                        LinkState.of(Generation.GEN3, 2), true), 1024);
                t.a.addRail(fresh.a());
                t.b.addRail(fresh.b());
                t.settle(50_000_000);
                assertThat(t.a.stats().rails()).hasSize(3).allMatch(r -> r.state().equals("UP"));
                s.run(60_000_000_000L);
            }
            assertThat(t.b.stats().rails().stream().filter(r -> r.name().equals("new")).findFirst().orElseThrow()
                    .dataFramesSent()).isPositive();
        }
    }
}
