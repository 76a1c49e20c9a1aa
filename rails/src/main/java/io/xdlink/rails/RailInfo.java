package io.xdlink.rails;

import io.xdlink.xdomain.LinkState;

/**
 * What a rail runs over.
 *
 * @param name   a name for logs and banners ({@code thunderbolt0}, {@code sim:cable1/rail0})
 * @param linkId the cable: rails with the same linkId share that link's bandwidth, rails on different links add up
 * @param link   what the link negotiated
 * @param lossy  true when frames can be lost (no end-to-end flow control), so the protocol must recover them
 */
public record RailInfo(String name, String linkId, LinkState link, boolean lossy) {
}
