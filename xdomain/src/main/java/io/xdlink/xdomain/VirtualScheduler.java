package io.xdlink.xdomain;

import java.util.PriorityQueue;

/**
 * Virtual time: nothing happens until the owner advances the clock, and then every task due runs in deadline order
 * (ties in the order they were scheduled). Deterministic, so a seed and a scenario always give the same run.
 *
 * <p>Not thread-safe: one thread schedules and advances.
 */
public final class VirtualScheduler implements Scheduler {
    private final PriorityQueue<Task> queue = new PriorityQueue<>();
    private long now;
    private long sequence;

    public VirtualScheduler() {
        this(0);
    }

    public VirtualScheduler(long startNanos) {
        this.now = startNanos;
    }

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public Timer schedule(long delayNanos, Runnable task) {
        if (delayNanos < 0) {
            throw new IllegalArgumentException("negative delay " + delayNanos);
        }
        Task t = new Task(Math.addExact(now, delayNanos), sequence++, task);
        queue.add(t);
        return t;
    }

    /** Runs every task due at the current time, including ones those tasks schedule for now; returns how many ran. */
    public int runDue() {
        int ran = 0;
        Task t;
        while ((t = queue.peek()) != null && t.deadline <= now) {
            queue.poll();
            if (!t.cancelled) {
                t.done = true;
                t.task.run();
                ran++;
            }
        }
        return ran;
    }

    /** Advances the clock by {@code nanos}, running every task that falls due on the way at its own deadline. */
    public int advance(long nanos) {
        return advanceTo(Math.addExact(now, nanos));
    }

    /** Advances the clock to {@code deadline} (never backwards), running tasks due on the way. */
    public int advanceTo(long deadline) {
        int ran = runDue();
        Task t;
        while ((t = queue.peek()) != null && t.deadline <= deadline) {
            queue.poll();
            if (t.cancelled) {
                continue;
            }
            now = Math.max(now, t.deadline);
            t.done = true;
            t.task.run();
            ran++;
        }
        now = Math.max(now, deadline);
        return ran;
    }

    /**
     * Jumps to the next pending task's deadline and runs everything due then.
     *
     * @return false when nothing is pending
     */
    public boolean advanceToNext() {
        Task t;
        while ((t = queue.peek()) != null && t.cancelled) {
            queue.poll();
        }
        if (t == null) {
            return false;
        }
        advanceTo(t.deadline);
        return true;
    }

    /** Runs until no task is pending or {@code limitNanos} of virtual time has passed; returns tasks run. */
    public int runUntilIdle(long limitNanos) {
        long end = Math.addExact(now, limitNanos);
        int ran = runDue();
        while (nextDeadline() <= end && advanceToNext()) {
            ran++;
        }
        return ran;
    }

    /** Deadline of the next live task, or {@link Long#MAX_VALUE} when none is pending. */
    public long nextDeadline() {
        for (Task t; (t = queue.peek()) != null; queue.poll()) {
            if (!t.cancelled) {
                return t.deadline;
            }
        }
        return Long.MAX_VALUE;
    }

    /** Live tasks still pending. */
    public int pending() {
        int n = 0;
        for (Task t : queue) {
            if (!t.cancelled) {
                n++;
            }
        }
        return n;
    }

    private static final class Task implements Timer, Comparable<Task> {
        final long deadline;
        final long seq;
        final Runnable task;
        boolean cancelled;
        boolean done;

        Task(long deadline, long seq, Runnable task) {
            this.deadline = deadline;
            this.seq = seq;
            this.task = task;
        }

        @Override
        public boolean cancel() {
            if (done || cancelled) {
                return false;
            }
            cancelled = true;
            return true;
        }

        @Override
        public int compareTo(Task o) {
            int c = Long.compare(deadline, o.deadline);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }
}
