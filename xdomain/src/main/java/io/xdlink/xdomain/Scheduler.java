package io.xdlink.xdomain;

/**
 * The clock and timer every timeout and retry in xdlink goes through.
 *
 * <p>XDomain waits up to 10 s for bonding and retries requests a second apart; rails time out retransmissions in
 * microseconds. With a {@link VirtualScheduler} tests run all of that in virtual time, deterministically and without
 * sleeping; with a {@link SystemScheduler} the same code runs against the wall clock.
 *
 * <p>Tasks run one at a time, on the scheduler's own thread (or the thread that advances virtual time), so a state
 * machine whose every event goes through {@link #execute} needs no locks.
 */
public interface Scheduler {

    /** Monotonic time in nanoseconds; only differences mean anything. */
    long nanoTime();

    /** Runs {@code task} once after {@code delayNanos} (0: as soon as possible). */
    Timer schedule(long delayNanos, Runnable task);

    /** Runs {@code task} as soon as possible, after the tasks already due. */
    default void execute(Runnable task) {
        schedule(0, task);
    }

    /** A scheduled task that has not run yet can be cancelled. */
    interface Timer {
        /** Cancels the task; true if it had not run and now never will. */
        boolean cancel();
    }
}
