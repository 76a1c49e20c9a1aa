package io.xdlink.it;

import io.xdlink.sim.fault.FaultPlan;

/**
 * The conformance suite over a simulated rail that loses, reorders, duplicates and corrupts frames, with end-to-end
 * flow control off, as on AMD hosts. The fault stream has its own seed ({@code -Dxdlink.sim.seed=N} replays another)
 * so one run's faults never depend on the suite's random frames.
 */
class SimLossyRailTransportConformanceTest extends SimRailTransportConformanceTest {
    private static final long FAULT_SEED = Long.getLong("xdlink.sim.seed", 5L);

    @Override
    protected FaultPlan plan() {
        return FaultPlan.NONE.withSeed(FAULT_SEED).withLoss(0.01).withReorder(0.01).withDuplicates(0.01)
                .withCorruption(0.01).withE2eFlowControl(false);
    }

    @Override
    protected boolean expectLossy() {
        return true;
    }

    /**
     * What the simulator's fault stage does besides losing frames: a held frame goes behind the one frame sent next
     * (or goes out in order when none comes in time), a duplicate arrives twice, a damaged frame has one bit flipped.
     * A frame dropped at a full receive ring is lost like any other.
     */
    @Override
    protected Arrivals.Allowed allowed() {
        return new Arrivals.Allowed(1, 2, 1);
    }
}
