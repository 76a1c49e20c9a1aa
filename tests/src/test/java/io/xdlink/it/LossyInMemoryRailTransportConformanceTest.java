package io.xdlink.it;

import io.xdlink.rails.RailInfo;
import io.xdlink.rails.inmemory.RailFaultPlan;
import io.xdlink.rails.inmemory.InMemoryRailPair;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;

/**
 * The conformance suite over the in-memory transport with seeded loss, reordering, duplication and corruption: it
 * must report itself lossy, and the full rails stack must still deliver every byte over it.
 */
class LossyInMemoryRailTransportConformanceTest extends RailTransportConformance {
    private int cables;

    @Override
    protected Ends open() {
        InMemoryRailPair pair = InMemoryRailPair.create(new RailInfo("lossy" + cables, "cable" + cables++,
                LinkState.of(Generation.GEN3, 1), true), 256, new RailFaultPlan(0.01, 0.01, 0.01, 0.01, seed + cables));
        return new Ends(closeLater(pair.a()), closeLater(pair.b()));
    }

    @Override
    protected boolean expectLossy() {
        return true;
    }

    /**
     * What the lossy in-memory rail's fault plan does besides losing frames: a held frame goes behind one to three
     * later frames, a duplicate arrives twice, a damaged frame has one bit flipped.
     */
    @Override
    protected Arrivals.Allowed allowed() {
        return new Arrivals.Allowed(3, 2, 1);
    }
}
