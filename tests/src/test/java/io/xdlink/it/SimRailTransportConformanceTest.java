package io.xdlink.it;

import io.xdlink.rails.RailTransport;
import io.xdlink.sim.CableSpec;
import io.xdlink.sim.HostSpec;
import io.xdlink.sim.SimCable;
import io.xdlink.sim.SimClock;
import io.xdlink.sim.SimFabric;
import io.xdlink.sim.SimHost;
import io.xdlink.sim.fault.FaultPlan;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.VirtualScheduler;

/**
 * The conformance suite over a simulated rail, in virtual time: two simulated hosts, one Gen 3 cable negotiated by
 * XDomain, the rail opened through each host's fabric view. Waiting moves virtual time to the next thing that can
 * happen.
 */
class SimRailTransportConformanceTest extends RailTransportConformance {
    private VirtualScheduler scheduler;

    /** What goes wrong on the cable: nothing, here. */
    protected FaultPlan plan() {
        return FaultPlan.NONE;
    }

    @Override
    protected Ends open() throws Exception {
        scheduler = new VirtualScheduler();
        SimFabric fabric = closeLater(new SimFabric(SimClock.virtual(scheduler), plan()));
        SimHost a = fabric.addHost(HostSpec.named("a").withRings(256, 64));
        SimHost b = fabric.addHost(HostSpec.named("b").withRings(256, 64));
        SimCable cable = fabric.connect(a, b, CableSpec.of(Generation.GEN3));
        long end = scheduler.nanoTime() + 60_000_000_000L;
        while (!fabric.settled() && scheduler.nextDeadline() <= end) {
            scheduler.advanceToNext();
        }
        RailTransport ra = closeLater(a.fabric().openRail(b.domain(), cable.name(), 0));
        RailTransport rb = closeLater(b.fabric().openRail(a.domain(), cable.name(), 0));
        return new Ends(ra, rb);
    }

    @Override
    protected boolean expectLossy() {
        return false;
    }

    @Override
    protected void progress() {
        if (scheduler != null && !scheduler.advanceToNext()) {
            scheduler.advance(1_000);
        }
    }
}
