package io.xdlink.sim.wire;

import io.xdlink.sim.SimClock;

/**
 * Makes virtual time stop where something becomes possible: a frame reaching its receiver, or a TX ring with room
 * again. A virtual-time test steps its progress engines and then jumps to the next scheduled task; a frame in
 * flight is not a task, so without this the jump would fly past it.
 *
 * <p>Wake-ups are coalesced: one pending wake covers every later deadline, because whoever is woken polls again
 * and asks for the next one. Not thread-safe, like the virtual scheduler it feeds: in virtual time one thread
 * drives everything.
 *
 * <p>In real time an engine whose thread parks when idle is woken through the rail's wake hook instead; for a frame
 * due later than a spinning engine would wait, {@link #wakeLater} asks the scheduler's thread to call that hook
 * when the frame is due.
 */
public final class Waker {
    private static final Runnable NOTHING = () -> { };

    private final SimClock clock;
    private long pendingAt = Long.MIN_VALUE;

    public Waker(SimClock clock) {
        this.clock = clock;
    }

    /** How far ahead a frame must be due before a real-time wake is worth a scheduled task. */
    static final long REAL_WAKE_AHEAD_NANOS = 50_000;

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

    /**
     * In real time, runs {@code wake} when {@code deadline} comes, if that is far enough ahead to matter, so a parked
     * engine is not woken long after its frame arrived. Nothing in virtual time, where {@link #wakeAt} stops the
     * clock there instead.
     *
     * @return the deadline now covered by a scheduled wake, or {@code coveredUntil} when none was scheduled
     */
    long wakeLater(long deadline, long now, long coveredUntil, Runnable wake) {
        if (wake == null || clock.isVirtual() || !clock.paced() || deadline - now < REAL_WAKE_AHEAD_NANOS
                || (coveredUntil > now && coveredUntil <= deadline)) {
            return coveredUntil;
        }
        clock.scheduler().schedule(deadline - now, wake);
        return deadline;
    }
}
