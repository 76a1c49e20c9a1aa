package io.xdlink.xdomain.discovery;

import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.property.PropertyDirectory;
import io.xdlink.xdomain.service.Service;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * What one link's discovery knows about the peer at one moment; immutable.
 *
 * @param name       the XDomain name, {@code <domain>-<route hex>} (for example {@code 0-1}); services are
 *                   {@code <name>.<id>}
 * @param state      where discovery stands
 * @param uuid       the peer's domain UUID, once the UUID exchange answered
 * @param link       what the link runs now: generation, lanes and speed per direction, as the lane adapter reports
 *                   it (every rate xdlink reports comes from here)
 * @param loop       the peer answered with our own UUID: a loop back, which is never bonded
 * @param replaced   the peer answered with a UUID different from the one it had: another host is on this cable now
 * @param properties the peer's property block as last accepted, with the facts Linux takes from it
 * @param services   the peer's services ({@code <name>.<id>})
 * @param lastError  why the last failed step failed, for diagnostics
 */
public record Peer(String name, DiscoveryState state, Optional<UUID> uuid, LinkState link, boolean loop,
                   boolean replaced, Optional<RemoteProperties> properties, List<Service> services,
                   Optional<String> lastError) {

    public Peer {
        services = List.copyOf(services);
    }

    public boolean enumerated() {
        return state == DiscoveryState.ENUMERATED;
    }

    /** Both directions run two lanes. */
    public boolean bonded() {
        return link.bonded();
    }

    /** The service with {@code key}, if the peer offers one. */
    public Optional<Service> service(String key) {
        return services.stream().filter(s -> s.key().equals(key)).findFirst();
    }

    /**
     * The facts of an accepted property block.
     *
     * @param generation the block's generation (u32)
     * @param root       the whole tree
     * @param vendorId   {@code vendorid} immediate (required)
     * @param deviceId   {@code deviceid} immediate (required)
     * @param vendorName {@code vendorid} text
     * @param deviceName {@code deviceid} text (a Linux peer's hostname)
     * @param maxHopId   {@code maxhopid}, 15 when the peer does not say
     */
    public record RemoteProperties(int generation, PropertyDirectory root, int vendorId, int deviceId,
                                   Optional<String> vendorName, Optional<String> deviceName, int maxHopId) {
        /** USB4 inter-domain: assume HopID 15 when the peer does not announce {@code maxhopid}. */
        public static final int DEFAULT_MAX_HOPID = 15;

        /** The facts of {@code root}, or empty when it lacks a required {@code vendorid} or {@code deviceid}. */
        public static Optional<RemoteProperties> of(int generation, PropertyDirectory root) {
            Optional<Integer> vendor = root.immediate("vendorid");
            Optional<Integer> device = root.immediate("deviceid");
            if (vendor.isEmpty() || device.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new RemoteProperties(generation, root, vendor.get(), device.get(),
                    root.text("vendorid"), root.text("deviceid"),
                    root.immediate("maxhopid").orElse(DEFAULT_MAX_HOPID)));
        }
    }
}
