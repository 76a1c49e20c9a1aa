package io.xdlink.xdomain.sysfs;

import io.xdlink.xdomain.LinkState;

/** How a link reads to a user: {@code Gen 3, 1 x 20 Gb/s each way = 20 Gb/s, single lane}. */
public final class LinkStateText {
    private LinkStateText() {
    }

    /** Rate per direction as lanes x speed, with the generation and whether the link is bonded. */
    public static String describe(LinkState link) {
        String gen = link.generation().map(g -> g.label() + ", ").orElse("");
        String lanes;
        if (link.txLanes() == link.rxLanes() && link.txLaneMbps() == link.rxLaneMbps()) {
            lanes = link.txLanes() + " x " + gbps(link.txLaneMbps()) + " each way = " + gbps(link.txMbps());
        } else {
            lanes = "tx " + link.txLanes() + " x " + gbps(link.txLaneMbps()) + " = " + gbps(link.txMbps()) + ", rx "
                    + link.rxLanes() + " x " + gbps(link.rxLaneMbps()) + " = " + gbps(link.rxMbps());
        }
        String shape = link.bonded() ? "bonded" : link.txLanes() == 1 && link.rxLanes() == 1 ? "single lane"
                : "asymmetric";
        return gen + lanes + ", " + shape;
    }

    /** {@code 20 Gb/s}, or {@code 2.5 Gb/s} for a rate that is not whole. */
    public static String gbps(long mbps) {
        return (mbps % 1000 == 0 ? Long.toString(mbps / 1000) : String.valueOf(mbps / 1000.0)) + " Gb/s";
    }
}
