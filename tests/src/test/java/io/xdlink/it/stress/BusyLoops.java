package io.xdlink.it.stress;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads that do nothing but burn a processor each, to starve whatever runs beside them the way a busy host does:
 * other jobs, a compiler, a collective's other ranks. Each stops when closed or, whatever happens to the test that
 * started it, after {@code limit}, so a forgotten loop cannot outlive its run for long.
 */
public final class BusyLoops implements AutoCloseable {
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stop;
    /** Spun on so the loop's work cannot be optimised away. */
    private volatile long sink;

    private BusyLoops(int count, Duration limit) {
        long end = System.nanoTime() + limit.toNanos();
        for (int i = 0; i < count; i++) {
            threads.add(Thread.ofPlatform().daemon().name("xdlink-busy-loop-" + i).start(() -> {
                long x = 0;
                while (!stop && System.nanoTime() - end < 0) {
                    for (int k = 0; k < 100_000; k++) {
                        x = x * 6364136223846793005L + 1442695040888963407L;
                    }
                    sink = x;
                }
            }));
        }
    }

    /**
     * How many sets of loops burn processors beside the tests of this JVM now: a test that measures speed then checks
     * only that its run completes correctly, since what it would measure is the loops' share of the processors. A
     * count, not a flag, since sets nest (the stress pass's loops around a test that starts loops of its own), and
     * the inner one's close must not say the outer one stopped.
     */
    private static final AtomicInteger ACTIVE = new AtomicInteger();
    private boolean counted;

    /** Starts {@code count} busy loops that stop on {@link #close} or after {@code limit}. */
    public static BusyLoops start(int count, Duration limit) {
        if (count < 0) {
            throw new IllegalArgumentException("busy loops: " + count);
        }
        BusyLoops loops = new BusyLoops(count, limit);
        if (count > 0) {
            loops.counted = true;
            ACTIVE.incrementAndGet();
        }
        return loops;
    }

    /** Whether busy loops burn processors beside the tests of this JVM now. */
    public static boolean active() {
        return ACTIVE.get() > 0;
    }

    public int count() {
        return threads.size();
    }

    /** Stops every loop and waits for it to end. */
    @Override
    public void close() {
        stop = true;
        if (counted) {
            counted = false;
            ACTIVE.decrementAndGet();
        }
        for (Thread t : threads) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
