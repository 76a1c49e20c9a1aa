package io.xdlink.it;

import io.xdlink.xdomain.InMemoryControlChannel;

/** The control-channel conformance suite over the in-memory pair the XDomain unit tests use. */
class InMemoryControlChannelConformanceTest extends VirtualClockControlChannels {

    @Override
    protected Ends open() {
        InMemoryControlChannel[] pair = InMemoryControlChannel.pair(clock, LATENCY_NANOS);
        return new Ends(closeLater(pair[0]), closeLater(pair[1]));
    }

    @Override
    protected boolean lossy() {
        return false;
    }
}
