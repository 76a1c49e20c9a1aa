package io.xdlink.ccl.engine;

import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.lang.foreign.MemorySegment;

/**
 * Connections of receive comms that closed with every receive complete, kept open until their peer closes its end
 * (or the fabric fails it). A host closes its receiving end as soon as its own receives are done, while the sender
 * may still wait for the acknowledgement of the last write; closing at once would fail those sends. The ends kept
 * here hold no posted receive and their memory is deregistered, so nothing can land anywhere; each is closed as
 * soon as it reports itself closed, when the network closes, or when {@link #closeAll} is called.
 */
final class Linger {
    /** How often lingering connections are looked at; a cleanup cadence, not a timeout. */
    private static final long SWEEP_MILLIS = 10;
    private static final ConcurrentLinkedQueue<Entry> LINGERING = new ConcurrentLinkedQueue<>();

    /** A lingering connection and what to release once it is closed. */
    private record Entry(Connection connection, AutoCloseable[] after) {
        void close() {
            connection.close();
            for (AutoCloseable a : after) {
                try {
                    a.close();
                } catch (Exception e) {
                    System.err.println("xdlink: releasing a lingering connection's memory failed: " + e);
                }
            }
        }
    }
    private static final Connection.CompletionHandler DISCARD = new Connection.CompletionHandler() {
        @Override
        public void onPostComplete(long workId, String error) {
        }

        @Override
        public void onReceive(long workId, MemorySegment message, String error) {
        }

        @Override
        public void onImmediate(int immediate, long length, String error) {
        }
    };
    private static ScheduledExecutorService sweeper;
    private static ScheduledFuture<?> sweeping;

    private Linger() {
    }

    /** Keeps {@code c} open until its peer's end goes away, then closes it and then {@code after}, in order. */
    static synchronized void add(Connection c, AutoCloseable... after) {
        LINGERING.add(new Entry(c, after));
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
                e.connection().poll(DISCARD, 64);
                if (!e.connection().isOpen()) {
                    it.remove();
                    e.close();
                }
            }
        } catch (RuntimeException e) {
            System.err.println("xdlink: closing a lingering connection failed: " + e);
        }
        synchronized (Linger.class) {
            if (LINGERING.isEmpty() && sweeping != null) {
                sweeping.cancel(false);
                sweeping = null;
            }
        }
    }

    /** Closes every lingering connection now. */
    static void closeAll() {
        Entry e;
        while ((e = LINGERING.poll()) != null) {
            e.close();
        }
    }

    /** How many connections linger (for tests). */
    static int count() {
        return LINGERING.size();
    }
}
