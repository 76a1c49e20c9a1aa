package io.xdlink.sim;

import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.sim.fault.FaultEvent;
import io.xdlink.sim.fault.FaultPlan;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The fault plan applied to a whole fabric: scripted events, a lossy ring 0, and lossy rails under the engine. */
class SimFaultPlanTest {
    private static final long SEED = Long.getLong("xdlink.sim.seed", 20261130L);
    private static final long S = VirtualFabric.S;

    @Test
    void scriptedPullsReplugsCrashesAndRestartsHappenAtTheirTimes() {
        FaultPlan plan = FaultPlan.NONE.with(new FaultEvent.CablePull("cable0", 20 * S))
                .with(new FaultEvent.CableReplug("cable0", 30 * S))
                .with(new FaultEvent.HostCrash("b", 60 * S))
                .with(new FaultEvent.HostRestart("b", 70 * S));
        VirtualFabric v = new VirtualFabric(plan);
        SimHost a = v.fabric.addHost(HostSpec.named("a"));
        SimHost b = v.fabric.addHost(HostSpec.named("b"));
        SimCable c = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3));
        List<String> seen = new ArrayList<>();
        for (long t : new long[] {19, 21, 29, 31, 59, 61, 69, 71, 99}) {
            v.scheduler.advanceTo(t * S);
            seen.add(t + "s:" + a.fabric().peers().size() + (c.isPlugged() ? "" : " unplugged")
                    + (b.isUp() ? "" : " b-down"));
        }
        // Just after a replug or a restart discovery is still running, so the peer is not there yet.
        assertThat(seen).containsExactly("19s:1", "21s:0 unplugged", "29s:0 unplugged", "31s:0", "59s:1",
                "61s:0 b-down", "69s:0 b-down", "71s:0", "99s:1");
        assertThat(c.plugCount()).isEqualTo(3);
    }

    @Test
    void aLossyRing0StillNegotiatesThanksToXdomainRetries() {
        VirtualFabric v = new VirtualFabric(FaultPlan.NONE.withSeed(SEED).withControlLoss(0.2));
        SimHost a = v.fabric.addHost(HostSpec.named("a"));
        SimHost b = v.fabric.addHost(HostSpec.named("b"));
        v.fabric.connect(a, b, CableSpec.of(Generation.GEN3));
        v.settle();
        assertThat(a.fabric().peers()).as("seed %d", SEED).hasSize(1);
        assertThat(a.fabric().peers().getFirst().links().getFirst().state())
                .as("seed %d", SEED).isIn(LinkState.of(Generation.GEN3, 2), LinkState.of(Generation.GEN3, 1));
    }

    @Test
    void writesOverLossyRailsWithoutEndToEndFlowControlArriveExactlyOnceAndIntact() throws Exception {
        FaultPlan plan = FaultPlan.NONE.withSeed(SEED).withLoss(0.01).withBursts(0.001, 4).withReorder(0.01)
                .withDuplicates(0.01).withCorruption(0.01).withE2eFlowControl(false);
        // Unpaced: the sender fills a receive ring before the receiver's engine runs, as a slow receiver would see.
        VirtualFabric v = new VirtualFabric(plan, true);
        SimHost a = v.fabric.addHost(HostSpec.named("a").withRings(256, 64));
        SimHost b = v.fabric.addHost(HostSpec.named("b").withRings(256, 64));
        SimCable c0 = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3));
        SimCable c1 = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3).withBonding(Bonding.REFUSED_BY_B));
        v.settle();
        // The engine's window is larger than the 256-frame receive rings: without end-to-end flow control the rings
        // overflow and drop, as on AMD hosts, and the engine must recover every frame.
        try (SimDevices d = new SimDevices(v, a, b, RailsSettings.defaults(), SEED).rail(c0, 0).rail(c1, 0)
                .connect()) {
            int messages = 32;
            long size = 128 << 10;
            MemoryRegion src = d.source(d.pdA, messages * size);
            MemoryRegion dst = d.target(d.pdB, messages * size);
            for (int m = 0; m < messages; m++) {
                d.qpB.postRecv(100 + m, null, 0, 0);
            }
            for (int m = 0; m < messages; m++) {
                d.qpA.postWriteWithImm(m, src, m * size, size, dst.address() + m * size, dst.rkey(), m);
            }
            // A receiver slower than its sender: A's engine runs eight duty cycles for each of B's, so B's rings fill
            // between its polls.
            List<Integer> imms = new ArrayList<>();
            int sentOk = 0;
            long deadline = v.scheduler.nanoTime() + 60 * S;
            while ((sentOk < messages || imms.size() < messages) && v.scheduler.nanoTime() < deadline) {
                long work = 0;
                for (int i = 0; i < 8; i++) {
                    work += d.a.agent().doWork();
                }
                work += d.b.agent().doWork();
                for (Completion x; (x = d.cqA.poll()) != null; work++) {
                    assertThat(x.isSuccess()).as("seed %d: %s", SEED, x).isTrue();
                    sentOk++;
                }
                for (Completion x; (x = d.cqB.poll()) != null; work++) {
                    assertThat(x.isSuccess()).as("seed %d: %s", SEED, x).isTrue();
                    imms.add(x.imm());
                }
                if (work == 0 && v.scheduler.runDue() == 0) {
                    long next = Math.min(v.scheduler.nextDeadline(),
                            Math.min(d.a.agent().nextDeadlineNanos(), d.b.agent().nextDeadlineNanos()));
                    v.scheduler.advanceTo(next == Long.MAX_VALUE ? v.scheduler.nanoTime() + 1_000 : next);
                }
            }
            assertThat(sentOk).as("seed %d", SEED).isEqualTo(messages);
            assertThat(imms).as("seed %d", SEED)
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, messages).boxed().toList());
            assertThat(dst.segment().mismatch(src.segment())).as("seed %d", SEED).isEqualTo(-1);
            assertThat(d.b.stats().corruptFrames() + d.a.stats().corruptFrames()).as("corrupt frames were caught")
                    .isPositive();
            assertThat(d.a.stats().retransmittedFrames()).as("lost frames were sent again").isPositive();
            long overflowed = d.railsA.stream()
                    .mapToLong(r -> ((io.xdlink.sim.wire.SimRailTransport) r).sentStats().overflowed()).sum();
            assertThat(overflowed).as("full receive rings dropped frames, seed %d", SEED).isPositive();
        }
    }
}
