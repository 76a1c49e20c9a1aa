package io.xdlink.sim.fault;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What goes wrong on a simulated fabric, all of it drawn from one seed so a failing run replays exactly.
 *
 * <p>Frame faults apply per rail and direction, each with its own random stream derived from the seed, so one rail's
 * faults do not depend on how another rail's frames interleave. Loss comes in two kinds: independent loss at
 * {@code lossRate}, and bursts (a two-state Gilbert-Elliott model: a burst starts with probability
 * {@code burstRate} per frame and loses every frame until it ends, {@code burstLength} frames on average).
 *
 * <p>With {@code e2eFlowControl} on, a sender never overruns the receiver's ring (the USB4 hop's end-to-end flow
 * control); with it off, as on AMD hosts where drivers keep it off, a receive ring that is full when a frame
 * arrives drops that frame.
 *
 * @param seed            seed of every random stream
 * @param lossRate        probability that a frame is lost
 * @param burstRate       probability per frame that a loss burst starts
 * @param burstLength     mean frames lost per burst (at least 1)
 * @param reorderRate     probability that a frame is held back behind the next one
 * @param duplicateRate   probability that a frame arrives twice
 * @param corruptRate     probability that one bit of a frame flips on the way
 * @param e2eFlowControl  end-to-end flow control on the rings
 * @param controlLossRate probability that a ring-0 control packet is lost (XDomain retries make up for it)
 * @param events          cable pulls, replugs, crashes and restarts at planned times
 */
public record FaultPlan(long seed, double lossRate, double burstRate, double burstLength, double reorderRate,
                        double duplicateRate, double corruptRate, boolean e2eFlowControl, double controlLossRate,
                        List<FaultEvent> events) {

    /** A clean fabric: nothing lost, end-to-end flow control on. */
    public static final FaultPlan NONE = new FaultPlan(0, 0, 0, 1, 0, 0, 0, true, 0, List.of());

    public FaultPlan {
        probability("lossRate", lossRate);
        probability("burstRate", burstRate);
        probability("reorderRate", reorderRate);
        probability("duplicateRate", duplicateRate);
        probability("corruptRate", corruptRate);
        probability("controlLossRate", controlLossRate);
        if (!(burstLength >= 1) || Double.isInfinite(burstLength)) {
            throw new IllegalArgumentException("burstLength must be a finite number >= 1: " + burstLength);
        }
        events = List.copyOf(events);
        for (FaultEvent e : events) {
            if (e.atNanos() < 0) {
                throw new IllegalArgumentException("fault event before time 0: " + e);
            }
        }
    }

    private static void probability(String name, double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException(name + " must be a probability in [0, 1]: " + p);
        }
    }

    /** True when some frame can be lost, duplicated, reordered or corrupted (the rail must call itself lossy). */
    public boolean framesCanFail() {
        return lossRate > 0 || burstRate > 0 || reorderRate > 0 || duplicateRate > 0 || corruptRate > 0
                || !e2eFlowControl;
    }

    /** True when any per-frame fault is configured (what {@link FrameFaults} has to draw for). */
    boolean drawsFrameFaults() {
        return lossRate > 0 || burstRate > 0 || reorderRate > 0 || duplicateRate > 0 || corruptRate > 0;
    }

    public FaultPlan withSeed(long s) {
        return new FaultPlan(s, lossRate, burstRate, burstLength, reorderRate, duplicateRate, corruptRate,
                e2eFlowControl, controlLossRate, events);
    }

    public FaultPlan withLoss(double rate) {
        return new FaultPlan(seed, rate, burstRate, burstLength, reorderRate, duplicateRate, corruptRate,
                e2eFlowControl, controlLossRate, events);
    }

    public FaultPlan withBursts(double rate, double meanLength) {
        return new FaultPlan(seed, lossRate, rate, meanLength, reorderRate, duplicateRate, corruptRate,
                e2eFlowControl, controlLossRate, events);
    }

    public FaultPlan withReorder(double rate) {
        return new FaultPlan(seed, lossRate, burstRate, burstLength, rate, duplicateRate, corruptRate,
                e2eFlowControl, controlLossRate, events);
    }

    public FaultPlan withDuplicates(double rate) {
        return new FaultPlan(seed, lossRate, burstRate, burstLength, reorderRate, rate, corruptRate,
                e2eFlowControl, controlLossRate, events);
    }

    public FaultPlan withCorruption(double rate) {
        return new FaultPlan(seed, lossRate, burstRate, burstLength, reorderRate, duplicateRate, rate,
                e2eFlowControl, controlLossRate, events);
    }

    public FaultPlan withE2eFlowControl(boolean on) {
        return new FaultPlan(seed, lossRate, burstRate, burstLength, reorderRate, duplicateRate, corruptRate,
                on, controlLossRate, events);
    }

    public FaultPlan withControlLoss(double rate) {
        return new FaultPlan(seed, lossRate, burstRate, burstLength, reorderRate, duplicateRate, corruptRate,
                e2eFlowControl, rate, events);
    }

    /** This plan with one more scripted event. */
    public FaultPlan with(FaultEvent event) {
        List<FaultEvent> all = new ArrayList<>(events);
        all.add(event);
        return new FaultPlan(seed, lossRate, burstRate, burstLength, reorderRate, duplicateRate, corruptRate,
                e2eFlowControl, controlLossRate, all);
    }

    /** A random stream for one rail direction (or control channel), independent of every other stream. */
    public SplittableRandom stream(String name) {
        return new SplittableRandom(mix(seed ^ mix(name.hashCode() * 0x9E3779B97F4A7C15L)));
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
