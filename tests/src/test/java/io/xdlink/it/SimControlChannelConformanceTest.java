package io.xdlink.it;

import io.xdlink.sim.wire.SimControlChannel;

import java.util.SplittableRandom;

/** The control-channel conformance suite over the simulator's ring 0 of one cable, without faults. */
class SimControlChannelConformanceTest extends VirtualClockControlChannels {

    @Override
    protected Ends open() {
        SimControlChannel[] pair = SimControlChannel.pair("conformance", clock, LATENCY_NANOS, 0,
                new SplittableRandom(seed));
        return new Ends(closeLater(pair[0]), closeLater(pair[1]));
    }

    @Override
    protected boolean lossy() {
        return false;
    }
}
