package io.xdlink.xdomain.service;

import io.xdlink.xdomain.property.Property;
import io.xdlink.xdomain.property.Property.Directory;
import io.xdlink.xdomain.property.Property.Immediate;
import io.xdlink.xdomain.property.Property.Text;
import io.xdlink.xdomain.property.PropertyBlock;
import io.xdlink.xdomain.property.PropertyDirectory;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The local host's published services: one property directory per service under the root of the block every peer
 * reads, and the generation counter that tells peers the block changed.
 *
 * <p>As in Linux, registering or removing a directory bumps the generation and every registered listener (one per
 * connected peer) then sends PROPERTIES_CHANGED to its peer. Each peer's block adds two per-link entries to this
 * template: {@code deviceid} text (the hostname) and {@code maxhopid}; see {@link #block(int)}. Thread-safe: service
 * code registers from any thread, peers read from theirs.
 */
public final class ServiceRegistry {
    private final HostIdentity identity;
    private final List<Directory> services = new ArrayList<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private int generation;

    /**
     * @param identity          what the root says about the host
     * @param initialGeneration the generation to start from (Linux starts from a random u32, so a peer that
     *                          remembers an older boot's generation is not fooled)
     */
    public ServiceRegistry(HostIdentity identity, int initialGeneration) {
        this.identity = Objects.requireNonNull(identity, "identity");
        this.generation = initialGeneration;
    }

    public HostIdentity identity() {
        return identity;
    }

    /**
     * Publishes {@code directory} under {@code key}.
     *
     * @throws IllegalArgumentException when the key is longer than 8 characters or the directory has no UUID
     * @throws IllegalStateException    when a directory with this key is already published, or when the block
     *                                  would grow past {@link PropertyBlock#MAX_DWORDS} dwords
     */
    public void register(String key, PropertyDirectory directory) {
        Directory entry = new Directory(key, directory);
        synchronized (this) {
            for (Directory d : services) {
                if (d.key().equals(key)) {
                    throw new IllegalStateException("a service directory '" + key + "' is already published");
                }
            }
            services.add(entry);
            int length = PropertyBlock.length(block(0).root());
            if (length > PropertyBlock.MAX_DWORDS) {
                services.remove(services.size() - 1);
                throw new IllegalStateException("publishing '" + key + "' would make the property block " + length
                        + " dwords, more than " + PropertyBlock.MAX_DWORDS);
            }
            generation++;
        }
        notifyListeners();
    }

    /**
     * Withdraws the directory published under {@code key}, if it is {@code directory}. The generation moves only
     * when something was removed; peers are told either way, as Linux does.
     */
    public void unregister(String key, PropertyDirectory directory) {
        synchronized (this) {
            for (int i = 0; i < services.size(); i++) {
                Directory d = services.get(i);
                if (d.key().equals(key) && d.directory().equals(directory)) {
                    services.remove(i);
                    generation++;
                    break;
                }
            }
        }
        notifyListeners();
    }

    /** The current generation (u32). */
    public synchronized int generation() {
        return generation;
    }

    /** The published directories, in registration order. */
    public synchronized List<Directory> services() {
        return List.copyOf(services);
    }

    /**
     * The block contents one peer reads, with the generation they belong to: vendorid (immediate and text),
     * deviceid, devicerv, the service directories, then the per-link deviceid text and maxhopid, in Linux's order.
     */
    public synchronized Snapshot block(int maxHopId) {
        List<Property> root = new ArrayList<>();
        root.add(new Immediate("vendorid", identity.vendorId()));
        root.add(Text.of("vendorid", identity.vendorName()));
        root.add(new Immediate("deviceid", identity.deviceId()));
        root.add(new Immediate("devicerv", identity.deviceRevision()));
        root.addAll(services);
        root.add(Text.of("deviceid", identity.hostname()));
        root.add(new Immediate("maxhopid", maxHopId));
        return new Snapshot(generation, PropertyDirectory.root(root));
    }

    /** A block's contents and the generation they had. */
    public record Snapshot(int generation, PropertyDirectory root) {
    }

    /** Calls {@code listener} after every register or unregister (on the caller's thread). */
    public void addListener(Runnable listener) {
        listeners.add(listener);
    }

    public void removeListener(Runnable listener) {
        listeners.remove(listener);
    }

    private void notifyListeners() {
        for (Runnable l : listeners) {
            l.run();
        }
    }
}
