package io.xdlink.ccl;

/**
 * What one {@link CclNet#init} returns: a communicator's view of the plugin, ended by {@link CclNet#finalize}.
 * Hosts of ABI v11 and v12 init once per communicator; older ones once per process.
 */
public interface CclContext {

    /** The communicator this context belongs to (0 for the per-process context of older ABIs). */
    long commId();

    /** The traffic class asked for, or -1 when undefined. */
    int trafficClass();
}
