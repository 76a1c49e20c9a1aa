package io.xdlink.sim;

import io.xdlink.params.dma.DmaFacts;
import io.xdlink.params.dma.IommuMode;
import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailTransport;
import io.xdlink.sim.wire.Frames;
import io.xdlink.sim.wire.Pump;
import io.xdlink.sim.wire.SimRailTransport;
import io.xdlink.xdomain.Generation;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Rails over negotiated links: sharing per cable, adding up across cables, rings from DMA memory, HopIDs. */
class SimFabricRailsTest {
    private static final long MS = VirtualFabric.MS;

    private final VirtualFabric v = new VirtualFabric();
    private final Pump pump = new Pump(v.scheduler);

    private SimHost host(String name) {
        return v.fabric.addHost(HostSpec.named(name).withRings(256, 64));
    }

    /** Bytes per second the receivers got over 2 ms of virtual time after 1 ms of warm-up, in Mb/s. */
    private double measure(Pump.Receiver... rx) {
        long t0 = v.scheduler.nanoTime() + MS;
        pump.runUntil(t0);
        long before = 0;
        for (Pump.Receiver r : rx) {
            before += r.bytes;
        }
        pump.runUntil(t0 + 2 * MS);
        long after = 0;
        for (Pump.Receiver r : rx) {
            after += r.bytes;
        }
        return (after - before) * 8.0 / (2 * MS) * 1000;
    }

    @Test
    void oneRailRunsAtTheNegotiatedRateAndTwoOnOneCableShareIt() throws IOException {
        SimHost a = host("a");
        SimHost b = host("b");
        SimCable cable = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3));
        v.settle();
        RailTransport r0 = a.fabric().openRail(b.domain(), cable.name(), 0);
        RailTransport r0b = b.fabric().openRail(a.domain(), cable.name(), 0);
        assertThat(r0.info().link().txMbps()).isEqualTo(40_000);
        assertThat(r0.info().linkId()).isEqualTo(cable.name());
        pump.send(r0, 4096);
        Pump.Receiver x0 = pump.receive(r0b);
        double one = measure(x0);
        assertThat(one).isCloseTo(40_000, Percentage.withPercentage(2));

        RailTransport r1 = a.fabric().openRail(b.domain(), cable.name(), 1);
        RailTransport r1b = b.fabric().openRail(a.domain(), cable.name(), 1);
        pump.send(r1, 4096);
        Pump.Receiver x1 = pump.receive(r1b);
        double two = measure(x0, x1);
        assertThat(two).as("two rails on one cable add nothing").isCloseTo(one, Percentage.withPercentage(2));
    }

    @Test
    void railsOnTwoCablesAddUp() throws IOException {
        SimHost a = host("a");
        SimHost b = host("b");
        SimCable c0 = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3));
        SimCable c1 = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3));
        v.settle();
        pump.send(a.fabric().openRail(b.domain(), c0.name(), 0), 4096);
        Pump.Receiver x0 = pump.receive(b.fabric().openRail(a.domain(), c0.name(), 0));
        double one = measure(x0);
        pump.send(a.fabric().openRail(b.domain(), c1.name(), 0), 4096);
        Pump.Receiver x1 = pump.receive(b.fabric().openRail(a.domain(), c1.name(), 0));
        double two = measure(x0, x1);
        assertThat(two / one).isGreaterThanOrEqualTo(1.95);
    }

    @Test
    void anAsymmetricCableRunsEachDirectionAtItsOwnRate() throws IOException {
        SimHost a = host("a");
        SimHost b = host("b");
        SimCable c = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3).withCaps(22_700, 11_700));
        v.settle();
        assertThat(c.linkState().orElseThrow().rateMbps()).as("the link itself negotiated 40").isEqualTo(40_000);
        RailTransport ra = a.fabric().openRail(b.domain(), c.name(), 0);
        RailTransport rb = b.fabric().openRail(a.domain(), c.name(), 0);
        pump.send(ra, 4096);
        pump.send(rb, 4096);
        Pump.Receiver atB = pump.receive(rb);
        Pump.Receiver atA = pump.receive(ra);
        v.scheduler.advance(0);
        pump.runUntil(v.scheduler.nanoTime() + MS);
        long b0 = atB.bytes;
        long a0 = atA.bytes;
        pump.runUntil(v.scheduler.nanoTime() + 2 * MS);
        assertThat((atB.bytes - b0) * 8.0 / (2 * MS) * 1000).isCloseTo(22_700, Percentage.withPercentage(2));
        assertThat((atA.bytes - a0) * 8.0 / (2 * MS) * 1000).isCloseTo(11_700, Percentage.withPercentage(2));
    }

    @Test
    void aBigRingOnAHostWithoutCmaAndWithPassthroughFallsBackTo1024WithTheWarning() throws IOException {
        SimHost a = v.fabric.addHost(HostSpec.named("ubuntu").withRings(4096, 256)
                .withDma(DmaFacts.of(0, 0, IommuMode.PASSTHROUGH)));
        SimHost b = v.fabric.addHost(HostSpec.named("translated").withRings(4096, 256));
        SimCable c = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3));
        v.settle();
        SimRailTransport ra = (SimRailTransport) a.fabric().openRail(b.domain(), c.name(), 0);
        b.fabric().openRail(a.domain(), c.name(), 0);
        assertThat(v.fabric.warnings()).hasSize(1);
        String w = v.fabric.warnings().getFirst();
        assertThat(w).startsWith("ubuntu: cable0/rail0: DMA ring: ring_size=4096 frames needs 16 MiB")
                .contains("Using 1024 frames (4 MiB) instead")
                .contains("CmaTotal is 0");
        // The host without CMA got 1024-frame rings, the other its full 4096: frames in flight are bounded by the
        // receiving host's ring.
        assertThat(ra.info().link().txMbps()).isEqualTo(40_000);
    }

    @Test
    void ringsTakeCmaWhileOpenAndGiveItBack() throws IOException {
        SimHost a = v.fabric.addHost(HostSpec.named("cma").withRings(4096, 256)
                .withDma(DmaFacts.of(40L << 20, 40L << 20, IommuMode.PASSTHROUGH)));
        SimHost b = host("b");
        SimCable c = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3));
        v.settle();
        RailTransport r0 = a.fabric().openRail(b.domain(), c.name(), 0);
        assertThat(a.dma().cmaFreeBytes()).as("two 16 MiB rings from 40 MiB of CMA").isEqualTo(8L << 20);
        assertThat(v.fabric.warnings()).isEmpty();
        RailTransport r1 = a.fabric().openRail(b.domain(), c.name(), 1);
        assertThat(v.fabric.warnings()).as("the second rail finds CMA short and falls back").hasSize(1);
        assertThat(v.fabric.warnings().getFirst()).contains("Using 1024 frames");
        r0.close();
        b.fabric().openRail(a.domain(), c.name(), 0).close();
        assertThat(a.dma().cmaFreeBytes()).isEqualTo(40L << 20);
        r1.close();
    }

    @Test
    void aPortRunsOutOfHopIdsAfterEightRails() throws IOException {
        SimHost a = host("a");
        SimHost b = host("b");
        SimCable c = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3));
        v.settle();
        List<RailTransport> rails = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            rails.add(a.fabric().openRail(b.domain(), c.name(), i));
        }
        assertThatThrownBy(() -> a.fabric().openRail(b.domain(), c.name(), 8))
                .isInstanceOf(IOException.class).hasMessageContaining("no free HopID");
        rails.getFirst().close();
        b.fabric().openRail(a.domain(), c.name(), 0).close();
        assertThat(a.fabric().openRail(b.domain(), c.name(), 8).isOpen()).isTrue();
    }

    @Test
    void openingARailTwiceOrToTheWrongPeerOrCableFails() throws IOException {
        SimHost a = host("a");
        SimHost b = host("b");
        SimHost x = host("x");
        SimCable c = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3));
        v.settle();
        a.fabric().openRail(b.domain(), c.name(), 0);
        assertThatThrownBy(() -> a.fabric().openRail(b.domain(), c.name(), 0)).hasMessageContaining("open already");
        assertThatThrownBy(() -> a.fabric().openRail(x.domain(), c.name(), 1)).hasMessageContaining("leads to");
        assertThatThrownBy(() -> a.fabric().openRail(b.domain(), "nope", 1)).hasMessageContaining("no cable 'nope'");
        assertThatThrownBy(() -> x.fabric().openRail(a.domain(), c.name(), 1)).hasMessageContaining("no cable");
    }

    @Test
    void aPulledCableFailsItsRailsAndThePeerGoesAwayThenAReplugEnumeratesAgain() throws IOException {
        SimHost a = host("a");
        SimHost b = host("b");
        SimCable c = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3));
        v.settle();
        RailTransport ra = a.fabric().openRail(b.domain(), c.name(), 0);
        RailTransport rb = b.fabric().openRail(a.domain(), c.name(), 0);
        assertThat(ra.offer(Frames.frame(1, 100))).isTrue();
        c.unplug();
        assertThat(a.fabric().peers()).isEmpty();
        assertThat(b.fabric().peers()).isEmpty();
        assertThat(ra.isOpen()).isFalse();
        assertThatThrownBy(() -> ra.offer(Frames.frame(2, 100)))
                .isInstanceOf(RailClosedException.class).hasMessage("cable cable0 was pulled");
        assertThatThrownBy(() -> rb.poll(f -> { }, 10)).isInstanceOf(RailClosedException.class);
        assertThatThrownBy(() -> a.fabric().openRail(b.domain(), c.name(), 0)).isInstanceOf(IOException.class);
        v.run(30 * VirtualFabric.S);
        assertThat(a.fabric().peers()).isEmpty();

        c.plug();
        v.settle();
        assertThat(a.fabric().peers()).hasSize(1);
        assertThat(c.plugCount()).isEqualTo(2);
        RailTransport again = a.fabric().openRail(b.domain(), c.name(), 0);
        RailTransport againB = b.fabric().openRail(a.domain(), c.name(), 0);
        assertThat(again.offer(Frames.frame(3, 100))).isTrue();
        v.run(MS);
        List<Long> got = new ArrayList<>();
        againB.poll(f -> got.add(Frames.seq(f)), 10);
        assertThat(got).as("nothing from before the pull arrives after it").containsExactly(3L);
        ra.close();
        rb.close();
    }

    @Test
    void aCrashedHostLosesEverythingAndARestartedOneIsFoundAgain() throws IOException {
        SimHost a = host("a");
        SimHost b = host("b");
        SimCable c = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3));
        v.settle();
        int generation = b.services().generation();
        RailTransport ra = a.fabric().openRail(b.domain(), c.name(), 0);
        b.crash();
        assertThat(b.isUp()).isFalse();
        assertThat(a.fabric().peers()).isEmpty();
        assertThat(b.fabric().peers()).isEmpty();
        assertThatThrownBy(() -> ra.offer(Frames.frame(1, 10))).hasMessage("host b crashed");
        assertThatThrownBy(() -> b.fabric().openRail(a.domain(), c.name(), 0)).hasMessageContaining("b is down");
        v.run(20 * VirtualFabric.S);
        b.restart();
        v.settle();
        assertThat(a.fabric().peers()).extracting(p -> p.domain()).containsExactly(b.domain());
        assertThat(b.services().generation()).isNotEqualTo(generation);
        assertThat(a.fabric().openRail(b.domain(), c.name(), 0).isOpen()).isTrue();
    }
}
