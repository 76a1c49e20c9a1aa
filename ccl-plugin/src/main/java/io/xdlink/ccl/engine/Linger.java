package io.xdlink.ccl.engine;

import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.QpState;
import io.xdlink.rails.verbs.QueuePair;
import io.xdlink.rails.verbs.WorkOpcode;

import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Queue pairs of receive comms that closed with every receive complete, kept open until their peer closes its end
 * (or the fabric fails it). A host closes its receiving end as soon as its own receives are done, while the sender
 * may still wait for the acknowledgement of the last write; closing at once would fail those sends. Queue pairs of
 * send comms that closed while writes they had reported done (small sends, done as posted) were still on their way
 * linger too, until those writes completed: closing at once would flush them, and the peer's receives of them would
 * fail with the connection. The queue pairs kept here announce nothing and their completions are discarded. A
 * receive comm's buffers are its host's, deregistered by then, so nothing can land anywhere; a send comm's copies
 * stay registered until its queue pair closes, since its writes go from them. Each is closed as soon as
 * it reports itself failed or closed (or, for a send comm, its writes completed), when the network closes, or when
 * {@link #closeAll} is called; what it held is released after it.
 */
final class Linger {
    /** How often lingering queue pairs are looked at; a cleanup cadence, not a timeout. */
    private static final long SWEEP_MILLIS = 10;
    private static final ConcurrentLinkedQueue<Entry> LINGERING = new ConcurrentLinkedQueue<>();

    /**
     * A lingering queue pair and what to release once it is closed; with {@code writes}, it closes as soon as that
     * many completions of that kind came (each write's, whether it succeeded or not), else once its peer closes.
     */
    private record Entry(QueuePair qp, WorkOpcode writes, int[] left, AutoCloseable[] after) {
        void close() {
            qp.close();
            for (AutoCloseable a : after) {
                try {
                    a.close();
                } catch (Exception e) {
                    System.err.println("xdlink: releasing a lingering queue pair's memory failed: " + e);
                }
            }
        }

        /** Discards what completed; true while the queue pair is up and has a reason to stay. */
        boolean discard() {
            Completion c;
            while ((c = qp.sendCq().poll()) != null || (c = qp.recvCq().poll()) != null) {
                // Nothing waits for these but the count of writes still on their way.
                if (writes != null && c.opcode() == writes) {
                    left[0]--;
                }
            }
            QpState s = qp.state();
            return s != QpState.ERROR && s != QpState.CLOSED && (writes == null || left[0] > 0);
        }
    }
    private static ScheduledExecutorService sweeper;
    private static ScheduledFuture<?> sweeping;

    private Linger() {
    }

    /** Keeps {@code qp} open until its peer's end goes away, then closes it and then {@code after}, in order. */
    static void add(QueuePair qp, AutoCloseable... after) {
        enqueue(new Entry(qp, null, null, after));
    }

    /**
     * Keeps {@code qp} open until {@code count} completions of {@code writes} came (writes posted before and reported
     * done to the host already), or it fails, then closes it and then {@code after}, in order.
     */
    static void addUntilWritten(QueuePair qp, WorkOpcode writes, int count, AutoCloseable... after) {
        enqueue(new Entry(qp, writes, new int[] {count}, after));
    }

    private static synchronized void enqueue(Entry entry) {
        LINGERING.add(entry);
        if (sweeper == null) {
            ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(1, r -> {
                Thread t = new Thread(r, "xdlink-ccl-linger");
                t.setDaemon(true);
                return t;
            });
            e.setRemoveOnCancelPolicy(true);
            sweeper = e;
        }
        if (sweeping == null) {
            sweeping = sweeper.scheduleWithFixedDelay(Linger::sweep, SWEEP_MILLIS, SWEEP_MILLIS,
                    TimeUnit.MILLISECONDS);
        }
    }

    private static void sweep() {
        try {
            for (Iterator<Entry> it = LINGERING.iterator(); it.hasNext(); ) {
                Entry e = it.next();
                if (!e.discard()) {
                    it.remove();
                    e.close();
                }
            }
        } catch (RuntimeException e) {
            System.err.println("xdlink: closing a lingering queue pair failed: " + e);
        }
        synchronized (Linger.class) {
            if (LINGERING.isEmpty() && sweeping != null) {
                sweeping.cancel(false);
                sweeping = null;
            }
        }
    }

    /** Closes every lingering queue pair now. */
    static void closeAll() {
        Entry e;
        while ((e = LINGERING.poll()) != null) {
            e.close();
        }
    }

    /** How many queue pairs linger (for tests). */
    static int count() {
        return LINGERING.size();
    }
}
