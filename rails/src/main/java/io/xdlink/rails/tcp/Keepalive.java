package io.xdlink.rails.tcp;

/**
 * When a session should send a heartbeat and when its peer counts as dead, as arithmetic on a clock it is handed,
 * so the rule is tested in virtual time and runs against the wall clock unchanged. Anything received counts as a
 * sign of life, so a busy session sends no heartbeats at all; a quiet one sends one per interval; a peer heard from
 * for nothing for the timeout is dead. Not thread-safe: one loop owns it.
 *
 * <p>Silence is only believed once the loop has read its socket after the timeout ran out ({@link #dead}): a loop that
 * was itself stalled (a collection, a thread starved on a busy machine) finds the timeout long past on waking, with
 * the peer's heartbeats still unread in the socket, and must not blame the peer for its own absence.
 */
public final class Keepalive {
    private final long intervalNanos;
    private final long timeoutNanos;
    private long lastSent;
    private long lastHeard;
    /** The timeout had run out at the last check; the next check after a read of the socket decides. */
    private boolean suspect;

    /**
     * @param intervalNanos heartbeat period of a quiet session
     * @param timeoutNanos  silence after which the peer is dead; longer than the interval
     * @param now           the clock when the session came up: it counts as both sent and heard then
     */
    public Keepalive(long intervalNanos, long timeoutNanos, long now) {
        if (intervalNanos <= 0 || timeoutNanos <= intervalNanos) {
            throw new IllegalArgumentException("keepalive needs 0 < interval < timeout, got " + intervalNanos + " and "
                    + timeoutNanos + " ns");
        }
        this.intervalNanos = intervalNanos;
        this.timeoutNanos = timeoutNanos;
        this.lastSent = now;
        this.lastHeard = now;
    }

    /** Something went out at {@code now}. */
    public void sent(long now) {
        lastSent = now;
    }

    /** Something came in at {@code now}. */
    public void heard(long now) {
        lastHeard = now;
        suspect = false;
    }

    /** True when nothing went out for an interval. */
    public boolean heartbeatDue(long now) {
        return now - lastSent >= intervalNanos;
    }

    /** True when nothing came in for the timeout. */
    public boolean expired(long now) {
        return now - lastHeard >= timeoutNanos;
    }

    /**
     * True when the peer is dead: the timeout had run out at the previous check as well as at this one, and nothing
     * was heard in between. The first check that finds the timeout gone only makes the peer a suspect; the loop
     * must read the socket before it checks again (which {@link #untilNextCheck} of 0 asks for at once).
     */
    public boolean dead(long now) {
        if (!expired(now)) {
            suspect = false;
            return false;
        }
        if (!suspect) {
            suspect = true;
            return false;
        }
        return true;
    }

    /** Nanoseconds of silence from the peer so far. */
    public long silentFor(long now) {
        return now - lastHeard;
    }

    /** Nanoseconds from {@code now} until a heartbeat or the timeout falls due (0 when one is due already). */
    public long untilNextCheck(long now) {
        long beat = lastSent + intervalNanos - now;
        long death = lastHeard + timeoutNanos - now;
        return Math.max(0, Math.min(beat, death));
    }

    public long timeoutNanos() {
        return timeoutNanos;
    }
}
