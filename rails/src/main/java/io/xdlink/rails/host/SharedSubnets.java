package io.xdlink.rails.host;

import io.xdlink.rails.LinkInfo;
import io.xdlink.rails.tcp.InterfaceBinding;
import io.xdlink.rails.tcp.Subnets;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds cables whose interfaces hold addresses in one subnet, as IPv4 link-local addressing gives (169.254.0.0/16 on
 * every thunderbolt-net interface). The kernel routes by destination alone, so it sends everything for that subnet out
 * of one interface: every rail rides one cable while the banner lists a rail on each (in the two-host lab, an 8 MiB
 * {@code write_bw} over two link-local cables sent 13.5 GB out of one and 4.7 KB out of the other). IPv6 link-local
 * addresses are left out: xdlink dials them with the link's interface as scope, which picks the cable. Rails are tied
 * to their link's interface ({@link InterfaceBinding}), which sends each out of its own cable whatever the routes;
 * only where this process cannot tie sockets do {@code xdlink bench} and the plugin say this when they start
 * ({@link #warnUntied}).
 */
public final class SharedSubnets {
    /** An address of the interface a cable's link leaves from. */
    public record Address(String link, String netInterface, InetAddress address, int prefix) {
    }

    private SharedSubnets() {
    }

    /** The addresses of the interfaces {@code links} leave from, on this host; a link on no interface is left out. */
    public static List<Address> of(List<LinkInfo> links) {
        List<Address> all = new ArrayList<>();
        for (LinkInfo l : links) {
            try {
                NetworkInterface ni = NetworkInterface.getByName(l.localPort());
                if (ni == null) {
                    continue; // a simulated port, or an interface that is gone
                }
                for (InterfaceAddress a : ni.getInterfaceAddresses()) {
                    all.add(new Address(l.id(), ni.getName(), a.getAddress(), a.getNetworkPrefixLength()));
                }
            } catch (SocketException | IllegalArgumentException e) {
                // Nothing to say about a link whose interface cannot be read.
            }
        }
        return all;
    }

    /**
     * The {@link #warnings} for {@code links}, or none when this process ties rails to their interfaces, which
     * keeps each cable's rails on it whatever subnet its interface shares.
     */
    public static List<String> warnUntied(List<LinkInfo> links) {
        // The probe (a socket and a walk of this process's descriptors) only where there is something to say.
        List<String> warnings = warnings(of(links));
        return warnings.isEmpty() || InterfaceBinding.works() ? List.of() : warnings;
    }

    /**
     * One warning for each group of cables on different interfaces whose addresses share a subnet (either address
     * within the other's prefix), naming the cables, their interfaces and the subnet, and what to do.
     */
    public static List<String> warnings(List<Address> addresses) {
        List<Address> usable = addresses.stream()
                .filter(a -> !(a.address() instanceof Inet6Address v6 && v6.isLinkLocalAddress()))
                .filter(a -> !a.address().isLoopbackAddress())
                .toList();
        List<String> out = new ArrayList<>();
        Set<Address> reported = new LinkedHashSet<>();
        for (int i = 0; i < usable.size(); i++) {
            Address first = usable.get(i);
            if (reported.contains(first)) {
                continue;
            }
            Set<Address> group = new LinkedHashSet<>();
            group.add(first);
            for (int j = i + 1; j < usable.size(); j++) {
                Address other = usable.get(j);
                if (!other.netInterface().equals(first.netInterface()) && overlap(first, other)
                        && group.stream().noneMatch(g -> g.netInterface().equals(other.netInterface()))) {
                    group.add(other);
                }
            }
            if (group.size() < 2) {
                continue;
            }
            reported.addAll(group);
            int prefix = group.stream().mapToInt(Address::prefix).min().orElseThrow();
            List<String> cables = group.stream().map(a -> a.link() + " (" + a.netInterface() + ")").toList();
            out.add("cables " + String.join(", ", cables) + " have addresses in one subnet, "
                    + Subnets.network(first.address(), prefix).getHostAddress() + "/" + prefix
                    + ": the kernel sends that subnet's traffic out of one interface and this process cannot tie rails to"
                    + " their interfaces (SO_BINDTODEVICE), so their rails share one cable;"
                    + " give each cable a subnet of its own, use IPv6 link-local addresses, or add a routing rule per"
                    + " cable (docs/hosts.md, \"Two real hosts\")");
        }
        return out;
    }

    /** Both addresses lie within the shorter of the two prefixes. */
    private static boolean overlap(Address a, Address b) {
        int prefix = Math.min(a.prefix(), b.prefix());
        return Subnets.contains(a.address(), prefix, b.address());
    }
}
