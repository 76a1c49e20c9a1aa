package io.xdlink.it;

import io.xdlink.cluster.Bound;
import io.xdlink.cluster.ClusterConfig;
import io.xdlink.cluster.ClusterPlan;
import io.xdlink.cluster.Collective;
import io.xdlink.cluster.CollectiveRun;
import io.xdlink.cluster.DataType;
import io.xdlink.cluster.PerfRun;
import io.xdlink.cluster.RedOp;
import io.xdlink.cluster.SimCluster;
import io.xdlink.params.Origin;
import io.xdlink.params.Params;
import io.xdlink.sim.SimTopology;
import io.xdlink.sim.SimTopology.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * NCCL's collectives over CclNet on simulated clusters of 2 to 32 hosts, in virtual time: every element of every
 * result checked, the ring's rate against the analytic bound, two cables against one, a refused bond, and a cable
 * pulled in the middle of a collective. Sized for CI: small messages (4 KiB chunks, so even they pipeline through
 * many FIFO slots) for correctness, a few MiB where a rate is measured. Every host's device must end a test with
 * no internal error.
 */
@ExtendWith(NoInternalErrors.class)
class ClusterCollectivesTest {
    private static final long SEED = 18;

    private static SimCluster open(Shape shape, int hosts, String links, Map<String, String> params) throws Exception {
        SimTopology t = ClusterPlan.topology(shape.label(), hosts, links,
                params.containsKey("cluster_refused_bond") ? List.of(params.get("cluster_refused_bond")) : List.of());
        Params p = Params.defaults().with(params, Origin.explicit("test"));
        return watched(SimCluster.open(new ClusterConfig(t, p, SEED)));
    }

    /** Hands every host's device to the internal-error check; returns the cluster. */
    private static SimCluster watched(SimCluster c) {
        c.devices().forEach(OpenedDevices::watch);
        return c;
    }

    /** Runs once out of place and once in place on fresh data; returns the wrong elements (0 when right). */
    private static long check(SimCluster c, Collective coll, DataType type, RedOp op, int root, long requested) {
        long size = coll.alignedSize(requested, c.hostCount(), type);
        CollectiveRun run = new CollectiveRun(c, coll, type, op, root, size);
        long wrong = 0;
        for (boolean inPlace : new boolean[] {false, true}) {
            run.poison(size, inPlace);
            run.fill(size, inPlace);
            SimCluster.Outcome o = run.run(size, inPlace, List.of());
            assertThat(o.ok()).as("%s %s %s on %d hosts (%s), in place %s: %s", coll, type, op, c.hostCount(),
                    c.topology(), inPlace, o.failed()).isTrue();
            boolean[] done = new boolean[c.hostCount()];
            java.util.Arrays.fill(done, true);
            wrong += run.wrong(size, inPlace, done);
        }
        return wrong;
    }

    @Test
    void everyOperationTypeAndReductionIsRightElementByElementOnFourHosts() throws Exception {
        try (SimCluster c = open(Shape.RING, 4, "gen3x2", Map.of("cluster_chunk_bytes", "4K"))) {
            for (Collective coll : Collective.values()) {
                for (DataType type : DataType.values()) {
                    for (RedOp op : coll.reduces() ? RedOp.values() : new RedOp[] {RedOp.SUM}) {
                        // An odd size: the last chunk of every block is short, and pieces cross FIFO slots.
                        assertThat(check(c, coll, type, op, 1, 50_004)).as("%s %s %s", coll, type, op).isZero();
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} of {1} hosts")
    @CsvSource({"RING, 2", "RING, 8", "RING, 32", "CHAIN, 2", "CHAIN, 5", "DUAL_RING, 4"})
    void everyOperationIsRightOnTwoToThirtyTwoHosts(Shape shape, int hosts) throws Exception {
        try (SimCluster c = open(shape, hosts, "gen3x2", Map.of("cluster_chunk_bytes", "16K"))) {
            for (Collective coll : Collective.values()) {
                if (coll == Collective.SENDRECV && shape == Shape.CHAIN) {
                    continue;
                }
                long size = hosts * 3_000L;
                assertThat(check(c, coll, DataType.FLOAT32, RedOp.SUM, hosts - 1, size)).as("%s float sum", coll)
                        .isZero();
                assertThat(check(c, coll, DataType.BFLOAT16, RedOp.MAX, hosts / 2, size)).as("%s bfloat16 max",
                        coll).isZero();
                if (hosts <= 8) {
                    // int32 goes through the same steps; on 32 hosts two types are enough to keep CI quick.
                    assertThat(check(c, coll, DataType.INT32, RedOp.SUM, 0, size)).as("%s int32 sum", coll).isZero();
                }
            }
        }
    }

    /** busbw of one timed out-of-place all_reduce of {@code size} bytes, and the bound. */
    private static double[] allReduceBusbw(SimCluster c, long size) throws Exception {
        PerfRun p = new PerfRun(Collective.ALL_REDUCE, DataType.FLOAT32, RedOp.SUM, 0, size, size, 2, 1, 0, true,
                null);
        PerfRun.Result r = p.run(c, row -> { });
        assertThat(r.wrong()).isZero();
        return new double[] {r.rows().getFirst().outOfPlace().busbw(), r.bound().gbps()};
    }

    @ParameterizedTest(name = "{0} hosts, {1} bytes")
    @CsvSource({"2, 4194304", "4, 4194304", "8, 4194304", "32, 8388608"})
    void ringAllReduceOnGen3x2ComesWithinTenPercentOfTheBound(int hosts, long size) throws Exception {
        try (SimCluster c = open(Shape.RING, hosts, "gen3x2", Map.of())) {
            double[] r = allReduceBusbw(c, size);
            assertThat(r[1]).as("a Gen 3 x2 wire's payload rate, GB/s").isCloseTo(4.94, org.assertj.core.data.Offset.offset(0.01));
            assertThat(r[0] / r[1]).as("busbw %.3f GB/s against a bound of %.3f", r[0], r[1])
                    .isBetween(0.9, 1.0);
        }
    }

    @Test
    void twoCablesBetweenNeighboursCarryAtLeast1point9TimesOne() throws Exception {
        double one;
        double two;
        try (SimCluster c = open(Shape.RING, 4, "gen3x2", Map.of())) {
            one = allReduceBusbw(c, 8L << 20)[0];
        }
        try (SimCluster c = open(Shape.DUAL_RING, 4, "gen3x2", Map.of())) {
            double[] r = allReduceBusbw(c, 8L << 20);
            two = r[0];
            assertThat(r[1]).isCloseTo(2 * 4.94, org.assertj.core.data.Offset.offset(0.02));
        }
        assertThat(two / one).as("two cables %.3f GB/s, one %.3f GB/s", two, one).isGreaterThanOrEqualTo(1.9);
    }

    @Test
    void aRefusedBondSetsTheRingsRateAndIsNamed() throws Exception {
        double clean;
        try (SimCluster c = open(Shape.RING, 4, "gen3x2", Map.of())) {
            clean = allReduceBusbw(c, 4L << 20)[0];
        }
        try (SimCluster c = open(Shape.RING, 4, "gen3x2", Map.of("cluster_refused_bond", "cable2"))) {
            Bound b = Bound.of(c, Collective.ALL_REDUCE);
            assertThat(b.cables()).containsExactly("cable2");
            assertThat(b.uniform()).isFalse();
            assertThat(b.describe()).contains("set by cable2 (Gen 3 x1, 20 Gb/s)");
            double got = allReduceBusbw(c, 4L << 20)[0];
            assertThat(got / b.gbps()).as("busbw %.3f against %.3f", got, b.gbps()).isBetween(0.9, 1.0);
            assertThat(got / clean).as("one refused bond against a clean ring").isBetween(0.45, 0.55);
        }
    }

    @Test
    void aCablePulledMidCollectiveFailsItsHostsHangsNoneCorruptsNothingAndTheNextOneSucceeds() throws Exception {
        Map<String, String> fast = Map.of("peer_timeout_ms", "200", "rail_timeout_ms", "100");
        try (SimCluster c = open(Shape.RING, 8, "gen3x2", fast)) {
            long size = 4L << 20;
            CollectiveRun run = new CollectiveRun(c, Collective.ALL_REDUCE, DataType.FLOAT32, RedOp.SUM, 0, size);
            run.poison(size, false);
            run.fill(size, false);
            // cable3 joins host3 and host4; 300 us into a run of about 1.5 ms.
            SimCluster.Outcome o = run.run(size, false,
                    List.of(new SimCluster.Fault(300_000, () -> c.cable("cable3").unplug())));
            assertThat(o.hosts()).as("every host ended: none hangs").allSatisfy(h ->
                    assertThat(h.done() || h.error() != null).isTrue());
            List<Integer> sawError = new ArrayList<>();
            for (SimCluster.HostOutcome h : o.hosts()) {
                assertThat(h.done()).as("host %d cannot finish without cable3", h.host()).isFalse();
                if (!h.error().startsWith("aborted")) {
                    sawError.add(h.host());
                }
            }
            assertThat(sawError).as("the hosts on cable3 saw the plugin's error: %s", o.hosts())
                    .containsExactlyInAnyOrder(3, 4);
            assertThat(run.corrupted(size, false)).as("elements holding neither their result nor what was there")
                    .isZero();

            c.replug(c.cable("cable3"));
            run.poison(size, false);
            run.fill(size, false);
            SimCluster.Outcome again = run.run(size, false, List.of());
            assertThat(again.ok()).as("the next collective after the replug: %s", again.failed()).isTrue();
            boolean[] all = new boolean[8];
            java.util.Arrays.fill(all, true);
            assertThat(run.wrong(size, false, all)).isZero();
        }
    }

    @Test
    void inRealTimeTwoHostsRunEveryOperationRight() throws Exception {
        SimTopology t = ClusterPlan.topology("ring", 2, "gen3x2", List.of());
        Params p = Params.defaults().with(Map.of("cluster_chunk_bytes", "16K"), Origin.explicit("test"));
        try (SimCluster c = watched(SimCluster.open(new ClusterConfig(t, p, SEED, true)))) {
            for (Collective coll : Collective.values()) {
                assertThat(check(c, coll, DataType.FLOAT32, RedOp.SUM, 1, 40_000)).as("%s in real time", coll)
                        .isZero();
            }
        }
    }

    @Test
    void onADualRingAPulledCableCostsNothingButRate() throws Exception {
        try (SimCluster c = open(Shape.DUAL_RING, 4, "gen3x2", Map.of("peer_timeout_ms", "200"))) {
            long size = 4L << 20;
            CollectiveRun run = new CollectiveRun(c, Collective.ALL_REDUCE, DataType.INT32, RedOp.MAX, 0, size);
            run.fill(size, false);
            SimCluster.Outcome o = run.run(size, false,
                    List.of(new SimCluster.Fault(200_000, () -> c.cable("cable2").unplug())));
            assertThat(o.ok()).as("the second cable between host1 and host2 carries on: %s", o.failed()).isTrue();
            boolean[] all = new boolean[4];
            java.util.Arrays.fill(all, true);
            assertThat(run.wrong(size, false, all)).isZero();
        }
    }
}
