package io.xdlink.rails;

/** What a runner does after a duty cycle: nothing when there was work, back off when there was none. */
public interface IdleStrategy {

    /** Called after each duty cycle with the work it did. */
    void idle(int workCount);

    /**
     * As {@link #idle(int)}, but never waits longer than {@code limitNanos}: the runner passes how far away the
     * agent's next timer is, so a delayed acknowledgement or a retransmission is not held up by a long park. A
     * limit of zero or less means the timer is due: do not wait at all. Strategies that only spin may ignore it.
     */
    default void idle(int workCount, long limitNanos) {
        idle(workCount);
    }

    /**
     * Whether the next {@code idle(0, limitNanos)} may block the thread (park, or sleep on its rails) rather than
     * spin or yield once and return to a duty cycle, which finds whatever was handed over meanwhile. A runner says
     * it idles, so that a waker unparks it, only before such a step: while it only spins, work handed over from
     * another thread costs that thread a flag, not an unpark for every frame it publishes. True unless a strategy
     * knows better.
     */
    default boolean blocksNext(long limitNanos) {
        return true;
    }

    /**
     * Before an idle step: whether the thread waits for its peer's answer to what it sent (a ping-pong's ping), so a
     * strategy that learns how late answers come can tell a late answer from news. Ignored by default.
     */
    default void awaiting(boolean awaiting) {
    }

    /**
     * The thread is about to pause for reasons of its own (another thread runs its agent meanwhile) rather than idle
     * through this strategy: a strategy that sleeps on the rails lets go of them, so what arrives meanwhile wakes no
     * one. Called on the thread that idles, while it holds its agent (the rails are then its own); the next duty
     * cycle it runs takes them back. Does nothing by default.
     */
    default void stepAside() {
    }

    /** Called when the runner starts again after a pause. */
    default void reset() {
    }
}
