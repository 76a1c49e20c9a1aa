package io.xdlink.rails.host;

import io.xdlink.rails.PeerInfo;
import io.xdlink.xdomain.sysfs.HostView;
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
 * @param localUuid this host's domain UUID, when the tree names one
 * @param links     the usable links, in the kernel's name order
 * @param problems  one line per link left out or file the view could not read
 */
public record HostTopology(Optional<UUID> localUuid, List<HostLink> links, List<String> problems) {
    public HostTopology {
        links = List.copyOf(links);
        problems = List.copyOf(problems);
    }

    /** The topology under a file-system root ({@code /} on a live host). */
    public static HostTopology read(Path root) {
        return of(ThunderboltSysfs.read(root));
    }

    static HostTopology of(HostView view) {
        List<HostLink> links = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        view.problems().forEach(p -> problems.add(p.message()));
        if (!view.busPresent()) {
            problems.add(view.root() + ": no sys/bus/thunderbolt; the thunderbolt driver is not loaded");
        }
        for (SysfsPeer p : view.peers()) {
            Optional<String> ifname = p.services().stream().filter(SysfsService::isNetwork)
                    .flatMap(s -> s.netInterfaces().stream()).findFirst();
            if (p.link().isEmpty()) {
                problems.add(p.name() + ": the kernel does not say what the link negotiated (tx/rx_speed, tx/rx_lanes); no rails over it");
            } else if (ifname.isEmpty()) {
                problems.add(p.name() + ": no thunderbolt-net interface under its network service; no TCP rails over it"
                        + " (is thunderbolt-net loaded and bound?)");
            } else {
                links.add(new HostLink(p.name(), p.route(), p.uniqueId(), p.deviceName(), ifname.get(), p.link().get(),
                        p.hostRouterPciPath()));
            }
        }
        return new HostTopology(view.localUuid(), links, problems);
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
