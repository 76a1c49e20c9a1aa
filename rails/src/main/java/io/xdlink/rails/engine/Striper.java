package io.xdlink.rails.engine;

import java.util.List;

/**
 * Decides which rail carries what. A large write is cut ({@link StripePlanner#plan}) into chunks of half the peer's
 * packet window, and each chunk into at most one contiguous block per rail that is up, sized by the rail's share
 * of the weights: a rail weighs its link's rate shared among the rails up on that link (two rails on a 40 Gb/s
 * cable weigh 20 each), so rails on different cables add up. A small write goes whole to the rail with the least
 * queued and unsettled bytes for its weight, unless the first rail up, where the pool's acknowledgements and control
 * frames go, is behind it by less than {@link #SMALL_WRITE_SLACK} bytes: then it goes there.
 */
final class Striper {
    /**
     * How much more a small write's first rail up may hold than the least-loaded rail and still take it. Each rail
     * a duty cycle writes to costs a write of its own (a system call on TCP) and the peer a read, so a ping-pong's
     * message, the advertisement posted beside it and the acknowledgement belong in one: spread by load alone over
     * two cables, they took two writes per turn, and the plugin's 8-byte round trip in the two-host lab went from
     * 1.7 to 2.85 times a polling socket's. A turn's frames hold far less than this; a stream of small writes
     * spreads as before. With 64 KiB here, 4 KiB writes over two cables shaped to 1000 Mbit/s moved 1.72-1.73 Gb/s
     * against 1.89-1.90 spread by load alone, and with 4 KiB 1.88-1.89.
     */
    static final long SMALL_WRITE_SLACK = 4 * 1024;

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

    /**
     * The rail a small write goes to: the first rail up unless another holds at least {@link #SMALL_WRITE_SLACK}
     * bytes less for its weight, then the one with the least work per unit of weight; null when none is up.
     */
    Rail forSmallWrite(List<Rail> up) {
        if (up.isEmpty()) {
            return null;
        }
        double first = load(up, 0);
        Rail best = up.getFirst();
        double bestLoad = first;
        for (int i = 1; i < up.size(); i++) {
            double load = load(up, i);
            if (load < bestLoad) {
                bestLoad = load;
                best = up.get(i);
            }
        }
        return first - bestLoad < SMALL_WRITE_SLACK / weight(0) ? up.getFirst() : best;
    }

    private double load(List<Rail> up, int i) {
        Rail r = up.get(i);
        return (r.queuedBytes + r.log.unsettledBytes() + 1) / weight(i);
    }

    private double weight(int i) {
        return i < weights.length ? weights[i] : 1;
    }
}
