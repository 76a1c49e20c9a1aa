package io.xdlink.rails.tcp;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Where a host takes rails for one of its links: the rail listener on that link's interface. A host publishes one
 * per link in xdlink's service directory; the peer finds the entry for the same cable by the subnet both ends of
 * the cable share.
 *
 * @param linkId       the publishing host's name for the link ({@code 0-1})
 * @param address      the link interface's address the listener is bound to
 * @param port         the listener's port
 * @param prefixLength the interface address's network prefix length (24 for a /24)
 */
public record TcpLinkEndpoint(String linkId, InetAddress address, int port, int prefixLength) {
    public TcpLinkEndpoint {
        if (linkId == null || linkId.isEmpty() || linkId.length() > TcpRailDirectory.MAX_LINK_ID) {
            throw new IllegalArgumentException("link id must be 1.." + TcpRailDirectory.MAX_LINK_ID + " characters: " + linkId);
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is outside 1..65535");
        }
        int bits = address.getAddress().length * 8;
        if (prefixLength < 0 || prefixLength > bits) {
            throw new IllegalArgumentException("prefix /" + prefixLength + " is outside 0.." + bits + " for " + address);
        }
    }

    public InetSocketAddress socketAddress() {
        return new InetSocketAddress(address, port);
    }

    /** True when {@code other} lies in this endpoint's subnet (same address family, same first prefix bits). */
    public boolean sameSubnet(InetAddress other) {
        return Subnets.contains(address, prefixLength, other);
    }
}
