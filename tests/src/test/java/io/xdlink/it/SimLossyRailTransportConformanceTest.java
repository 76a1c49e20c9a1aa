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
}
