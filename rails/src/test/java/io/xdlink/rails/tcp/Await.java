package io.xdlink.rails.tcp;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a generous limit instead of sleeping for a guessed time. */
final class Await {
    static final Duration LIMIT = Duration.ofSeconds(30);

    private Await() {
    }

    /** Polls {@code condition} until it holds; fails naming {@code what} after the limit. */
    static void until(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("still waiting after " + LIMIT.toSeconds() + " s for: " + what);
            }
            LockSupport.parkNanos(200_000);
        }
    }
}
