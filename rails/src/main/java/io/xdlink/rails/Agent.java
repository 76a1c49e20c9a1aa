package io.xdlink.rails;

/**
 * A unit of work with one duty cycle, like a progress engine: called again and again by one thread, it does what is
 * ready and returns at once. A runner idles when a cycle did nothing, so a busy agent spins and an idle one sleeps.
 * Virtual-time tests step agents by hand between advances of the clock.
 */
public interface Agent {

    /** Does what is ready without blocking; returns how much work was done (0 when idle). */
    int doWork();

    /** Name for threads and logs. */
    String roleName();

    /** Called once on the agent's thread after its last duty cycle. */
    default void onClose() {
    }
}
