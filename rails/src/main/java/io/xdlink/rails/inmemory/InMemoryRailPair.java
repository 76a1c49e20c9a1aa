package io.xdlink.rails.inmemory;

import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;

/**
 * Two joined in-memory rail ends, for unit tests and as the reference a transport conformance suite compares
 * with. Each direction has a receive ring of {@code ringFrames} slots and its own seeded fault stream. The rail can
 * be dropped silently and brought back ({@link #blackhole}), as when a lossy link stops delivering, or cut for good
 * ({@link #cut}), as when a cable is pulled and both ends see the rail closed.
 */
public final class InMemoryRailPair {
    private final InMemoryRailTransport a;
    private final InMemoryRailTransport b;
    private volatile boolean blackholed;
    private volatile boolean cut;

    private InMemoryRailPair(RailInfo infoA, RailInfo infoB, int ringFrames, boolean byReference) {
        FrameRing aToB = new FrameRing(ringFrames);
        FrameRing bToA = new FrameRing(ringFrames);
        this.a = new InMemoryRailTransport(this, infoA, aToB, bToA, byReference);
        this.b = new InMemoryRailTransport(this, infoB, bToA, aToB, byReference);
    }

    /** A perfect rail whose both ends report {@code info}; frames are copied whole into the receive ring. */
    public static InMemoryRailPair create(RailInfo info, int ringFrames) {
        return new InMemoryRailPair(info, info, ringFrames, false);
    }

    /** A rail with faults; {@code info} must say it is lossy when the plan has any. */
    public static InMemoryRailPair create(RailInfo info, int ringFrames, RailFaultPlan faults) {
        InMemoryRailPair p = new InMemoryRailPair(info, info, ringFrames, false);
        p.faults(faults);
        return p;
    }

    /**
     * A rail that carries data payloads by reference ({@link RailTransport#offerRun} keeps them where they are):
     * the receiver reads them straight from the sender's registered memory, as a shared-memory or DMA path
     * would, so a frame's payload is copied once, into its target.
     */
    public static InMemoryRailPair createByReference(RailInfo info, int ringFrames, RailFaultPlan faults) {
        InMemoryRailPair p = new InMemoryRailPair(info, info, ringFrames, true);
        p.faults(faults);
        return p;
    }

    InMemoryRailTransport other(InMemoryRailTransport end) {
        return end == a ? b : a;
    }

    /** The first end. */
    public InMemoryRailTransport a() {
        return a;
    }

    /** The second end. */
    public InMemoryRailTransport b() {
        return b;
    }

    /** Replaces the fault plan of both directions (each draws from its own stream of the plan's seed). */
    public void faults(RailFaultPlan plan) {
        if (plan.any() && !(a.info().lossy() && b.info().lossy())) {
            throw new IllegalArgumentException("faults need a rail whose RailInfo says lossy: " + a.info());
        }
        a.faults(plan, 1);
        b.faults(plan, 2);
    }

    /** While true, every frame offered either way vanishes; the ends stay open. */
    public void blackhole(boolean down) {
        this.blackholed = down;
    }

    public boolean isBlackholed() {
        return blackholed;
    }

    /** Pulls the cable: both ends are closed at once and frames in flight are gone. */
    public void cut() {
        this.cut = true;
    }

    public boolean isCut() {
        return cut;
    }
}
