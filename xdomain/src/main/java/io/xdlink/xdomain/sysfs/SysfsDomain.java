package io.xdlink.xdomain.sysfs;

import java.util.Optional;
import java.util.UUID;

/**
 * A domain: one USB4 host interface (NHI) and the routers behind it ({@code domain0}).
 *
 * @param name       {@code domain<N>}
 * @param index      N
 * @param hostUuid   this host's UUID in that domain, the host router's ({@code <N>-0}) {@code unique_id}: what a
 *                   peer sees as our domain UUID
 * @param nhiPciPath the PCI device directory the domain hangs off, as the host names it
 */
public record SysfsDomain(String name, int index, Optional<UUID> hostUuid, Optional<String> nhiPciPath) {
}
