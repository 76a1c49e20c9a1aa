package io.xdlink.rails;

import io.xdlink.xdomain.Scheduler;

/**
 * A unit of work with one duty cycle, like a progress engine: called again and again by one thread, it does what is
 * ready and returns at once. A runner idles when a cycle did nothing, so a busy agent spins and an idle one sleeps.
 * Virtual-time tests step agents by hand between advances of the clock.
 */
public interface Agent {

    /** Does what is ready without blocking; returns how much work was done (0 when idle). */
    int doWork();

    /**
     * A duty cycle that only looks, for an owner that posts work many times a second (a host polling its requests):
     * run by a thread standing by for that owner, or by the owner's own looks between its posts. Work that rides
     * better with the owner's next {@link #doWork} may wait for it, never past the agent's own timers, and reading
     * stops once a message arrived in full ({@link #doWorkPolled}). By default the same as {@link #doWork}.
     */
    default int doWorkStandingBy() {
        return doWork();
    }

    /**
     * A duty cycle for an owner that just posted work and looks again soon (a host that polls its requests): what it
     * posted goes out, and reading what arrived may be left to the owner's next look ({@link #doWorkStandingBy}),
     * never past the agent's own timers; what it reads, it reads as that look would. By default the same as
     * {@link #doWork}.
     */
    default int doWorkPosting() {
        return doWork();
    }

    /**
     * A duty cycle for an owner that polls and answers what arrives (a host that just posted a receive, whose
     * advertisement waits for this cycle): as {@link #doWork}, but like the owner's looks and posts it stops reading
     * once a message arrived in full, so the owner sees it and answers before more is read. By default the same as
     * {@link #doWork}.
     */
    default int doWorkPolled() {
        return doWork();
    }

    /**
     * When the duty cycle that ran last began, on the agent's clock, as that cycle read it; {@link Long#MIN_VALUE}
     * when the agent does not say (its caller then reads the clock itself). For the thread that ran the cycle: a
     * caller that stamps its own calls takes this instead of reading the clock once more.
     */
    default long lastCycleNanos() {
        return Long.MIN_VALUE;
    }

    /** Name for threads and logs. */
    String roleName();

    /**
     * The earliest {@link Scheduler#nanoTime()} at which this agent has timed work (a retransmission
     * timeout, a delayed acknowledgement), or {@link Long#MAX_VALUE} when none. A virtual-time driver steps every
     * agent until all are idle, then moves the clock to the smallest of these and of the scheduler's own tasks. It
     * may be early (the agent then finds nothing to do and answers again), never late.
     */
    default long nextDeadlineNanos() {
        return Long.MAX_VALUE;
    }

    /**
     * Right after a duty cycle, by the thread that ran it: when that cycle left nothing to send and the agent reads
     * one rail, leaves that rail's next read to {@code park}'s reader until {@code deadline} ({@link
     * System#nanoTime()}; the caller keeps it before {@link #nextDeadlineNanos}), see {@link
     * RailTransport#parkRead}. By default never.
     *
     * @return whether the block is now armed
     */
    default boolean parkRead(ParkedRead park, long deadline) {
        return false;
    }

    /**
     * Right after a duty cycle, by the thread that ran it: when that cycle left nothing to send and the agent reads
     * several rails, names their sockets in {@code park}'s watch until {@code deadline}, for a host thread whose
     * looks found nothing to wait on ({@link ParkedRead#watch}). By default never.
     *
     * @return whether the watch is now up; when false the caller takes back any earlier one
     */
    default boolean watchRails(ParkedRead park, long deadline) {
        return false;
    }

    /** Called once on the agent's thread after its last duty cycle. */
    default void onClose() {
    }
}
