package io.xdlink.xdomain;

import java.util.Optional;

/**
 * USB4 link generation and its per-lane speed (spec xdomain.md section 6), with the code the lane adapter reports
 * in LANE_ADP_CS_1 bits 19:16.
 */
public enum Generation {
    GEN2(10_000, 0x8),
    GEN3(20_000, 0x4),
    GEN4(40_000, 0x2);

    private final int laneMbps;
    private final int speedCode;

    Generation(int laneMbps, int speedCode) {
        this.laneMbps = laneMbps;
        this.speedCode = speedCode;
    }

    /** Speed of one lane in one direction, Mb/s (1 Mb = 10^6 bits). */
    public int laneMbps() {
        return laneMbps;
    }

    /** LANE_ADP_CS_1 current-speed code. */
    public int speedCode() {
        return speedCode;
    }

    /** Short label as users write it: {@code Gen 3}. */
    public String label() {
        return "Gen " + (ordinal() + 2);
    }

    /** The generation a per-lane speed belongs to, if it is one of the three USB4 speeds. */
    public static Optional<Generation> ofLaneMbps(long laneMbps) {
        for (Generation g : values()) {
            if (g.laneMbps == laneMbps) {
                return Optional.of(g);
            }
        }
        return Optional.empty();
    }

    /** The generation of a LANE_ADP_CS_1 speed code. */
    public static Optional<Generation> ofSpeedCode(int code) {
        for (Generation g : values()) {
            if (g.speedCode == code) {
                return Optional.of(g);
            }
        }
        return Optional.empty();
    }
}
