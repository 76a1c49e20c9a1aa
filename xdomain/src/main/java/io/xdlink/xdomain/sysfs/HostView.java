package io.xdlink.xdomain.sysfs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.ArrayList;

/**
 * One snapshot of a host's USB4 bus.
 *
 * @param root       the root the view was read under ({@code /} on a live host)
 * @param busPresent whether {@code /sys/bus/thunderbolt} exists at all: without it the host has no USB4 or
 *                   Thunderbolt support loaded, which is not the same as "no peer plugged in"
 * @param domains    the domains, by index
 * @param peers      the XDomain peers, by name
 * @param routers    how many routers (the host's own and devices such as docks) were recognised and skipped
 * @param skipped    other entries recognised and skipped (retimers, unknown device types)
 * @param problems   every file that could not be read or parsed
 */
public record HostView(String root, boolean busPresent, List<SysfsDomain> domains, List<SysfsPeer> peers, int routers,
                       int skipped, List<SysfsProblem> problems) {
    public HostView {
        domains = List.copyOf(domains);
        peers = List.copyOf(peers);
        problems = List.copyOf(problems);
    }

    /**
     * Peers grouped by remote host: every link to one host (one per cable) under its UUID, in name order. Rails on
     * different links to one host add up.
     */
    public Map<UUID, List<SysfsPeer>> linksByHost() {
        Map<UUID, List<SysfsPeer>> m = new LinkedHashMap<>();
        for (SysfsPeer p : peers) {
            m.computeIfAbsent(p.uniqueId(), k -> new ArrayList<>()).add(p);
        }
        m.replaceAll((k, v) -> List.copyOf(v));
        return m;
    }

    /** The domain with this index. */
    public Optional<SysfsDomain> domain(int index) {
        return domains.stream().filter(d -> d.index() == index).findFirst();
    }

    /** This host's UUID: the host router UUID of the lowest domain that has one. */
    public Optional<UUID> localUuid() {
        return domains.stream().flatMap(d -> d.hostUuid().stream()).findFirst();
    }
}
