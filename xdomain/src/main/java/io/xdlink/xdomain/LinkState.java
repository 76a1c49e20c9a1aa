package io.xdlink.xdomain;

import java.util.Optional;

/**
 * What a link negotiated, per direction: lanes and per-lane speed. The rate of one direction is lanes x speed; the
 * rate a collective library should plan with is the slower direction.
 *
 * <p>Every LinkState xdlink reports comes from a negotiation (the XDomain state machine, or the kernel's sysfs
 * {@code tx_speed}/{@code tx_lanes} on a real host), never from a constant: the field's plugin that reported
 * 80 Gb/s on a 20 Gb/s link is the mistake this type exists to prevent.
 *
 * @param txLaneMbps per-lane speed sending, Mb/s
 * @param txLanes    lanes sending (1 single, 2 bonded; 3 only in display modes)
 * @param rxLaneMbps per-lane speed receiving, Mb/s
 * @param rxLanes    lanes receiving
 */
public record LinkState(long txLaneMbps, int txLanes, long rxLaneMbps, int rxLanes) {

    public LinkState {
        if (txLaneMbps <= 0 || rxLaneMbps <= 0) {
            throw new IllegalArgumentException("lane speed must be positive: tx " + txLaneMbps + ", rx " + rxLaneMbps);
        }
        if (txLanes < 1 || txLanes > 3 || rxLanes < 1 || rxLanes > 3) {
            throw new IllegalArgumentException("lanes must be 1..3: tx " + txLanes + ", rx " + rxLanes);
        }
    }

    /** A symmetric link of one generation. */
    public static LinkState of(Generation generation, int lanes) {
        return new LinkState(generation.laneMbps(), lanes, generation.laneMbps(), lanes);
    }

    /** Rate sending, Mb/s. */
    public long txMbps() {
        return txLaneMbps * txLanes;
    }

    /** Rate receiving, Mb/s. */
    public long rxMbps() {
        return rxLaneMbps * rxLanes;
    }

    /** The slower direction, Mb/s: what a collective library's {@code speed} property should say. */
    public long rateMbps() {
        return Math.min(txMbps(), rxMbps());
    }

    /** The slower direction in Gb/s. */
    public double rateGbps() {
        return rateMbps() / 1000.0;
    }

    /** Both directions run two lanes. */
    public boolean bonded() {
        return txLanes >= 2 && rxLanes >= 2;
    }

    /** The generation, when both directions run one of the USB4 lane speeds and the same one. */
    public Optional<Generation> generation() {
        if (txLaneMbps != rxLaneMbps) {
            return Optional.empty();
        }
        return Generation.ofLaneMbps(txLaneMbps);
    }

    /** This link with {@code lanes} lanes each way at the same speeds (bonding or falling back). */
    public LinkState withLanes(int lanes) {
        return new LinkState(txLaneMbps, lanes, rxLaneMbps, lanes);
    }

    /** {@code Gen 3 x2, 40 Gb/s} or, when the directions differ, {@code tx 2 x 20 Gb/s, rx 1 x 20 Gb/s}. */
    public String describe() {
        if (txLaneMbps == rxLaneMbps && txLanes == rxLanes) {
            String gen = generation().map(g -> g.label() + " x" + txLanes).orElse(txLanes + " x " + gbps(txLaneMbps));
            return gen + ", " + gbps(txMbps());
        }
        return "tx " + txLanes + " x " + gbps(txLaneMbps) + ", rx " + rxLanes + " x " + gbps(rxLaneMbps);
    }

    static String gbps(long mbps) {
        return (mbps % 1000 == 0 ? Long.toString(mbps / 1000) : String.valueOf(mbps / 1000.0)) + " Gb/s";
    }
}
