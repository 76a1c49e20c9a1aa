package io.xdlink.sim;

import io.xdlink.params.Params;
import io.xdlink.params.dma.DmaFacts;
import io.xdlink.params.dma.DmaParams;
import io.xdlink.params.dma.IommuMode;
import io.xdlink.rails.Fabric;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.sim.fault.FaultPlan;
import io.xdlink.xdomain.ControlChannel;
import io.xdlink.xdomain.Generation;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code loopback=N}: N loopback devices inside one process. The local host has N ports; port d is cabled to a
 * simulated peer {@code loopback-peer<d>}, and every link is negotiated by the real XDomain state machines as on
 * hardware, so the peer query reports what the link negotiated (Gen 3 bonded, 40 Gb/s, by default).
 *
 * <p>This is the local host's view. Code that needs both ends in one process, as a collective library's two ranks
 * do, reaches the peer's own view with {@link #far(UUID)}: a rail opened there over the same cable and index meets
 * the one opened here.
 *
 * <p>The cables count as plugged in before the process started: {@link #open} lets the hosts negotiate in virtual
 * time, every XDomain timeout honoured (a refused bond still waits out its 10 s, in virtual time), and only then goes
 * live on the wall clock, so opening takes milliseconds. From then on frames are paced in real time, or not at all
 * with {@code loopback_clock=unpaced}.
 */
public final class LoopbackFabric implements Fabric {
    /** Virtual time the hosts get to negotiate: several bonding timeouts over. */
    private static final long SETTLE_NANOS = 120_000_000_000L;

    private final FastForwardScheduler scheduler;
    private final SimFabric world;
    private final SimHost local;
    private final List<SimHost> peers;

    private LoopbackFabric(FastForwardScheduler scheduler, SimFabric world, SimHost local, List<SimHost> peers) {
        this.scheduler = scheduler;
        this.world = world;
        this.local = local;
        this.peers = List.copyOf(peers);
    }

    /** Builds the loopback fabric {@code params} describe ({@code loopback} above 0) and waits for its links. */
    public static LoopbackFabric open(Params params) throws IOException {
        int n = Math.toIntExact(params.get(SimParams.LOOPBACK));
        if (n < 1) {
            throw new IllegalArgumentException("loopback=" + n + ": a loopback fabric needs at least one device");
        }
        FastForwardScheduler scheduler = new FastForwardScheduler("xdlink-loopback");
        try {
            SimClock clock = params.get(SimParams.CLOCK).equals("unpaced") ? SimClock.unpaced(scheduler)
                    : SimClock.real(scheduler);
            SimFabric world = new SimFabric(clock, FaultPlan.NONE.withE2eFlowControl(params.get(SimParams.E2E)));
            DmaFacts dma = dma(params);
            long ring = params.get(DmaParams.RING_SIZE);
            long minRing = params.get(DmaParams.RING_SIZE_MIN);
            SimHost local = world.addHost(HostSpec.named("loopback").withPorts(n).withDma(dma)
                    .withRings(ring, minRing));
            CableSpec cable = cable(params);
            List<SimHost> peers = new ArrayList<>();
            for (int d = 0; d < n; d++) {
                SimHost peer = world.addHost(HostSpec.named("loopback-peer" + d).withPorts(1).withDma(dma)
                        .withRings(ring, minRing));
                peers.add(peer);
                world.connect("loopback" + d, local, d, peer, 0, cable);
            }
            if (!scheduler.settle(world::settled, SETTLE_NANOS)) {
                throw new IOException("loopback links did not come up: " + world.cables());
            }
            scheduler.goLive();
            return new LoopbackFabric(scheduler, world, local, peers);
        } catch (IOException | RuntimeException e) {
            scheduler.close();
            throw e;
        }
    }

    private static CableSpec cable(Params params) {
        Generation gen = Generation.valueOf(params.get(SimParams.GENERATION).toUpperCase(Locale.ROOT));
        Bonding bonding = params.get(SimParams.BONDING).equals("refused") ? Bonding.REFUSED_BY_B : Bonding.BONDS;
        return CableSpec.of(gen).withLanes(Math.toIntExact(params.get(SimParams.LANES))).withBonding(bonding)
                .withCaps(params.get(SimParams.TX_CAP), params.get(SimParams.RX_CAP))
                .withLatency(params.get(SimParams.LATENCY));
    }

    private static DmaFacts dma(Params params) {
        IommuMode mode = IommuMode.valueOf(params.get(SimParams.IOMMU).toUpperCase(Locale.ROOT));
        long cma = params.get(SimParams.CMA);
        return DmaFacts.of(cma, cma, mode);
    }

    /** The simulated world behind this view: hosts, cables, warnings. */
    public SimFabric world() {
        return world;
    }

    /** The local host. */
    public SimHost local() {
        return local;
    }

    /** The simulated peers, device d at index d. */
    public List<SimHost> peerHosts() {
        return peers;
    }

    /** The fabric as the simulated peer {@code peer} sees it, when it is one of this process's loopback peers. */
    @Override
    public Optional<Fabric> far(UUID peer) {
        for (SimHost h : peers) {
            if (h.domain().equals(peer)) {
                return Optional.of(h.fabric());
            }
        }
        return Optional.empty();
    }

    @Override
    public UUID localDomain() {
        return local.domain();
    }

    @Override
    public List<PeerInfo> peers() {
        return local.fabric().peers();
    }

    @Override
    public ControlChannel openControl(UUID peer) throws IOException {
        return local.fabric().openControl(peer);
    }

    @Override
    public RailTransport openRail(UUID peer, String linkId, int index) throws IOException {
        return local.fabric().openRail(peer, linkId, index);
    }

    /** Closes everything: rails on both sides fail or close, the scheduler's thread ends. */
    @Override
    public void close() {
        try {
            world.close();
        } finally {
            scheduler.close();
        }
    }

    @Override
    public String toString() {
        return "loopback fabric, " + peers.size() + " device(s): " + world.cables();
    }
}
