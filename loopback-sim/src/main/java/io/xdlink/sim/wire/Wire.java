package io.xdlink.sim.wire;

import io.xdlink.sim.SimClock;

/**
 * One direction of a plugged cable: the rate it runs at and the time a frame takes to cross. Every rail over the
 * cable sends through the same wire, so they share its {@link TokenBucket}. A cable builds new wires each time it
 * is plugged in, from what that plug-in negotiated.
 */
public final class Wire {
    /**
     * Idle time a wire may save up in real time: a few frames, enough to absorb scheduling jitter. In virtual time
     * nothing is ever descheduled, so a wire saves up nothing: an idle wire would otherwise carry its next 64 KiB in
     * no time, and a small message would cross faster than the cable allows.
     */
    static final int BURST_BYTES = 16 * 4096;

    private final String name;
    private final SimClock clock;
    private final long rateMbps;
    private final long latencyNanos;
    private final TokenBucket bucket;

    /**
     * @param name         for logs and fault streams ({@code cable1:a->b})
     * @param clock        the fabric's clock; when it does not pace, the wire has no rate and no latency
     * @param rateMbps     the rate of this direction, Mb/s
     * @param latencyNanos propagation latency
     */
    public Wire(String name, SimClock clock, long rateMbps, long latencyNanos) {
        if (latencyNanos < 0) {
            throw new IllegalArgumentException("latency must not be negative: " + latencyNanos + " ns");
        }
        this.name = name;
        this.clock = clock;
        this.rateMbps = rateMbps;
        this.latencyNanos = latencyNanos;
        this.bucket = clock.paced() ? new TokenBucket(rateMbps,
                clock.isVirtual() ? 0 : BURST_BYTES, clock.now()) : null;
    }

    public String name() {
        return name;
    }

    public SimClock clock() {
        return clock;
    }

    /** The rate this direction is paced at, Mb/s. */
    public long rateMbps() {
        return rateMbps;
    }

    public long latencyNanos() {
        return clock.paced() ? latencyNanos : 0;
    }

    /** The shared bucket, or null when the clock does not pace. */
    TokenBucket bucket() {
        return bucket;
    }

    @Override
    public String toString() {
        return name + " (" + rateMbps + " Mb/s, " + latencyNanos + " ns)";
    }
}
