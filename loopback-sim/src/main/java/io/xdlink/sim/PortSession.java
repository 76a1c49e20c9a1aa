package io.xdlink.sim;

/**
 * The XDomain discovery one host runs on one port while a cable's link is up: the real state machine, over the
 * port's ring 0 and lane adapter. It reports what it found through {@link SimHost#enumerated} and
 * {@link SimHost#lost}; stopping it (unplug, crash) ends it without a word to the peer, as a pulled cable does.
 */
interface PortSession {
    /** Stops the state machine and its timers; runs on the fabric's scheduler. */
    void stop();

    /** True once discovery reached ENUMERATED or gave up in ERROR. */
    boolean finished();
}
