package io.xdlink.cluster;

import io.xdlink.rails.frame.FrameLayout;
import io.xdlink.sim.SimCable;
import io.xdlink.sim.SimTopology;
import io.xdlink.xdomain.LinkState;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The analytic bound on bus bandwidth, and the cable that sets it. A cable's payload rate per direction is what its
 * link negotiated (capped where the controller is slower) times the share of a frame a write's payload fills
 * (4044 of 4096 bytes); cables between the same two hosts add up.
 *
 * <p>On a ring every cable carries the ring's direction only, n-1 chunks per n for all_gather and reduce_scatter
 * and twice that for all_reduce, so busbw is at most the slowest neighbour pair's rate (nccl-tests' bus factors
 * are built that way). On a chain each cable carries both directions: the tree's all_reduce moves the whole buffer
 * once up and once down each cable at the same time, so its algbw is at most that rate and its busbw
 * 2(n-1)/n times it; the two-way all_gather and reduce_scatter load the end cables with n-1 chunks each way.
 *
 * @param gbps   the bound, GB/s (10^9 bytes per second, as nccl-tests counts)
 * @param cables  the cables that set it (every cable of the slowest neighbour pairs)
 * @param link    what the slowest pair's cables negotiated
 * @param uniform every neighbour pair is as fast: no one cable sets the pace
 */
public record Bound(double gbps, List<String> cables, String link, boolean uniform) {

    /** Payload bytes of a full write frame over the frame's bytes on the wire. */
    public static final double PAYLOAD_SHARE = (FrameLayout.MAX_FRAME_BYTES - FrameLayout.WRITE_HEADER
            - FrameLayout.TRAILER_BYTES) / (double) FrameLayout.MAX_FRAME_BYTES;

    /** The bound for {@code collective} on {@code cluster} as its links negotiated. */
    public static Bound of(SimCluster cluster, Collective collective) {
        SimTopology t = cluster.topology();
        boolean chain = t.shape() == SimTopology.Shape.CHAIN;
        int n = t.hostCount();
        double best = Double.MAX_VALUE;
        List<String> pace = new ArrayList<>();
        int slowest = 0;
        String link = "";
        int perSegment = t.shape() == SimTopology.Shape.DUAL_RING ? 2 : 1;
        List<SimTopology.Cable> plan = t.cables();
        for (int s = 0; s < t.segmentCount(); s++) {
            double ab = 0;
            double ba = 0;
            List<String> names = new ArrayList<>();
            StringBuilder links = new StringBuilder();
            for (int k = 0; k < perSegment; k++) {
                SimTopology.Cable c = plan.get(s * perSegment + k);
                SimCable cable = cluster.cable(c.name());
                LinkState state = cable.linkState().orElse(null);
                names.add(c.name());
                if (state == null) {
                    links.append(links.isEmpty() ? "" : " + ").append("down");
                    continue;
                }
                ab += rate(state.txMbps(), c.spec().capAtoBMbps());
                ba += rate(state.rxMbps(), c.spec().capBtoAMbps());
                links.append(links.isEmpty() ? "" : " + ").append(state.describe());
            }
            // A ring of two hosts is a line: its one cable carries both directions, as a chain's do.
            boolean bothWays = chain || n == 2;
            double segment = bothWays ? Math.min(ab, ba) : ab;
            if (segment < best - 1e-9) {
                best = segment;
                pace = new ArrayList<>(names);
                link = links.toString();
                slowest = 1;
            } else if (Math.abs(segment - best) <= 1e-9) {
                pace.addAll(names);
                slowest++;
            }
        }
        double payload = best * PAYLOAD_SHARE / 8000.0;
        double factor = chain && collective == Collective.ALL_REDUCE ? collective.busFactor(n) : 1.0;
        return new Bound(payload * factor, List.copyOf(pace), link, slowest == t.segmentCount());
    }

    /** One line for the report: the bound and what set it. */
    public String describe() {
        String who = uniform ? "every cable alike (" + link + ")"
                : String.join(", ", cables) + " (" + link + ")";
        return String.format(Locale.ROOT, "%.2f GB/s, set by %s", gbps, who);
    }

    private static double rate(long negotiatedMbps, long capMbps) {
        return capMbps == 0 ? negotiatedMbps : Math.min(capMbps, negotiatedMbps);
    }
}
