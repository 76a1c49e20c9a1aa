package io.xdlink.it.lab;

import io.xdlink.xdomain.sysfs.SysfsFixture;

import java.nio.file.Path;
import java.util.UUID;

/**
 * The fake {@code /sys/bus/thunderbolt} of one lab host: domain 0 with one XDomain peer per cable (routes 1, 3, 5,
 * ... as a host router's ports give them), all the same peer, each running thunderbolt-net bound to
 * {@code thunderbolt<k>}, each link a single Gen 2 lane (10 Gb/s), so the host fabric maps cable k to that interface
 * and reports what the tree negotiated. The cable's real rate is the shaper's, lower, as the field's links deliver
 * less than they negotiate.
 */
final class LabHost {
    static final UUID HOST_A = UUID.fromString("1a2b3c4d-0000-4000-8000-00000000000a");
    static final UUID HOST_B = UUID.fromString("1a2b3c4d-0000-4000-8000-00000000000b");

    private LabHost() {
    }

    /** Per-lane speed of every lab link: Gen 2. */
    static final int LANE_GBPS = 10;

    /** Writes host a's (or b's) tree under {@code root}. */
    static Path write(Path root, boolean hostA, int cables) {
        UUID self = hostA ? HOST_A : HOST_B;
        UUID peer = hostA ? HOST_B : HOST_A;
        SysfsFixture f = SysfsFixture.create(root).domain(0, "0000:00:0d.2", self);
        for (int k = 0; k < cables; k++) {
            f.peer(0, Integer.toString(2 * k + 1), peer)
                    .names(0x8086, "Intel Corp.", 0x1, hostA ? "lab-b" : "lab-a")
                    .link(LANE_GBPS, 1)
                    .network(NetnsLab.interfaceName(k))
                    .done();
        }
        return root;
    }
}
