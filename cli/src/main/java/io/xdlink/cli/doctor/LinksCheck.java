package io.xdlink.cli.doctor;

import io.xdlink.cli.host.TopologyReport;
import io.xdlink.rails.host.HostTopology;
import io.xdlink.xdomain.sysfs.HostView;
import io.xdlink.xdomain.sysfs.LinkDiagnosis;
import io.xdlink.xdomain.sysfs.LinkFinding;
import io.xdlink.xdomain.sysfs.SysfsPeer;
import io.xdlink.xdomain.sysfs.SysfsProblem;
import io.xdlink.xdomain.sysfs.ThunderboltSysfs;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Check 1, peers and links: every XDomain peer with the rate its link negotiated, a link that could bond but runs
 * one lane, thunderbolt-net's binding and interface, xdlink's own service, and a link on another USB4 controller
 * than the one xdlink speaks for the host as. The judgements are
 * {@link LinkDiagnosis}'s, so doctor and topology never disagree.
 */
public final class LinksCheck implements Check {
    @Override
    public String name() {
        return "links";
    }

    @Override
    public List<CheckResult> run(Host host) {
        HostView view = ThunderboltSysfs.read(host.root());
        List<CheckResult> out = new ArrayList<>();
        if (!view.busPresent()) {
            out.add(CheckResult.warn("links", TopologyReport.noHardware(view),
                    "on a host with USB4 ports, load the driver (modprobe thunderbolt); without USB4 hardware,"
                            + " xdlink runs on its loopback simulator (loopback=1)"));
            return out;
        }
        if (view.peers().isEmpty()) {
            out.add(CheckResult.warn("links", "USB4 bus present (" + view.domains().size() + " domain"
                    + (view.domains().size() == 1 ? "" : "s") + "), but no other host is connected",
                    "connect a USB4 or Thunderbolt cable to another host running Linux with thunderbolt loaded;"
                            + " then run xdlink topology"));
        }
        Optional<UUID> identity = HostTopology.identity(view);
        for (SysfsPeer peer : view.peers()) {
            for (LinkFinding f : LinkDiagnosis.diagnose(peer)) {
                String id = "links/" + peer.name() + "/" + f.aspect();
                out.add(f.warning() ? CheckResult.warn(id, f.summary(), f.fix()) : CheckResult.ok(id, f.summary()));
            }
            // The rule the host fabric applies, so doctor warns of exactly the links xdlink leaves out.
            HostTopology.foreignDomain(view, peer, identity).ifPresent(why -> out.add(CheckResult.warn(
                    "links/" + peer.name() + "/domain", peer.name() + ": " + why,
                    "plug this cable into a port of the controller the host's other links use (see xdlink topology"
                            + " for each domain's links), or move those links to this one")));
        }
        for (SysfsProblem p : view.problems()) {
            out.add(CheckResult.warn("links/sysfs", p.message(), "the kernel writes these files itself; a malformed"
                    + " one means a different kernel format or a damaged copy of the tree: compare with"
                    + " xdlink topology"));
        }
        return out;
    }

}
