package io.xdlink.rails.tcp;

/**
 * How many idle passes a thread spends looking before it sleeps on its rails, adapted to how late the answers come.
 *
 * <p>Why it adapts: on a ping-pong both ends look for the answer for a while and then sleep. When a sleeping end
 * answers late (tens to hundreds of microseconds after its wake-up in the scheduler's trace of such a run on a virtual
 * machine), its answer comes after the other end has given up looking, so that end sleeps too and its answer comes late
 * as well: the pair settles in a mode where every round trip pays two late answers. In the two-host lab on a 2-core
 * virtual machine a 2-byte `write_lat` ran whole runs at 60-150 us typical (t_min 8-21 us; both ends sleeping once a
 * round trip, as the scheduler's trace showed), against 6-10 us in the others, in bursts of up to one run in two and
 * then none for twenty. A fixed window cannot know how late answers come on the host at hand; this one learns it. A
 * sleep that work ends soon after it began ({@link #QUICK_NANOS}) says the window was a little too short: it doubles,
 * up to {@code base * }{@link #GROWTH}. A sleep that outlasts that says the link went quiet: the window halves back
 * towards {@code base}, so an idle thread does not keep spinning for nothing, and the work that ends a quiet spell
 * (news, not a late answer) does not grow it. Once one end looks long enough to catch the other's late answer, it
 * answers at once, the other end's next answer comes soon, and the pair is back to no sleeps.
 *
 * <p>A thread that says it waits for its peer's answer to what it sent ({@link #awaiting}: a ping-pong's ends) is
 * judged by wider bounds: a sleep counts as ended by a late answer up to {@link #AWAITING_QUICK_NANOS}, and the window
 * grows to {@link #AWAITING_GROWTH} times its base. In the two-host lab on a 2-core virtual machine, ping-pong ends
 * at times fell into round trips of 0.3-1.1 ms for tens of round trips, after a quiet spell or a preemption: answers
 * that late shrank the narrow window instead of growing it, and its cap was shorter than they were. The wide bounds
 * took `write_lat`'s 99th percentile in alternating runs from 105-551 us to 11-50 us in eight rows of nine (one 248).
 * Given to every thread, a stream's receiver among them, they came with a warm 1 MiB stream's median at 17.9 Gb/s in
 * ten runs against 25.1 (docs/benchmarks.md, "Turns"), so a thread that does not say it waits keeps the narrow ones.
 *
 * <p>One thread's; times come from the caller's clock.
 */
final class SpinWindow {
    /** A sleep that work ends within this long of its start means the window was too short. */
    static final long QUICK_NANOS = 500_000;
    /** The window grows to at most this many times its base. */
    static final int GROWTH = 8;
    /**
     * While the thread waits for its peer's answer to what it sent, a sleep that work ends within this long means the
     * window was too short: the answer is due within a round trip, so a late one is a late wake-up, not news.
     */
    static final long AWAITING_QUICK_NANOS = 2_000_000;
    /** While awaiting an answer, the window grows to at most this many times its base. */
    static final int AWAITING_GROWTH = 64;

    private final int base;
    private final int cap;
    private final int awaitingCap;
    private int spins;
    /** The thread waits for its peer's answer to what it sent (see {@link #awaiting}). */
    private boolean awaiting;
    /** {@link #awaiting} when the current run of sleeps began: the bounds that run is judged by. */
    private boolean sleptAwaiting;
    /** When the current run of sleeps began, or -1 while the thread has not slept since its last work. */
    private long sleptAt = -1;
    /** The current run of sleeps was found quiet: the work that ends it is news, not a late answer. */
    private boolean quiet;

    /** @param base the window a thread starts with and falls back to; 0 never spins and never adapts */
    SpinWindow(int base) {
        if (base < 0) {
            throw new IllegalArgumentException("a spin window cannot be negative: " + base);
        }
        this.base = base;
        this.cap = (int) Math.min(Integer.MAX_VALUE, (long) base * GROWTH);
        this.awaitingCap = (int) Math.min(Integer.MAX_VALUE, (long) base * AWAITING_GROWTH);
        this.spins = base;
    }

    /** Idle passes to spin before sleeping, now. */
    int spins() {
        return spins;
    }

    /** The thread is about to sleep on its rails at {@code now}: a sleep that began long ago without work shrinks. */
    void sleeping(long now) {
        if (sleptAt < 0) {
            sleptAt = now;
            sleptAwaiting = awaiting;
        } else if (now - sleptAt > quick()) {
            // Still nothing since the first sleep of this run: the link is quiet, not late.
            shrink();
            sleptAt = now;
            quiet = true;
        }
    }

    /** Whether the thread slept since its last work: only then does {@link #worked} need the time. */
    boolean sleptSinceWork() {
        return sleptAt >= 0;
    }

    /** Work came at {@code now}: after a sleep that began within {@link #QUICK_NANOS}, the window grows. */
    void worked(long now) {
        if (sleptAt < 0) {
            return;
        }
        if (quiet) {
            quiet = false; // already shrunk for this run of sleeps
        } else if (now - sleptAt <= quick()) {
            spins = (int) Math.min(sleptAwaiting ? awaitingCap : cap, 2L * spins);
        } else {
            shrink();
        }
        sleptAt = -1;
    }

    /** Whether the thread waits for its peer's answer to what it sent; set before each idle step. */
    void awaiting(boolean awaiting) {
        this.awaiting = awaiting;
    }

    private long quick() {
        return sleptAwaiting ? AWAITING_QUICK_NANOS : QUICK_NANOS;
    }

    private void shrink() {
        spins = Math.max(base, spins / 2);
    }
}
