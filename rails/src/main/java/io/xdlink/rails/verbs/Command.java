package io.xdlink.rails.verbs;

/**
 * Work an API call hands to the device's progress engine. A command links itself into the engine's queue, so
 * handing work over allocates nothing beyond the command (a send request is its own command).
 */
abstract class Command {
    volatile Command next;

    /** Runs on the engine's thread. */
    abstract void run(DeviceEngine engine);

    /**
     * The device closed before the command ran: a posted request completes with
     * {@link CompletionStatus#WR_FLUSH_ERROR} on its queue pair's completion queue; other work is dropped.
     */
    void flush() {
    }
}
