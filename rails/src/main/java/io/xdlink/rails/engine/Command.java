package io.xdlink.rails.engine;

import io.xdlink.rails.verbs.CompletionStatus;

/**
 * Work an API call hands to the device's progress engine. A command links itself into the engine's queue, so
 * handing work over allocates nothing beyond the command (a send request is its own command).
 */
public abstract class Command {
    volatile Command next;

    /** Runs on the engine's thread. */
    protected abstract void run(DeviceEngine engine);

    /**
     * The device closed before the command ran: a posted request completes with
     * {@link CompletionStatus#WR_FLUSH_ERROR} on its queue pair's completion queue; other work is dropped.
     */
    protected void flush() {
    }
}
