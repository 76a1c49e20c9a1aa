package io.xdlink.sim;

import io.xdlink.xdomain.LinkState;

import java.util.UUID;

/**
 * What one port's XDomain discovery learned when it reached ENUMERATED.
 *
 * @param domain the peer's domain UUID
 * @param name   the peer's hostname (its {@code deviceid} text)
 * @param link   what the link negotiated, as this host sees it
 * @param xdlink whether the peer publishes the {@code xdlink} service (only then can rails run to it)
 */
record PeerRecord(UUID domain, String name, LinkState link, boolean xdlink) {
}
