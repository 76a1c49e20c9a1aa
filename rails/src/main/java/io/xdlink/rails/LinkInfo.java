package io.xdlink.rails;

import io.xdlink.xdomain.LinkState;

/**
 * One link (one cable) to a peer.
 *
 * @param id        stable identifier of the cable ({@code 0-1} on a real host, the XDomain device)
 * @param localPort the local port or interface it leaves from ({@code thunderbolt0}, {@code port1})
 * @param state     what the link negotiated
 */
public record LinkInfo(String id, String localPort, LinkState state) {
}
