package io.xdlink.xdomain.service;

import io.xdlink.xdomain.property.Property;
import io.xdlink.xdomain.property.PropertyDirectory;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The services of one peer, kept across property updates the way Linux's {@code enumerate_services} keeps them:
 * first every service whose key no longer names a directory in the new block goes, then every directory whose key
 * has no service yet becomes one with the lowest free id. A service whose key stays is kept as it was, even if its
 * directory's values changed (Linux does not re-probe it either). Not thread-safe; the owning discovery confines it.
 */
public final class RemoteServices {
    private final String peerName;
    private final List<Service> services = new ArrayList<>();
    private final BitSet ids = new BitSet();

    public RemoteServices(String peerName) {
        this.peerName = peerName;
    }

    /** Applies a newly read root directory; returns the services now present, in id order of appearance. */
    public List<Service> update(PropertyDirectory root) {
        for (int i = services.size() - 1; i >= 0; i--) {
            Service s = services.get(i);
            if (root.find(s.key(), Property.Directory.class).isEmpty()) {
                services.remove(i);
                ids.clear(s.id());
            }
        }
        for (Property p : root.properties()) {
            if (p instanceof Property.Directory d && services.stream().noneMatch(s -> s.key().equals(d.key()))) {
                int id = ids.nextClearBit(0);
                ids.set(id);
                services.add(Service.of(peerName, id, d));
            }
        }
        return List.copyOf(services);
    }

    public List<Service> services() {
        return List.copyOf(services);
    }

    /** Removes every service (the peer went away). */
    public void clear() {
        services.clear();
        ids.clear();
    }
}
