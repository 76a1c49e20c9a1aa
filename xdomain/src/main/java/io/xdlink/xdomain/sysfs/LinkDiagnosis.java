package io.xdlink.xdomain.sysfs;

import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Judges the links and services the kernel shows, the way a user debugging a slow cluster needs: the rate the link
 * really negotiated, a link that could bond but runs one lane, whether thunderbolt-net bound the peer's network
 * service (and under which interface), and whether the peer publishes xdlink's own service.
 *
 * <p>Why single lane matters: a Gen 3 host-to-host link that fails lane bonding falls back to one 20 Gb/s lane per
 * direction, half of what the cable is sold as, and nothing in the usual tools says so (the field thread spent days
 * on it). Gen 2 and Gen 3 links bond after training; Gen 4 links train bonded, so one lane there is a fault too.
 */
public final class LinkDiagnosis {
    private LinkDiagnosis() {
    }

    /** Findings for one peer: its link first, then its services. */
    public static List<LinkFinding> diagnose(SysfsPeer peer) {
        List<LinkFinding> out = new ArrayList<>();
        out.add(link(peer));
        out.add(network(peer));
        out.add(xdlink(peer));
        return out;
    }

    /** The warning about a link's lanes and speed, if there is one (used by topology's listing too). */
    public static Optional<String> linkWarning(LinkState link) {
        Optional<Generation> gen = link.generation();
        if (link.txLanes() != link.rxLanes()) {
            return Optional.of("asymmetric link (tx " + link.txLanes() + " lanes, rx " + link.rxLanes()
                    + "): USB4 allows asymmetric lanes for displays, not between hosts");
        }
        if (gen.isEmpty()) {
            return Optional.of("per-lane speed tx " + LinkStateText.gbps(link.txLaneMbps()) + ", rx "
                    + LinkStateText.gbps(link.rxLaneMbps()) + " is not a USB4 generation (10, 20 or 40 Gb/s)");
        }
        if (link.txLanes() == 1) {
            long bonded = link.withLanes(2).rateMbps();
            return Optional.of(gen.get().label() + " link running single lane: " + LinkStateText.gbps(link.rateMbps())
                    + " each way instead of " + LinkStateText.gbps(bonded) + " bonded");
        }
        return Optional.empty();
    }

    private static LinkFinding link(SysfsPeer peer) {
        String who = who(peer);
        if (peer.link().isEmpty()) {
            return new LinkFinding(peer.name(), "link", true,
                    who + ": the kernel does not show the negotiated speed and lanes",
                    "read the problems listed for " + peer.name() + "; if the files are missing, run a kernel that"
                            + " exports rx/tx_speed and rx/tx_lanes for XDomain devices");
        }
        LinkState link = peer.link().get();
        String seen = who + ": " + LinkStateText.describe(link);
        Optional<String> warning = linkWarning(link);
        if (warning.isEmpty()) {
            return new LinkFinding(peer.name(), "link", false, seen, "");
        }
        String fix = link.txLanes() == 1
                ? "lane bonding failed or was refused: replug the cable, try a certified 40 Gb/s (or 80 Gb/s) cable"
                        + " and another port, and look for bonding messages in dmesg (boot with"
                        + " thunderbolt.dyndbg=+p); some controllers refuse inter-domain bonding"
                : "replug the cable; report the controller pair if it persists";
        return new LinkFinding(peer.name(), "link", true, seen + "; " + warning.get(), fix);
    }

    private static LinkFinding network(SysfsPeer peer) {
        String who = who(peer);
        Optional<SysfsService> net = peer.services().stream().filter(SysfsService::isNetwork).findFirst();
        if (net.isEmpty()) {
            return new LinkFinding(peer.name(), "network", true,
                    who + ": publishes no network service, so there is no thunderbolt-net IP link to run rails over",
                    "load thunderbolt-net on the peer (modprobe thunderbolt-net)");
        }
        SysfsService s = net.get();
        if (s.driver().isEmpty()) {
            return new LinkFinding(peer.name(), "network", true,
                    who + ": network service " + s.name() + " is bound to no driver",
                    "load thunderbolt-net here (modprobe thunderbolt-net)");
        }
        if (s.netInterfaces().isEmpty()) {
            return new LinkFinding(peer.name(), "network", true, who + ": network service " + s.name()
                    + " is bound to "
                    + s.driver().get() + " but has no network interface", "reload thunderbolt-net, or replug the"
                    + " cable; check dmesg for thunderbolt-net errors");
        }
        return new LinkFinding(peer.name(), "network", false, who + ": network service " + s.name() + " bound to "
                + s.driver().get() + " as " + String.join(", ", s.netInterfaces()), "");
    }

    private static LinkFinding xdlink(SysfsPeer peer) {
        String who = who(peer);
        Optional<SysfsService> x = peer.services().stream().filter(SysfsService::isXdlink).findFirst();
        if (x.isEmpty()) {
            return new LinkFinding(peer.name(), "xdlink", false, who
                    + ": does not publish xdlink's XDomain service (xdlink"
                    + " reaches it over the network service's IP link)", "");
        }
        SysfsService s = x.get();
        return new LinkFinding(peer.name(), "xdlink", false, who + ": publishes xdlink's service " + s.name()
                + " (protocol " + ServiceText.protocol(s) + ")"
                + s.driver().map(d -> ", bound to " + d).orElse(", unbound"), "");
    }

    static String who(SysfsPeer peer) {
        return peer.name() + (peer.deviceName().isEmpty() ? "" : " " + peer.deviceName());
    }
}
