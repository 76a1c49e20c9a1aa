package io.xdlink.it;

import io.xdlink.sim.CableSpec;
import io.xdlink.sim.HostSpec;
import io.xdlink.sim.SimCable;
import io.xdlink.sim.SimClock;
import io.xdlink.sim.SimFabric;
import io.xdlink.sim.SimHost;
import io.xdlink.sim.fault.FaultPlan;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.VirtualScheduler;

/**
 * The fabric conformance suite over two simulated hosts' own views ({@link SimHost#fabric()}) in virtual time,
 * joined by one Gen 2 cable whose two lanes XDomain bonds: unlike the loopback fabric, both sides here are plain
 * host views, and closing side a closes only that view, not the simulated world. Waiting moves the virtual clock.
 * The simulator's views leave {@code peerLost} at the interface's empty default, so that case is skipped.
 */
class SimHostFabricConformanceTest extends FabricConformance {
    /** Virtual time discovery and bonding may take before the peers know each other. */
    private static final long DISCOVERY_NANOS = 120_000_000_000L;
    private final VirtualScheduler clock = new VirtualScheduler();

    @Override
    protected Pair open() throws Exception {
        SimFabric world = closeLater(new SimFabric(SimClock.virtual(clock), FaultPlan.NONE));
        SimHost a = world.addHost(HostSpec.named("a").withPorts(2).withRings(64, 16));
        SimHost b = world.addHost(HostSpec.named("b").withPorts(2).withRings(64, 16));
        SimCable cable = world.connect(a, b, CableSpec.of(Generation.GEN2));
        long end = clock.nanoTime() + DISCOVERY_NANOS;
        while (!world.settled() && clock.nextDeadline() <= end) {
            clock.advanceToNext();
        }
        return new Pair(closeLater(a.fabric()), closeLater(b.fabric()), cable.name(), LinkState.of(Generation.GEN2, 2));
    }

    @Override
    protected boolean reportsPeerLost() {
        return false;
    }

    @Override
    protected void progress() {
        clock.advance(10_000);
    }
}
