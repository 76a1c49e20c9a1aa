package io.xdlink.it;

import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.agent.VirtualTimeDriver;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceConfig;
import io.xdlink.sim.CableSpec;
import io.xdlink.sim.HostSpec;
import io.xdlink.sim.SimCable;
import io.xdlink.sim.SimClock;
import io.xdlink.sim.SimFabric;
import io.xdlink.sim.SimHost;
import io.xdlink.sim.fault.FaultPlan;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.VirtualScheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The conformance suite over simulated rails, in virtual time: two simulated hosts joined by Gen 3 cables whose
 * links XDomain negotiated, each rail opened through the hosts' fabric views (one cable per rail, so the full-stack
 * test's rails add up). The full-stack test's devices run in invoker mode on the same virtual clock; waiting steps
 * them and moves virtual time to the next thing that can happen.
 */
class SimRailTransportConformanceTest extends RailTransportConformance {
    private final VirtualScheduler scheduler = new VirtualScheduler();
    private final VirtualTimeDriver driver = new VirtualTimeDriver(scheduler);
    private SimFabric fabric;
    private SimHost a;
    private SimHost b;

    /** What goes wrong on the cables: nothing, here. */
    protected FaultPlan plan() {
        return FaultPlan.NONE;
    }

    @Override
    protected Ends open() throws Exception {
        return openRails(1).getFirst();
    }

    @Override
    protected List<Ends> openRails(int count) throws Exception {
        if (fabric == null) {
            fabric = closeLater(new SimFabric(SimClock.virtual(scheduler), plan()));
            a = fabric.addHost(HostSpec.named("a").withPorts(8).withRings(256, 64));
            b = fabric.addHost(HostSpec.named("b").withPorts(8).withRings(256, 64));
        }
        List<SimCable> cables = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            cables.add(fabric.connect(a, b, CableSpec.of(Generation.GEN3)));
        }
        long end = scheduler.nanoTime() + 60_000_000_000L;
        while (!fabric.settled() && scheduler.nextDeadline() <= end) {
            scheduler.advanceToNext();
        }
        List<Ends> ends = new ArrayList<>();
        for (SimCable c : cables) {
            ends.add(new Ends(closeLater(a.fabric().openRail(b.domain(), c.name(), 0)),
                    closeLater(b.fabric().openRail(a.domain(), c.name(), 0))));
        }
        return ends;
    }

    @Override
    protected DeviceConfig deviceConfig(UUID id) {
        return DeviceConfig.builder().id(id).settings(RailsSettings.defaults()).clock(scheduler).invoker()
                .seed(seed ^ id.getLeastSignificantBits()).build();
    }

    @Override
    protected void devicesOpened(Device da, Device db) {
        driver.add(da.agent()).add(db.agent());
    }

    @Override
    protected boolean expectLossy() {
        return false;
    }

    @Override
    protected void progress() {
        if (!driver.advance()) {
            scheduler.advance(1_000);
        }
    }
}
