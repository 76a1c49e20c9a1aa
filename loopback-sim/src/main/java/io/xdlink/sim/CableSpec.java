package io.xdlink.sim;

import io.xdlink.xdomain.Generation;

import java.util.Objects;

/**
 * A cable and the controllers it joins, as far as the link is concerned.
 *
 * <p>What the link negotiates (generation, one or two lanes) comes out of the XDomain state machines on the two
 * hosts; this says only what the hardware allows. The caps say what a direction really carries when a controller is
 * slower than its link: the field saw a dual-lane Gen 3 link carry 22.7 Gb/s one way and 11.7 the other. Frames are
 * 4096 bytes, as on every USB4 DMA ring.
 *
 * @param generation   the speed the lanes train at (Gen 2 10, Gen 3 20, Gen 4 40 Gb/s per lane)
 * @param lanes        lanes the cable and both controllers support: 1, or 2 to allow bonding
 * @param bonding      whether the controllers bond
 * @param capAtoBMbps  the most the A to B direction carries, Mb/s; 0 for the negotiated rate
 * @param capBtoAMbps  the most the B to A direction carries, Mb/s; 0 for the negotiated rate
 * @param latencyNanos one-way latency of a frame or control packet
 */
public record CableSpec(Generation generation, int lanes, Bonding bonding, long capAtoBMbps, long capBtoAMbps,
                        long latencyNanos) {

    /** Default one-way latency: a microsecond, the order of a USB4 DMA hop. */
    public static final long DEFAULT_LATENCY_NANOS = 1_000;

    public CableSpec {
        Objects.requireNonNull(generation, "generation");
        Objects.requireNonNull(bonding, "bonding");
        if (lanes != 1 && lanes != 2) {
            throw new IllegalArgumentException("a USB4 cable has 1 or 2 lanes, not " + lanes);
        }
        if (capAtoBMbps < 0 || capBtoAMbps < 0) {
            throw new IllegalArgumentException("rate caps must not be negative: " + capAtoBMbps + ", " + capBtoAMbps);
        }
        if (latencyNanos < 0) {
            throw new IllegalArgumentException("latency must not be negative: " + latencyNanos + " ns");
        }
    }

    /** A dual-lane cable of {@code generation} between controllers that bond. */
    public static CableSpec of(Generation generation) {
        return new CableSpec(generation, 2, Bonding.BONDS, 0, 0, DEFAULT_LATENCY_NANOS);
    }

    public CableSpec withLanes(int n) {
        return new CableSpec(generation, n, bonding, capAtoBMbps, capBtoAMbps, latencyNanos);
    }

    public CableSpec withBonding(Bonding b) {
        return new CableSpec(generation, lanes, b, capAtoBMbps, capBtoAMbps, latencyNanos);
    }

    /** Caps on what each direction carries, Mb/s (0: none). */
    public CableSpec withCaps(long aToBMbps, long bToAMbps) {
        return new CableSpec(generation, lanes, bonding, aToBMbps, bToAMbps, latencyNanos);
    }

    public CableSpec withLatency(long nanos) {
        return new CableSpec(generation, lanes, bonding, capAtoBMbps, capBtoAMbps, nanos);
    }

    /** The rate a direction runs at, given what the link negotiated in that direction. */
    long paceMbps(long negotiatedMbps, boolean aToB) {
        long cap = aToB ? capAtoBMbps : capBtoAMbps;
        return cap == 0 ? negotiatedMbps : Math.min(cap, negotiatedMbps);
    }
}
