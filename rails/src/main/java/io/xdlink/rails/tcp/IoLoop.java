package io.xdlink.rails.tcp;

import io.xdlink.xdomain.Scheduler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * The one thread of a host's TCP control plane: it accepts connections, runs session streams, fires keepalive and
 * reconnect timers and runs the XDomain code, all in turn. Because it is also the {@link Scheduler}, everything it
 * runs is confined to it and needs no locks, as on a simulator's virtual clock. Rails do not go through it: their
 * frames move on the progress engine's thread.
 */
public final class IoLoop implements Scheduler, AutoCloseable {
    private final Selector selector;
    private final Thread thread;
    private final ConcurrentLinkedQueue<Runnable> inbox = new ConcurrentLinkedQueue<>();
    private final PriorityQueue<Task> timers = new PriorityQueue<>();
    private long sequence;
    private volatile boolean closing;

    /** Reacts to readiness of a registered channel; runs on the loop. */
    public interface Handler {
        void ready(SelectionKey key) throws IOException;

        /** The handler threw, or the loop is closing; release the channel. */
        void failed(Exception cause);
    }

    public IoLoop(String name) {
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector for " + name, e);
        }
        this.thread = Thread.ofPlatform().name(name).daemon().unstarted(this::run);
        thread.start();
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public Timer schedule(long delayNanos, Runnable task) {
        Task t = new Task(System.nanoTime() + Math.max(0, delayNanos), task);
        if (inLoop()) {
            t.seq = sequence++;
            timers.add(t);
        } else {
            inbox.add(() -> {
                t.seq = sequence++;
                timers.add(t);
            });
            selector.wakeup();
        }
        return t;
    }

    @Override
    public void execute(Runnable task) {
        inbox.add(task);
        if (!inLoop()) {
            selector.wakeup();
        }
    }

    /** Makes the loop look at its channels again (a channel closed elsewhere releases its socket then). */
    void selectorWakeup() {
        selector.wakeup();
    }

    /** True on the loop's own thread. */
    public boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /** Registers a channel (non-blocking) for {@code ops}; on the loop only. */
    SelectionKey register(SelectableChannel channel, int ops, Handler handler) throws IOException {
        assert inLoop();
        try {
            return channel.register(selector, ops, handler);
        } catch (CancelledKeyException e) {
            // Its previous registration here (a handshake that handed the channel over) was cancelled in this
            // round, and a selector forgets a cancelled key only at its next selection: make that happen now.
            // Readiness it finds is not lost, the selector is level-triggered and reports it again.
            selector.selectNow();
            selector.selectedKeys().clear();
            return channel.register(selector, ops, handler);
        }
    }

    private void run() {
        try {
            while (!closing) {
                runInbox();
                long wait = runTimers();
                if (!inbox.isEmpty()) {
                    wait = -1;
                }
                if (wait < 0) {
                    selector.selectNow(this::dispatch);
                } else {
                    selector.select(this::dispatch, wait);
                }
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("xdlink: " + thread.getName() + " stopped: " + e);
        } finally {
            for (SelectionKey key : selector.keys()) {
                if (!key.isValid()) {
                    continue; // handed over (a rail now owned by its engine) or already released
                }
                if (key.attachment() instanceof Handler h) {
                    runSafely(() -> h.failed(new ClosedChannelException()));
                }
                if (key.isValid()) {
                    closeQuietly(key.channel()); // a handler that let go (a watched rail) keeps its socket
                }
            }
            closeQuietly(selector);
        }
    }

    private void dispatch(SelectionKey key) {
        Handler h = (Handler) key.attachment();
        try {
            if (key.isValid()) {
                h.ready(key);
            }
        } catch (Exception e) {
            key.cancel();
            runSafely(() -> h.failed(e));
        }
    }

    private void runInbox() {
        for (Runnable r; (r = inbox.poll()) != null; ) {
            runSafely(r);
        }
    }

    /** Runs due timers; returns milliseconds until the next one (0: none, wait for I/O), or -1 to poll at once. */
    private long runTimers() {
        long now = System.nanoTime();
        Task t;
        while ((t = timers.peek()) != null && t.deadline - now <= 0) {
            timers.poll();
            if (!t.cancelled) {
                t.done = true;
                runSafely(t.task);
            }
            now = System.nanoTime();
        }
        while ((t = timers.peek()) != null && t.cancelled) {
            timers.poll();
        }
        if (t == null) {
            return 0;
        }
        long ms = TimeUnit.NANOSECONDS.toMillis(t.deadline - now + 999_999);
        return ms <= 0 ? -1 : ms;
    }

    private static void runSafely(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException | AssertionError e) {
            System.err.println("xdlink: control-plane task failed: " + e);
        }
    }

    static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // Closing on the way out; the resource is gone either way.
        }
    }

    /** Stops the loop, fails every registered handler and closes its channel; waits for the thread to end. */
    @Override
    public void close() {
        closing = true;
        selector.wakeup();
        if (!inLoop()) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** True until {@link #close}. */
    public boolean isOpen() {
        return !closing;
    }

    private final class Task implements Timer, Comparable<Task> {
        final long deadline;
        final Runnable task;
        long seq;
        volatile boolean cancelled;
        volatile boolean done;

        Task(long deadline, Runnable task) {
            this.deadline = deadline;
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
            int c = Long.compare(deadline - o.deadline, 0);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }
}
