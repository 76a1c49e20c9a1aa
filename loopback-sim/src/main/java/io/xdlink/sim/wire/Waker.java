package io.xdlink.sim.wire;

import io.xdlink.sim.SimClock;

/**
 * Makes virtual time stop where something becomes possible: a frame reaching its receiver, or a TX ring with room
 * again. A virtual-time test steps its progress engines and then jumps to the next scheduled task; a frame in
 * flight is not a task, so without this the jump would fly past it.
 *
 * <p>Wake-ups are coalesced: one pending wake covers every later deadline, because whoever is woken polls again
 * and asks for the next one. Outside virtual time this does nothing: engines there spin or idle on their own.
 * Not thread-safe, like the virtual scheduler it feeds: in virtual time one thread drives everything.
 */
public final class Waker {
    private static final Runnable NOTHING = () -> { };

    private final SimClock clock;
    private long pendingAt = Long.MIN_VALUE;

    public Waker(SimClock clock) {
        this.clock = clock;
    }

    /** Makes sure virtual time stops at {@code deadline} (scheduler nanoseconds). */
    public void wakeAt(long deadline) {
        if (!clock.isVirtual()) {
            return;
        }
        long now = clock.now();
        if (deadline <= now || (pendingAt > now && pendingAt <= deadline)) {
            return;
        }
        pendingAt = deadline;
        clock.scheduler().schedule(deadline - now, NOTHING);
    }
}
