package io.xdlink.rails.host;

import io.xdlink.rails.PeerInfo;
import io.xdlink.xdomain.sysfs.HostView;
import io.xdlink.xdomain.sysfs.SysfsDomain;
import io.xdlink.xdomain.sysfs.SysfsPeer;
import io.xdlink.xdomain.sysfs.SysfsService;
import io.xdlink.xdomain.sysfs.ThunderboltSysfs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A real host's peers and the links xdlink can run rails over, read from sysfs. A link needs two things from the
 * kernel: what it negotiated (without it xdlink would have to guess a speed, the mistake the field's plugins made)
 * and a thunderbolt-net interface (the rails' TCP connections leave through it). A link that lacks either is left
 * out and said why in {@link #problems()}.
 *
 * <p>A host with several USB4 controllers has a domain for each, and each domain's host router a UUID of its own: a
 * peer knows this host by the UUID of the domain its cable is on. xdlink speaks for the host with one UUID, that of
 * the lowest domain with a usable link (the lowest domain when there is none), so a peer whose only cable is on a
 * second controller knows it; a link on a domain whose host router has another UUID is left out, saying why, since
 * its peer would refuse this host's sessions over it.
 *
 * @param localUuid the UUID xdlink speaks for this host with, when the tree names one
 * @param links     the usable links, in the kernel's name order
 * @param problems  one line per link left out or file the view could not read
 */
public record HostTopology(Optional<UUID> localUuid, List<HostLink> links, List<String> problems) {
    public HostTopology {
        links = List.copyOf(links);
        problems = List.copyOf(problems);
    }

    /** The topology under a file-system root ({@code /} on a live host), speaking as its lowest linked domain. */
    public static HostTopology read(Path root) {
        return of(ThunderboltSysfs.read(root), null);
    }

    /**
     * The topology under {@code root} for a host that already speaks as {@code identity} (a running fabric, whose
     * peers know it by that UUID): links on a domain with another host UUID are left out.
     */
    public static HostTopology read(Path root, UUID identity) {
        return of(ThunderboltSysfs.read(root), identity);
    }

    private static HostTopology of(HostView view, UUID identity) {
        List<String> problems = new ArrayList<>();
        view.problems().forEach(p -> problems.add(p.message()));
        if (!view.busPresent()) {
            problems.add(view.root() + ": no sys/bus/thunderbolt; the thunderbolt driver is not loaded");
        }
        Optional<UUID> local = identity != null ? Optional.of(identity) : identity(view);
        List<HostLink> links = new ArrayList<>();
        for (SysfsPeer p : view.peers()) {
            if (p.link().isEmpty()) {
                problems.add(p.name() + ": the kernel does not say what the link negotiated (tx/rx_speed, tx/rx_lanes); no rails over it");
            } else if (netInterface(p).isEmpty()) {
                problems.add(p.name() + ": no thunderbolt-net interface under its network service; no TCP rails over it"
                        + " (is thunderbolt-net loaded and bound?)");
            } else {
                Optional<String> foreign = foreignDomain(view, p, local);
                if (foreign.isPresent()) {
                    problems.add(p.name() + ": " + foreign.get() + ", so no rails over it");
                } else {
                    links.add(new HostLink(p.name(), p.route(), p.uniqueId(), p.deviceName(), netInterface(p).get(),
                            p.link().get(), p.hostRouterPciPath()));
                }
            }
        }
        return new HostTopology(local, links, problems);
    }

    /**
     * The UUID xdlink speaks for the host of {@code view} with: its host router's on the lowest domain with a usable
     * link (what it negotiated and a thunderbolt-net interface), else on the lowest domain that names one.
     */
    public static Optional<UUID> identity(HostView view) {
        return view.peers().stream().filter(p -> p.link().isPresent() && netInterface(p).isPresent())
                .flatMap(p -> view.domain(p.domain()).flatMap(SysfsDomain::hostUuid).stream()).findFirst()
                .or(view::localUuid);
    }

    /**
     * Why xdlink, speaking as {@code identity}, cannot use {@code peer}'s link: the link's domain has a host router
     * with another UUID, which is the one the peer knows this host by; empty when it can.
     */
    public static Optional<String> foreignDomain(HostView view, SysfsPeer peer, Optional<UUID> identity) {
        Optional<UUID> known = view.domain(peer.domain()).flatMap(SysfsDomain::hostUuid);
        if (identity.isEmpty() || known.isEmpty() || known.equals(identity)) {
            return Optional.empty();
        }
        return Optional.of("on domain" + peer.domain() + ", where the peer knows this host as " + known.get()
                + ", while xdlink speaks for it as " + identity.get() + " (the host router of another domain); the"
                + " peer would refuse it over this link (cable the hosts' links to one USB4 controller on each host)");
    }

    private static Optional<String> netInterface(SysfsPeer p) {
        return p.services().stream().filter(SysfsService::isNetwork).flatMap(s -> s.netInterfaces().stream())
                .findFirst();
    }

    /** The peers, each with its usable links. */
    public List<PeerInfo> peers() {
        Map<UUID, List<HostLink>> byPeer = new LinkedHashMap<>();
        for (HostLink l : links) {
            byPeer.computeIfAbsent(l.peer(), k -> new ArrayList<>()).add(l);
        }
        List<PeerInfo> out = new ArrayList<>();
        byPeer.forEach((uuid, ls) -> out.add(new PeerInfo(uuid, ls.getFirst().peerName(),
                ls.stream().map(HostLink::info).toList())));
        return out;
    }

    /** The links to one peer. */
    public List<HostLink> linksTo(UUID peer) {
        return links.stream().filter(l -> l.peer().equals(peer)).toList();
    }

    /** One link by its id. */
    public Optional<HostLink> link(String id) {
        return links.stream().filter(l -> l.id().equals(id)).findFirst();
    }
}
