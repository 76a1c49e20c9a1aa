package io.xdlink.rails.host;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Comparator;
import java.util.List;

/**
 * The address a link's rails and session listener bind to: the IP address of the link's interface and its prefix
 * length, which is how the peer tells which of its own links is the same cable (both ends share a subnet).
 *
 * @param interfaceName the interface the address belongs to ({@code thunderbolt0})
 * @param address       the address
 * @param prefixLength  its network prefix length
 */
public record LocalAddress(String interfaceName, InetAddress address, int prefixLength) {

    /**
     * Resolves an interface name ({@code thunderbolt0}) or an address literal ({@code 10.0.0.1}) to the address to
     * bind. An interface's IPv4 address wins over IPv6, a global IPv6 address over a link-local one (link-local
     * subnets are the same on every cable, so they cannot tell cables apart).
     *
     * @throws IOException naming the interface or address when there is no such interface, it is down, it has no
     *                     address, or no interface has the address
     */
    public static LocalAddress resolve(String interfaceOrAddress) throws IOException {
        String s = interfaceOrAddress.trim();
        InetAddress literal = literal(s);
        if (literal != null) {
            NetworkInterface ni = NetworkInterface.getByInetAddress(literal);
            if (ni == null) {
                throw new IOException("no local interface has address " + s);
            }
            for (InterfaceAddress ia : ni.getInterfaceAddresses()) {
                if (ia.getAddress().equals(literal)) {
                    return new LocalAddress(ni.getName(), literal, ia.getNetworkPrefixLength());
                }
            }
            throw new IOException("interface " + ni.getName() + " does not list address " + s);
        }
        NetworkInterface ni;
        try {
            ni = NetworkInterface.getByName(s);
        } catch (SocketException e) {
            throw new IOException("cannot look up interface " + s + ": " + e.getMessage(), e);
        }
        if (ni == null) {
            throw new IOException("no network interface named " + s
                    + " (is thunderbolt-net loaded and the cable plugged in?)");
        }
        if (!ni.isUp()) {
            throw new IOException("interface " + s + " is down (ip link set " + s + " up)");
        }
        List<InterfaceAddress> all = ni.getInterfaceAddresses();
        return all.stream()
                .min(Comparator.comparingInt(LocalAddress::preference))
                .map(ia -> new LocalAddress(ni.getName(), ia.getAddress(), ia.getNetworkPrefixLength()))
                .orElseThrow(() -> new IOException("interface " + s + " has no IP address (assign one to each end"
                        + " of the cable, e.g. ip addr add 10.0.0.1/30 dev " + s + ")"));
    }

    private static int preference(InterfaceAddress ia) {
        InetAddress a = ia.getAddress();
        if (a instanceof Inet4Address) {
            return 0;
        }
        return a.isLinkLocalAddress() ? 2 : 1;
    }

    /** The address if {@code s} is an IPv4 or IPv6 literal, else null; never asks a name service. */
    static InetAddress literal(String s) {
        try {
            return InetAddress.ofLiteral(s);
        } catch (IllegalArgumentException notALiteral) {
            return null;
        }
    }

    @Override
    public String toString() {
        return interfaceName + " " + address.getHostAddress() + "/" + prefixLength;
    }
}
