package io.xdlink.rails;

import java.util.List;
import java.util.UUID;

/**
 * A peer and the links to it.
 *
 * @param domain the peer's domain UUID
 * @param name   the peer's device name (a Linux peer publishes its hostname)
 * @param links  every link to this peer; rails on different links add up
 */
public record PeerInfo(UUID domain, String name, List<LinkInfo> links) {
    public PeerInfo {
        links = List.copyOf(links);
    }

    /** The rate of all links together in Mb/s, the slower direction of each link counted once. */
    public long rateMbps() {
        return links.stream().mapToLong(l -> l.state().rateMbps()).sum();
    }
}
