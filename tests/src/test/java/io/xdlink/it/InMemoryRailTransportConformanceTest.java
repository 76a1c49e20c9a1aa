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
        InMemoryRailPair pair = pair(new RailInfo("mem" + cables, "cable" + cables++, LinkState.of(Generation.GEN3, 2),
                false));
        return new Ends(closeLater(pair.a()), closeLater(pair.b()));
    }

    /** A pair over {@code info}: by default one that copies every frame whole into the receive ring. */
    protected InMemoryRailPair pair(RailInfo info) {
        return InMemoryRailPair.create(info, 256);
    }

    @Override
    protected boolean expectLossy() {
        return false;
    }
}
