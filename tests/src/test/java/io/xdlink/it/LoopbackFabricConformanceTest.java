package io.xdlink.it;

import io.xdlink.params.Origin;
import io.xdlink.params.Params;
import io.xdlink.rails.Fabric;
import io.xdlink.rails.PeerInfo;
import io.xdlink.sim.LoopbackFabric;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;

import java.util.Map;

/**
 * The fabric conformance suite over the loopback fabric ({@code loopback=1}): side a is the {@link LoopbackFabric}
 * itself, side b the simulated peer's own view of the fabric ({@link Fabric#far}), joined by one Gen 3 cable of two
 * lanes that XDomain bonds. The simulator's views cannot tell a lost peer from one not reached yet, so
 * {@link Fabric#peerLost} stays empty there (the interface's default).
 */
class LoopbackFabricConformanceTest extends FabricConformance {

    @Override
    protected Pair open() throws Exception {
        Params params = Params.defaults().with(Map.of("loopback", "1", "loopback_gen", "gen3", "loopback_lanes", "2"),
                Origin.explicit("fabric conformance"));
        LoopbackFabric a = closeLater(LoopbackFabric.open(params));
        PeerInfo peer = a.peers().getFirst();
        Fabric b = closeLater(a.far(peer.domain()).orElseThrow(() -> new AssertionError("no far end for " + peer)));
        return new Pair(a, b, peer.links().getFirst().id(), LinkState.of(Generation.GEN3, 2));
    }

    @Override
    protected boolean reportsPeerLost() {
        return false;
    }
}
