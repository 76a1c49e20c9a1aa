package io.xdlink.it;

import io.xdlink.xdomain.VirtualScheduler;

/**
 * The part of the control-channel conformance suite shared by channels that deliver through a virtual clock: the
 * test thread moves the clock, so "every packet sent so far has been delivered or dropped" is simply an idle clock.
 */
abstract class VirtualClockControlChannels extends ControlChannelConformance {
    /** One-way latency of the channels made here. */
    static final long LATENCY_NANOS = 1_000;
    /** Virtual time a settle may run: far more than any packet in flight needs. */
    private static final long SETTLE_NANOS = 1_000_000_000L;

    protected final VirtualScheduler clock = new VirtualScheduler();

    @Override
    protected void progress() {
        clock.runUntilIdle(SETTLE_NANOS);
    }

    @Override
    protected boolean settle() {
        progress();
        return true;
    }
}
