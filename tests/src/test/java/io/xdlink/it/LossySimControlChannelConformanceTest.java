package io.xdlink.it;

import io.xdlink.sim.wire.SimControlChannel;

import java.util.SplittableRandom;

/**
 * The control-channel conformance suite over the simulator's ring 0 when the fault plan loses packets: what arrives
 * must still be whole, unchanged and in the order sent.
 */
class LossySimControlChannelConformanceTest extends VirtualClockControlChannels {
    /** High enough that every transfer loses some packets, low enough that some always arrive. */
    private static final double LOSS_RATE = 0.3;

    @Override
    protected Ends open() {
        SimControlChannel[] pair = SimControlChannel.pair("conformance-lossy", clock, LATENCY_NANOS, LOSS_RATE,
                new SplittableRandom(seed));
        return new Ends(closeLater(pair[0]), closeLater(pair[1]));
    }

    @Override
    protected boolean lossy() {
        return true;
    }
}
