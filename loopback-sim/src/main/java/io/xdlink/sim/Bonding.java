package io.xdlink.sim;

/**
 * Whether the controllers at the two ends of a cable bond its lanes for a host-to-host link. USB4 lets a controller
 * that must bond for devices refuse it between hosts; AMD controllers were seen doing so. The refusing side still
 * advertises dual-lane support and accepts the request, then never bonds, so the other host waits out its bonding
 * timeout and both fall back to one lane (a Gen 3 link then runs 20 Gb/s per direction instead of 40).
 */
public enum Bonding {
    /** Both controllers bond. */
    BONDS,
    /** The controller at the cable's A end never completes bonding. */
    REFUSED_BY_A,
    /** The controller at the cable's B end never completes bonding. */
    REFUSED_BY_B;

    /** True when the link can come up bonded. */
    public boolean bonds() {
        return this == BONDS;
    }
}
