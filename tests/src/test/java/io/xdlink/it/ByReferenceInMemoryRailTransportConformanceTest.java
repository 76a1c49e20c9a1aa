package io.xdlink.it;

import io.xdlink.rails.RailInfo;
import io.xdlink.rails.inmemory.RailFaultPlan;
import io.xdlink.rails.inmemory.InMemoryRailPair;

/**
 * The conformance suite over an in-memory pair that carries payloads by reference: a run's payloads stay in the
 * sender's memory until the receiver reads them.
 */
class ByReferenceInMemoryRailTransportConformanceTest extends InMemoryRailTransportConformanceTest {

    @Override
    protected InMemoryRailPair pair(RailInfo info) {
        return InMemoryRailPair.createByReference(info, 256, RailFaultPlan.NONE);
    }
}
