package io.xdlink.xdomain;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Wall-clock time: tasks run on one daemon thread of their own, one at a time, so code confined to the scheduler
 * needs no locks. A task that throws is reported on stderr and does not stop the scheduler.
 */
public final class SystemScheduler implements Scheduler, AutoCloseable {
    private final ScheduledThreadPoolExecutor executor;

    public SystemScheduler(String threadName) {
        executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public Timer schedule(long delayNanos, Runnable task) {
        if (executor.isShutdown()) {
            return () -> false;
        }
        ScheduledFuture<?> f = executor.schedule(() -> {
            try {
                task.run();
            } catch (Throwable t) {
                System.err.println("xdlink: scheduled task failed: " + t);
            }
        }, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
        return () -> f.cancel(false);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
