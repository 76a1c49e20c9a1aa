package io.xdlink.rails;

/** What a runner does after a duty cycle: nothing when there was work, back off when there was none. */
public interface IdleStrategy {

    /** Called after each duty cycle with the work it did. */
    void idle(int workCount);

    /** Called when the runner starts again after a pause. */
    default void reset() {
    }
}
