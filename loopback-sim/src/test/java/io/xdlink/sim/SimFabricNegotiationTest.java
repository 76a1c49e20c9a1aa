package io.xdlink.sim;

import io.xdlink.rails.Fabric;
import io.xdlink.rails.LinkInfo;
import io.xdlink.rails.PeerInfo;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every link state a simulated host reports comes out of the XDomain negotiation over the cable. */
class SimFabricNegotiationTest {
    private final VirtualFabric v = new VirtualFabric();
    private final SimHost alpha = v.fabric.addHost(HostSpec.named("alpha"));
    private final SimHost beta = v.fabric.addHost(HostSpec.named("beta"));

    private static LinkInfo onlyLink(Fabric f) {
        List<PeerInfo> peers = f.peers();
        assertThat(peers).hasSize(1);
        assertThat(peers.getFirst().links()).hasSize(1);
        return peers.getFirst().links().getFirst();
    }

    @Test
    void aBondingGen3CableNegotiates40GbPerDirection() {
        v.fabric.connect(alpha, beta, CableSpec.of(Generation.GEN3));
        assertThat(alpha.fabric().peers()).as("nothing is known before discovery ran").isEmpty();
        v.settle();
        LinkInfo link = onlyLink(alpha.fabric());
        assertThat(link.state()).isEqualTo(LinkState.of(Generation.GEN3, 2));
        assertThat(link.state().txMbps()).isEqualTo(40_000);
        assertThat(link.state().rxMbps()).isEqualTo(40_000);
        assertThat(onlyLink(beta.fabric()).state()).isEqualTo(link.state());
        PeerInfo peer = alpha.fabric().peers().getFirst();
        assertThat(peer.domain()).isEqualTo(beta.domain());
        assertThat(peer.name()).isEqualTo("beta");
        assertThat(peer.rateMbps()).isEqualTo(40_000);
    }

    @Test
    void discoverySurvivesTheLongestDeclaredLatency() {
        v.fabric.connect(alpha, beta, CableSpec.of(Generation.GEN3).withLatency(SimParams.MAX_LATENCY_NS));
        v.run(60 * VirtualFabric.S);
        assertThat(alpha.fabric().peers()).hasSize(1);
        assertThat(beta.fabric().peers()).hasSize(1);
    }

    /** Why loopback_latency_ns stops below 500 ms: a round trip of a second misses every 1 s request timeout. */
    @Test
    void atHalfASecondEachWayEveryDiscoveryRequestTimesOut() {
        v.fabric.connect(alpha, beta, CableSpec.of(Generation.GEN3).withLatency(500 * VirtualFabric.MS));
        v.run(60 * VirtualFabric.S);
        assertThat(alpha.fabric().peers()).isEmpty();
    }

    @Test
    void aRefusedBondNegotiates20AfterTheBondingTimeout() {
        v.fabric.connect(alpha, beta, CableSpec.of(Generation.GEN3).withBonding(Bonding.REFUSED_BY_B));
        v.settle();
        assertThat(onlyLink(alpha.fabric()).state()).isEqualTo(LinkState.of(Generation.GEN3, 1));
        assertThat(onlyLink(beta.fabric()).state().rateMbps()).isEqualTo(20_000);
        // Waiting out the 10 s bonding timeout is what a refusing controller costs, as in the field trace.
        assertThat(v.scheduler.nanoTime()).isGreaterThanOrEqualTo(10 * VirtualFabric.S);
    }

    @Test
    void aSingleLaneCableNeverTriesToBond() {
        v.fabric.connect(alpha, beta, CableSpec.of(Generation.GEN3).withLanes(1));
        v.settle();
        assertThat(onlyLink(alpha.fabric()).state()).isEqualTo(LinkState.of(Generation.GEN3, 1));
        assertThat(v.scheduler.nanoTime()).isLessThan(10 * VirtualFabric.S);
    }

    @Test
    void gen2AndGen4LinksRunTheirGenerationsRate() {
        SimHost gamma = v.fabric.addHost(HostSpec.named("gamma"));
        v.fabric.connect(alpha, beta, CableSpec.of(Generation.GEN2));
        v.fabric.connect(alpha, gamma, CableSpec.of(Generation.GEN4));
        v.settle();
        assertThat(alpha.fabric().peers()).extracting(PeerInfo::name, PeerInfo::rateMbps)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("beta", 20_000L),
                        org.assertj.core.groups.Tuple.tuple("gamma", 80_000L));
    }

    @Test
    void twoCablesToOnePeerAreTwoLinksOfOnePeer() {
        v.fabric.connect(alpha, beta, CableSpec.of(Generation.GEN3));
        v.fabric.connect(alpha, beta, CableSpec.of(Generation.GEN3).withBonding(Bonding.REFUSED_BY_A));
        v.settle();
        List<PeerInfo> peers = alpha.fabric().peers();
        assertThat(peers).hasSize(1);
        assertThat(peers.getFirst().links()).extracting(LinkInfo::id).containsExactly("cable0", "cable1");
        assertThat(peers.getFirst().rateMbps()).isEqualTo(60_000);
    }

    @Test
    void aPeerThatWithdrawsTheXdlinkServiceIsNoLongerAnXdlinkPeer() {
        SimFabric f = v.fabric;
        SimHost netOnly = f.addHost(HostSpec.named("net-only").withThunderboltNet(true));
        f.connect(alpha, netOnly, CableSpec.of(Generation.GEN3));
        v.settle();
        assertThat(alpha.fabric().peers()).extracting(PeerInfo::name).containsExactly("net-only");
        netOnly.services().unregister(io.xdlink.xdomain.service.XdlinkService.KEY,
                netOnly.services().services().stream()
                        .filter(d -> d.key().equals(io.xdlink.xdomain.service.XdlinkService.KEY))
                        .findFirst().orElseThrow().directory());
        v.run(5 * VirtualFabric.S);
        // The properties-changed notification made alpha read the block again: only thunderbolt-net is left.
        assertThat(alpha.fabric().peers()).isEmpty();
    }
}
