package io.xdlink.sim;

import io.xdlink.xdomain.Scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A scheduler that starts in virtual time and then goes live on the wall clock, for a loopback fabric whose cables
 * are plugged in before anyone uses it.
 *
 * <p>XDomain takes its time: 100 ms before the UUID exchange, and a full 10 s bonding timeout when a controller
 * refuses to bond. A loopback fabric opened by a plugin or a benchmark should not make its user wait for that, so
 * its hosts negotiate first in virtual time ({@link #settle}), every timeout honoured but none waited for, and then
 * the scheduler goes live ({@link #goLive}): from then on tasks run on one daemon thread at wall-clock deadlines,
 * and time continues from where the negotiation left it, so it never runs backwards. Tasks still pending at that
 * moment keep their remaining delay.
 *
 * <p>Tasks run one at a time: on the thread that calls {@link #settle} while virtual, on the scheduler's own thread
 * once live. A task that throws is reported on stderr and does not stop the scheduler.
 */
public final class FastForwardScheduler implements Scheduler, AutoCloseable {
    private final String threadName;
    private final PriorityQueue<Task> queue = new PriorityQueue<>();
    private volatile long virtualNow;
    private long sequence;
    private volatile ScheduledThreadPoolExecutor live;
    private volatile long liveBase;
    private volatile long liveStartWall;
    private boolean closed;

    public FastForwardScheduler(String threadName) {
        this.threadName = threadName;
        this.virtualNow = System.nanoTime();
    }

    /** Lock-free: every paced frame reads the clock. */
    @Override
    public long nanoTime() {
        return live == null ? virtualNow : liveBase + (System.nanoTime() - liveStartWall);
    }

    @Override
    public synchronized Timer schedule(long delayNanos, Runnable task) {
        if (delayNanos < 0) {
            throw new IllegalArgumentException("negative delay " + delayNanos);
        }
        Task t = new Task(virtualNow + delayNanos, sequence++, task);
        if (closed) {
            t.cancelled = true;
        } else if (live != null) {
            t.future = live.schedule(() -> run(t), delayNanos, TimeUnit.NANOSECONDS);
        } else {
            queue.add(t);
        }
        return t;
    }

    /**
     * Runs virtual time forward, task by task, until {@code done} holds, nothing is pending, or
     * {@code limitNanos} of virtual time have passed. Only before {@link #goLive}.
     *
     * @return whether {@code done} holds
     */
    public boolean settle(BooleanSupplier done, long limitNanos) {
        long end;
        synchronized (this) {
            if (live != null) {
                throw new IllegalStateException("the scheduler is live already");
            }
            end = virtualNow + limitNanos;
        }
        while (!done.getAsBoolean()) {
            Task t;
            synchronized (this) {
                t = queue.peek();
                if (t == null || t.deadline > end) {
                    return false;
                }
                queue.poll();
                virtualNow = Math.max(virtualNow, t.deadline);
            }
            run(t);
        }
        return true;
    }

    /** Goes live: pending tasks move to the scheduler's thread with the delay they have left. */
    public synchronized void goLive() {
        if (live != null || closed) {
            return;
        }
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread th = new Thread(r, threadName);
            th.setDaemon(true);
            return th;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        liveBase = virtualNow;
        liveStartWall = System.nanoTime();
        // The clock turns live only once its base is set, so no reader sees a half-made switch.
        live = executor;
        List<Task> pending = new ArrayList<>(queue);
        queue.clear();
        for (Task t : pending) {
            if (!t.cancelled) {
                t.future = executor.schedule(() -> run(t), Math.max(0, t.deadline - virtualNow),
                        TimeUnit.NANOSECONDS);
            }
        }
    }

    public synchronized boolean isLive() {
        return live != null;
    }

    private static void run(Task t) {
        if (!t.begin()) {
            return;
        }
        try {
            t.task.run();
        } catch (Throwable e) {
            System.err.println("xdlink: simulator task failed: " + e);
        }
    }

    /** Stops: pending tasks never run, the live thread ends. */
    @Override
    public void close() {
        ScheduledThreadPoolExecutor l;
        synchronized (this) {
            closed = true;
            queue.clear();
            l = live;
        }
        if (l != null) {
            l.shutdownNow();
        }
    }

    private static final class Task implements Timer, Comparable<Task> {
        final long deadline;
        final long seq;
        final Runnable task;
        boolean cancelled;
        boolean started;
        ScheduledFuture<?> future;

        Task(long deadline, long seq, Runnable task) {
            this.deadline = deadline;
            this.seq = seq;
            this.task = task;
        }

        synchronized boolean begin() {
            if (cancelled || started) {
                return false;
            }
            started = true;
            return true;
        }

        @Override
        public synchronized boolean cancel() {
            if (cancelled || started) {
                return false;
            }
            cancelled = true;
            if (future != null) {
                future.cancel(false);
            }
            return true;
        }

        @Override
        public int compareTo(Task o) {
            int c = Long.compare(deadline, o.deadline);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }
}
