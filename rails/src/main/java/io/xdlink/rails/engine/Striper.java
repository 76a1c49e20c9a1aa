package io.xdlink.rails.engine;

import java.util.List;

/**
 * Decides which rail carries what. A large write is cut ({@link StripePlanner#plan}) into chunks of half the peer's
 * packet window, and each chunk into at most one contiguous block per rail that is up, sized by the rail's share
 * of the weights: a rail weighs its link's rate shared among the rails up on that link (two rails on a 40 Gb/s
 * cable weigh 20 each), so rails on different cables add up. A small write goes whole to the rail with the least
 * queued and unsettled bytes for its weight.
 */
final class Striper {
    private double[] weights = new double[0];

    /** Recomputes the weights of the rails that are up. */
    void weigh(List<Rail> up) {
        double[] w = new double[up.size()];
        for (int i = 0; i < w.length; i++) {
            Rail r = up.get(i);
            int sharing = 0;
            for (Rail o : up) {
                if (o.info.linkId().equals(r.info.linkId())) {
                    sharing++;
                }
            }
            w[i] = (double) r.info.link().rateMbps() / sharing;
        }
        weights = w;
    }

    double[] weights() {
        return weights.clone();
    }

    /** Splits {@code frames} frames over the rails in proportion to their weights (largest remainders first). */
    int[] split(int frames) {
        return split(frames, weights);
    }

    static int[] split(int frames, double[] weights) {
        int n = weights.length;
        int[] counts = new int[n];
        if (n == 0) {
            return counts;
        }
        double total = 0;
        for (double w : weights) {
            total += w;
        }
        double[] rest = new double[n];
        int given = 0;
        for (int i = 0; i < n; i++) {
            double exact = frames * weights[i] / total;
            counts[i] = (int) Math.floor(exact);
            rest[i] = exact - counts[i];
            given += counts[i];
        }
        while (given < frames) {
            int best = 0;
            for (int i = 1; i < n; i++) {
                if (rest[i] > rest[best]) {
                    best = i;
                }
            }
            counts[best]++;
            rest[best] = -1;
            given++;
        }
        return counts;
    }

    /** The rail that is up with the least work per unit of weight, or null when none is up. */
    Rail leastLoaded(List<Rail> up) {
        Rail best = null;
        double bestLoad = Double.MAX_VALUE;
        for (int i = 0; i < up.size(); i++) {
            Rail r = up.get(i);
            double w = i < weights.length ? weights[i] : 1;
            double load = (r.queuedBytes + r.log.unsettledBytes() + 1) / w;
            if (load < bestLoad) {
                bestLoad = load;
                best = r;
            }
        }
        return best;
    }
}
