package io.xdlink.it;

import io.xdlink.rails.RailInfo;
import io.xdlink.rails.inmemory.InMemoryRailPair;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;

/** The conformance suite over the in-memory transport the protocol's unit tests use, without faults. */
class InMemoryRailTransportConformanceTest extends RailTransportConformance {
    private int cables;

    @Override
    protected Ends open() {
        InMemoryRailPair pair = InMemoryRailPair.create(new RailInfo("mem" + cables, "cable" + cables++,
                LinkState.of(Generation.GEN3, 2), false), 256);
        return new Ends(closeLater(pair.a()), closeLater(pair.b()));
    }

    @Override
    protected boolean expectLossy() {
        return false;
    }
}
