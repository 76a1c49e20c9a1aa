package io.xdlink.bench;

import io.xdlink.rails.IdleStrategy;
import io.xdlink.rails.tcp.TcpIdleStrategy;

/**
 * A background thread that runs one duty cycle until stopped: the far side of a benchmark (a receiver that drains,
 * a peer that echoes). Between cycles that found nothing it waits as {@link TcpIdleStrategy} waits (spin, yield,
 * then sleep in the kernel on its sockets), the same on both sides of every comparison, so a machine with fewer
 * cores than busy threads still runs the side that has work.
 */
final class Spinner implements AutoCloseable {
    /** One duty cycle; returns work done, 0 when idle. */
    @FunctionalInterface
    interface Cycle {
        int run() throws Exception;
    }

    /** Runs once on the spinner's thread before its first cycle (registers plain sockets to wake on). */
    @FunctionalInterface
    interface Start {
        void run() throws Exception;
    }

    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable failure;

    Spinner(String name, Cycle cycle) {
        this(name, () -> { }, cycle);
    }

    Spinner(String name, Start start, Cycle cycle) {
        thread = Thread.ofPlatform().name(name).daemon().start(() -> {
            IdleStrategy idle = new TcpIdleStrategy();
            try {
                start.run();
                while (running) {
                    idle.idle(cycle.run());
                }
            } catch (Throwable t) {
                if (running) {
                    failure = t;
                }
            } finally {
                TcpIdleStrategy.release();
            }
        });
    }

    /** What a benchmark thread without sockets of its own to sleep on does while it waits: give the processor up. */
    static void idle() {
        Thread.yield();
    }

    /** Throws what the background side failed with, so a broken far side fails the benchmark, not hangs it. */
    void check() {
        Throwable f = failure;
        if (f != null) {
            throw new IllegalStateException(thread.getName() + " failed", f);
        }
    }

    /** Asks the thread to stop after its current cycle (close what it blocks on next, then {@link #close}). */
    void stop() {
        running = false;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(10_000);
    }
}
