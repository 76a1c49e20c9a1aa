package io.xdlink.xdomain.sysfs;

import io.xdlink.xdomain.LinkState;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;

/**
 * A peer as the kernel shows it: one XDomain device ({@code 0-1}, DEVTYPE {@code thunderbolt_xdomain}), which is one
 * link to a remote host. Two cables to the same host give two of these with the same {@code uniqueId}.
 *
 * @param name              the device name, {@code <domain>-<route hex>}
 * @param domain            the domain number before the dash
 * @param route             the route string after the dash
 * @param uniqueId          the remote host's domain UUID
 * @param vendorId          {@code vendor}, empty where unreadable
 * @param vendorName        {@code vendor_name}, printable; empty text where unreadable
 * @param deviceId          {@code device}, empty where unreadable
 * @param deviceName        {@code device_name} (a Linux peer publishes its hostname), printable
 * @param maxHopId          the highest HopID the peer accepts, empty where unreadable
 * @param link              what the link negotiated, from {@code rx/tx_speed} and {@code rx/tx_lanes}; empty when
 *                          any of the four is missing or malformed
 * @param services          the services it published, by id
 * @param hostRouterPciPath the PCI device directory of the host interface (NHI) this link hangs off, as the host
 *                          names it ({@code /sys/devices/pci0000:00/0000:00:0d.2}); empty when the tree does not link
 *                          the bus entry into {@code /sys/devices}
 */
public record SysfsPeer(String name, int domain, long route, UUID uniqueId, OptionalInt vendorId, String vendorName,
                        OptionalInt deviceId, String deviceName, OptionalInt maxHopId, Optional<LinkState> link,
                        List<SysfsService> services, Optional<String> hostRouterPciPath) {
    public SysfsPeer {
        services = List.copyOf(services);
    }

    /** The network interfaces of every service of this peer (thunderbolt-net's {@code thunderbolt<N>}). */
    public List<String> netInterfaces() {
        return services.stream().flatMap(s -> s.netInterfaces().stream()).toList();
    }

    /** The service with this key, if the peer published one. */
    public Optional<SysfsService> service(String key) {
        return services.stream().filter(s -> s.key().equals(key)).findFirst();
    }
}
