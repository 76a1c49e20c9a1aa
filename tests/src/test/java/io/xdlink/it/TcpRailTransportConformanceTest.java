package io.xdlink.it;

import io.xdlink.rails.tcp.TcpLoopbackPair;
import io.xdlink.rails.tcp.TcpSettings;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;

/** The conformance suite over a real TCP connection on 127.0.0.1. */
class TcpRailTransportConformanceTest extends RailTransportConformance {

    @Override
    protected Ends open() throws Exception {
        TcpLoopbackPair pair = closeLater(TcpLoopbackPair.open(settings(), LinkState.of(Generation.GEN3, 2)));
        return new Ends(closeLater(pair.a()), closeLater(pair.b()));
    }

    /** The rails' settings: by default payloads go to the socket from their registered memory. */
    protected TcpSettings settings() {
        return TcpSettings.defaults();
    }

    @Override
    protected boolean expectLossy() {
        return false;
    }
}
