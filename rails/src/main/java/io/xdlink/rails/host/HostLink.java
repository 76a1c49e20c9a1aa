package io.xdlink.rails.host;

import io.xdlink.rails.LinkInfo;
import io.xdlink.xdomain.LinkState;

import java.util.Optional;
import java.util.UUID;

/**
 * One cable of a real host as sysfs shows it, with what xdlink needs to run rails over it.
 *
 * @param id                the XDomain device ({@code 0-1}): the link's name on this host
 * @param route             the route string to the peer (the part of the name after the dash)
 * @param peer              the remote host's domain UUID
 * @param peerName          the remote host's device name (a Linux peer publishes its hostname)
 * @param netInterface      the thunderbolt-net interface of the link ({@code thunderbolt0}), from the network
 *                          service's {@code net/<ifname>}
 * @param state             what the link negotiated, from {@code tx/rx_speed} and {@code tx/rx_lanes}
 * @param hostRouterPciPath the host interface the link hangs off, when the tree says
 */
public record HostLink(String id, long route, UUID peer, String peerName, String netInterface, LinkState state,
                       Optional<String> hostRouterPciPath) {

    public LinkInfo info() {
        return new LinkInfo(id, netInterface, state);
    }
}
