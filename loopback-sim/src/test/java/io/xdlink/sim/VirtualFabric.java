package io.xdlink.sim;

import io.xdlink.sim.fault.FaultPlan;
import io.xdlink.xdomain.VirtualScheduler;

/** A simulated fabric in virtual time, with the stepping tests need. */
final class VirtualFabric {
    static final long MS = 1_000_000L;
    static final long S = 1_000_000_000L;

    final VirtualScheduler scheduler = new VirtualScheduler();
    final SimClock clock;
    final SimFabric fabric;

    VirtualFabric(FaultPlan plan) {
        this(plan, false);
    }

    /**
     * @param unpaced frames cross without rate or latency (timers still run in virtual time), so a sender can fill
     *                a receive ring before its receiver polls once, the overload a slow receiver meets in real time
     */
    VirtualFabric(FaultPlan plan, boolean unpaced) {
        clock = unpaced ? SimClock.unpaced(scheduler) : SimClock.virtual(scheduler);
        fabric = new SimFabric(clock, plan);
    }

    VirtualFabric() {
        this(FaultPlan.NONE);
    }

    /** Runs virtual time until every cable finished discovery; fails after a minute of virtual time. */
    void settle() {
        long end = scheduler.nanoTime() + 60 * S;
        while (!fabric.settled()) {
            if (scheduler.nextDeadline() > end || !scheduler.advanceToNext()) {
                throw new AssertionError("the fabric did not settle within 60 s of virtual time: " + fabric.cables());
            }
        }
    }

    /** Runs every task due within {@code nanos} of virtual time. */
    void run(long nanos) {
        scheduler.advance(nanos);
    }
}
