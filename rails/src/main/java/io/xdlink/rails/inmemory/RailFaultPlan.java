package io.xdlink.rails.inmemory;

/**
 * What a lossy in-memory rail does to the frames it carries, each a probability per frame, drawn from a seeded
 * generator so a run replays exactly: lose it, hold it back behind the next few frames, deliver it twice, or flip
 * one of its bits.
 *
 * @param loss      probability a frame vanishes
 * @param reorder   probability a frame is held back and delivered after one to three later frames
 * @param duplicate probability a frame is delivered twice
 * @param corrupt   probability one bit of a frame is flipped
 * @param seed      the generator's seed (each direction of a rail draws from its own stream)
 */
public record RailFaultPlan(double loss, double reorder, double duplicate, double corrupt, long seed) {

    /** A perfect rail. */
    public static final RailFaultPlan NONE = new RailFaultPlan(0, 0, 0, 0, 0);

    public RailFaultPlan {
        check("loss", loss);
        check("reorder", reorder);
        check("duplicate", duplicate);
        check("corrupt", corrupt);
    }

    private static void check(String name, double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException(name + " is a probability in 0..1, not " + p);
        }
    }

    /** Only losses. */
    public static RailFaultPlan loss(double loss, long seed) {
        return new RailFaultPlan(loss, 0, 0, 0, seed);
    }

    /** True when any fault can happen. */
    public boolean any() {
        return loss > 0 || reorder > 0 || duplicate > 0 || corrupt > 0;
    }

    public RailFaultPlan withSeed(long newSeed) {
        return new RailFaultPlan(loss, reorder, duplicate, corrupt, newSeed);
    }
}
