package io.xdlink.sim;

import io.xdlink.xdomain.Generation;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimTopologyTest {

    @Test
    void aRingOfFourClosesBackToTheFirstHostAndNegotiatesEveryCable() {
        VirtualFabric v = new VirtualFabric();
        SimTopology t = SimTopology.of(SimTopology.Shape.RING, 4, CableSpec.of(Generation.GEN3))
                .cable(2, CableSpec.of(Generation.GEN3).withBonding(Bonding.REFUSED_BY_B));
        List<SimHost> hosts = t.build(v.fabric);
        v.settle();
        assertThat(t.cables()).extracting(SimTopology.Cable::hostA, SimTopology.Cable::hostB)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, 1), org.assertj.core.groups.Tuple.tuple(1, 2),
                        org.assertj.core.groups.Tuple.tuple(2, 3), org.assertj.core.groups.Tuple.tuple(3, 0));
        assertThat(hosts).allSatisfy(h -> assertThat(h.fabric().peers()).hasSize(2));
        assertThat(v.fabric.cable("cable2").linkState().orElseThrow().bonded()).isFalse();
        assertThat(v.fabric.cable("cable1").linkState().orElseThrow().bonded()).isTrue();
        v.fabric.close();
    }

    @Test
    void aDualRingHasTwoCablesPerPairAndAChainLeavesItsEndsFree() {
        VirtualFabric v = new VirtualFabric();
        SimTopology dual = SimTopology.of(SimTopology.Shape.DUAL_RING, 3, CableSpec.of(Generation.GEN3));
        List<SimHost> hosts = dual.build(v.fabric);
        v.settle();
        assertThat(dual.cableCount()).isEqualTo(6);
        assertThat(hosts).allSatisfy(h -> assertThat(h.fabric().peers()).hasSize(2)
                .allSatisfy(p -> assertThat(p.links()).hasSize(2)));
        v.fabric.close();
        SimTopology chain = SimTopology.of(SimTopology.Shape.CHAIN, 5, CableSpec.of(Generation.GEN2));
        assertThat(chain.cableCount()).isEqualTo(4);
        assertThat(chain.cables().getLast().hostB()).isEqualTo(4);
    }

    @Test
    void badPlansAreRefused() {
        assertThatThrownBy(() -> SimTopology.of(SimTopology.Shape.RING, 1, CableSpec.of(Generation.GEN3)))
                .hasMessageContaining("2..64 hosts");
        assertThatThrownBy(() -> SimTopology.of(SimTopology.Shape.CHAIN, 3, CableSpec.of(Generation.GEN3))
                .cable(2, CableSpec.of(Generation.GEN2))).hasMessageContaining("cables 0..1");
    }
}
