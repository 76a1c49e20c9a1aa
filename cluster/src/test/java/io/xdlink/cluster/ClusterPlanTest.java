package io.xdlink.cluster;

import io.xdlink.sim.Bonding;
import io.xdlink.sim.SimTopology;
import io.xdlink.xdomain.Generation;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClusterPlanTest {

    @Test
    void oneLinkForAllOnePerCableAndOverridesByName() {
        SimTopology all = ClusterPlan.topology("ring", 4, "gen4x2", List.of());
        assertThat(all.cables()).hasSize(4).allSatisfy(c -> assertThat(c.spec().generation()).isEqualTo(Generation.GEN4));
        SimTopology each = ClusterPlan.topology("chain", 3, "gen2x1,gen3x2", List.of());
        assertThat(each.cables()).extracting(c -> c.spec().generation()).containsExactly(Generation.GEN2,
                Generation.GEN3);
        SimTopology over = ClusterPlan.topology("dual-ring", 3, "gen3x2,cable5=gen2x2", List.of("cable0"));
        assertThat(over.cableCount()).isEqualTo(6);
        assertThat(over.cables().get(5).spec().generation()).isEqualTo(Generation.GEN2);
        assertThat(over.cables().get(0).spec().bonding()).isEqualTo(Bonding.REFUSED_BY_B);
        assertThat(over.cables().get(1).spec().bonding()).isEqualTo(Bonding.BONDS);
    }

    @Test
    void aRingOfTwoIsOneCableAndADualRingOfTwoIsTwo() {
        assertThat(ClusterPlan.topology("ring", 2, "gen3x2", List.of()).cableCount()).isEqualTo(1);
        assertThat(ClusterPlan.topology("dual-ring", 2, "gen3x2", List.of()).cableCount()).isEqualTo(2);
        assertThat(ClusterPlan.topology("chain", 32, "gen3x2", List.of()).cableCount()).isEqualTo(31);
    }

    @Test
    void malformedTruncatedAndHostileInputIsOneClearLine() {
        assertThatThrownBy(() -> ClusterPlan.topology("", 4, "gen3x2", List.of()))
                .hasMessage("--topology must be ring, chain or dual-ring, got ''");
        assertThatThrownBy(() -> ClusterPlan.topology("ring\u0000\u001b[31m", 4, "gen3x2", List.of()))
                .hasMessageContaining("got 'ring??[31m'");
        assertThatThrownBy(() -> ClusterPlan.topology("ring", 65, "gen3x2", List.of()))
                .hasMessageContaining("--hosts must be 2..64");
        assertThatThrownBy(() -> ClusterPlan.topology("ring", 4, "", List.of())).hasMessageContaining("a link is");
        assertThatThrownBy(() -> ClusterPlan.topology("ring", 4, "gen3x", List.of())).hasMessageContaining("a link is");
        assertThatThrownBy(() -> ClusterPlan.topology("ring", 4, "gen3x2,", List.of()))
                .hasMessageContaining("lists 2 links");
        assertThatThrownBy(() -> ClusterPlan.topology("ring", 4, "x".repeat(100000), List.of()))
                .hasMessageContaining("...'");
        assertThatThrownBy(() -> ClusterPlan.topology("ring", 4, "cable4=gen3x2", List.of()))
                .hasMessageContaining("there is no cable4");
        assertThatThrownBy(() -> ClusterPlan.topology("ring", 4, "gen3x2", List.of("cable99999")))
                .hasMessageContaining("is not a cable name");
        assertThatThrownBy(() -> ClusterPlan.topology("ring", 4, "gen3x1", List.of("cable1")))
                .hasMessageContaining("has one lane");
    }

    @Test
    void pullsNameACableAndATime() {
        assertThat(ClusterPlan.pull("", 4)).isNull();
        assertThat(ClusterPlan.pull("cable2@200us", 4)).isEqualTo(new PerfRun.Pull("cable2", 200_000));
        assertThat(ClusterPlan.pull("CABLE0@3ms", 4)).isEqualTo(new PerfRun.Pull("cable0", 3_000_000));
        assertThatThrownBy(() -> ClusterPlan.pull("cable2", 4)).hasMessageContaining("CABLE@TIME");
        assertThatThrownBy(() -> ClusterPlan.pull("cable2@", 4)).hasMessageContaining("a time is");
        assertThatThrownBy(() -> ClusterPlan.pull("cable2@-5ms", 4)).hasMessageContaining("a time is");
        assertThatThrownBy(() -> ClusterPlan.pull("cable2@999999999999s", 4)).hasMessageContaining("at most a minute");
        assertThatThrownBy(() -> ClusterPlan.pull("cable9@1ms", 4)).hasMessageContaining("there is no cable9");
    }
}
