package io.xdlink.sim.fault;

import java.util.SplittableRandom;

/**
 * Draws the fate of each frame on one rail direction from the fault plan: lost, held back behind the next frame,
 * duplicated, corrupted, or nothing. One instance per direction, used by the sending side only.
 */
public final class FrameFaults {
    /** The frame never arrives. */
    public static final int LOSE = 1;
    /** The frame arrives after the frame sent next. */
    public static final int HOLD = 2;
    /** The frame arrives twice. */
    public static final int DUPLICATE = 4;
    /** One bit of the frame flips. */
    public static final int CORRUPT = 8;

    private static final FrameFaults CLEAN = new FrameFaults(FaultPlan.NONE, null);

    private final FaultPlan plan;
    private final SplittableRandom random;
    private final boolean active;
    private boolean inBurst;

    private FrameFaults(FaultPlan plan, SplittableRandom random) {
        this.plan = plan;
        this.random = random;
        this.active = random != null;
    }

    /** The faults of one stream ({@code name} identifies the cable, rail and direction). */
    public static FrameFaults of(FaultPlan plan, String name) {
        return plan.drawsFrameFaults() ? new FrameFaults(plan, plan.stream(name)) : CLEAN;
    }

    /** Whether any frame can meet a fault at all (false for a plan without frame faults). */
    public boolean active() {
        return active;
    }

    /** A set of the flags above for the next frame (0: delivered untouched). */
    public int next() {
        if (!active) {
            return 0;
        }
        if (inBurst || (plan.burstRate() > 0 && random.nextDouble() < plan.burstRate())) {
            // A burst of N frames with N geometric, mean burstLength: after each lost frame it goes on with
            // probability 1 - 1/burstLength.
            inBurst = random.nextDouble() * plan.burstLength() >= 1;
            return LOSE;
        }
        if (plan.lossRate() > 0 && random.nextDouble() < plan.lossRate()) {
            return LOSE;
        }
        int f = 0;
        if (plan.reorderRate() > 0 && random.nextDouble() < plan.reorderRate()) {
            f |= HOLD;
        }
        if (plan.duplicateRate() > 0 && random.nextDouble() < plan.duplicateRate()) {
            f |= DUPLICATE;
        }
        if (plan.corruptRate() > 0 && random.nextDouble() < plan.corruptRate()) {
            f |= CORRUPT;
        }
        return f;
    }

    /** True when frames may be held back for reordering (holding is timed, so the sender must read the clock). */
    public boolean holds() {
        return active && plan.reorderRate() > 0;
    }

    /** Which bit of a frame of {@code length} bytes to flip. */
    public long bitToFlip(int length) {
        return random.nextLong(length * 8L);
    }
}
