package io.xdlink.bench;

/**
 * A background thread that runs one duty cycle until stopped: the far side of a benchmark (a receiver that drains,
 * a peer that echoes). It polls as a progress engine does and yields the processor when a cycle found nothing, so
 * both sides of a comparison spend the CPU alike, and a machine with fewer cores than spinning threads still runs
 * the side that has work (a pure spin there measures the scheduler, not the transport).
 */
final class Spinner implements AutoCloseable {
    /** One duty cycle; returns work done, 0 when idle. */
    @FunctionalInterface
    interface Cycle {
        int run() throws Exception;
    }

    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable failure;

    Spinner(String name, Cycle cycle) {
        thread = Thread.ofPlatform().name(name).daemon().start(() -> {
            try {
                while (running) {
                    if (cycle.run() == 0) {
                        Thread.yield();
                    }
                }
            } catch (Throwable t) {
                if (running) {
                    failure = t;
                }
            }
        });
    }

    /** What the benchmark thread does while it waits for the far side or for room. */
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
