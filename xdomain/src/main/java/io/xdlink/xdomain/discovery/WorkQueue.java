package io.xdlink.xdomain.discovery;

import io.xdlink.xdomain.Scheduler;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * An ordered work queue on a {@link Scheduler}, shaped like the Linux workqueue a Thunderbolt domain runs its
 * XDomain work on: delayed works that are queued at most once at a time, and that run one after another, each to
 * completion, even when a work waits (for a response, for the link) before it completes. One per host (domain),
 * shared by every peer of that host, as in Linux.
 *
 * <p>Confined to the scheduler's thread.
 */
final class WorkQueue {
    private final Scheduler scheduler;
    private final ArrayDeque<Work> ready = new ArrayDeque<>();
    private Work running;

    WorkQueue(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * A work whose body gets a completion callback it must call exactly once, possibly later from another
     * scheduled task.
     */
    Work work(String name, Consumer<Runnable> body) {
        return new Work(name, body);
    }

    private void pump() {
        if (running != null) {
            return;
        }
        Work w = ready.poll();
        if (w == null) {
            return;
        }
        w.queued = false;
        running = w;
        w.body.accept(new Runnable() {
            private boolean done;

            @Override
            public void run() {
                if (done) {
                    throw new IllegalStateException("work " + w.name + " completed twice");
                }
                done = true;
                running = null;
                scheduler.execute(WorkQueue.this::pump);
            }
        });
    }

    /** Linux's delayed work: a timer, then a place in the ordered queue. */
    final class Work {
        private final String name;
        private final Consumer<Runnable> body;
        private Scheduler.Timer timer;
        private boolean queued;
        private boolean closed;

        private Work(String name, Consumer<Runnable> body) {
            this.name = name;
            this.body = body;
        }

        /** Queues the work after {@code delayNanos} unless it is already pending; true if it was queued now. */
        boolean queue(long delayNanos) {
            if (closed || pending()) {
                return false;
            }
            timer = scheduler.schedule(delayNanos, () -> {
                timer = null;
                queued = true;
                ready.add(this);
                pump();
            });
            return true;
        }

        /** Waiting for its timer or for its turn (not running). */
        boolean pending() {
            return timer != null || queued;
        }

        /** Drops a pending run; a run in progress finishes. */
        void cancel() {
            if (timer != null) {
                timer.cancel();
                timer = null;
            }
            if (queued) {
                ready.remove(this);
                queued = false;
            }
        }

        /** Cancels and refuses every later {@link #queue}: the link is gone. */
        void close() {
            closed = true;
            cancel();
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
