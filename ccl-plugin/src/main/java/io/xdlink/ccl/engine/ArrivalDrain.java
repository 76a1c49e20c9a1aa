package io.xdlink.ccl.engine;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * What either end of a connection does when its connection announces a completion: it counts it in its
 * {@link Attention}, and where the connection allows draining on the thread that produced the completion
 * ({@link Connection#pollFromListener}) and no call of the end holds its lock, it drains at once.
 */
final class ArrivalDrain {
    private ArrivalDrain() {
    }

    /**
     * @param attention      the end's attention words; null while the end is still being built
     * @param lock           the end's lock, only tried here: the producing thread never waits on a host's call
     * @param drainOnArrival whether the connection allows draining here
     * @param closed         whether the end is closed, read under its lock
     * @param progress       the end's drain, run under its lock
     */
    static void arrived(Attention attention, ReentrantLock lock, boolean drainOnArrival, BooleanSupplier closed,
                        Runnable progress) {
        if (attention == null) {
            // A flush during construction: the new end's attention starts out not quiet, so nothing is missed.
            return;
        }
        if (!drainOnArrival || lock.isHeldByCurrentThread() || !lock.tryLock()) {
            attention.arrived();
            return;
        }
        try {
            if (closed.getAsBoolean()) {
                attention.arrived();
                return;
            }
            try {
                progress.run();
            } catch (RuntimeException e) {
                // Not for the producing thread (a device's progress thread) to carry: left not quiet, the end is
                // driven again by the host's next call, which meets the failure itself.
                attention.arrived();
                return;
            }
            // Drained first, then counted: the end never looks busy for a completion already taken in.
            attention.arrivedDrained();
        } finally {
            lock.unlock();
        }
    }
}
