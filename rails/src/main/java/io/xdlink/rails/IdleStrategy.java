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

    /** Called when the runner starts again after a pause. */
    default void reset() {
    }
}
