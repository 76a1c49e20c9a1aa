package io.xdlink.rails.verbs;

import io.xdlink.rails.Fabric;
import io.xdlink.rails.LinkInfo;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.RailTransport;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Keeps a fabric device's rails open: it lists the fabric's peers and links, and opens (on a virtual thread each,
 * since opening may wait for the peer's side) every rail that is not open: new peers, new links, and rails whose
 * transport closed because the peer or the cable went away. Every {@link ScanCadence#FIRST_NANOS} it looks at the
 * rails it opened; it reads the fabric again when {@link ScanCadence} says so: at once after a rail closed, soon while
 * a rail is missing, and less and less often while every rail stays open.
 */
final class FabricRails implements AutoCloseable {
    private final Device device;
    private final Fabric fabric;
    private final Executor opener;
    private final Map<String, RailTransport> open = new ConcurrentHashMap<>();
    private final Set<String> opening = ConcurrentHashMap.newKeySet();
    private final ScanCadence cadence = new ScanCadence();
    private final Thread scanner;
    private volatile boolean running = true;

    /** A keeper whose rails open on {@code opener}; its thread is not started. */
    FabricRails(Device device, Fabric fabric, Executor opener) {
        this.device = device;
        this.fabric = fabric;
        this.opener = opener;
        this.scanner = Thread.ofPlatform().daemon(true).name("xdlink-rails-open-" + device.id().toString()
                .substring(0, 8)).unstarted(this::run);
    }

    static FabricRails start(Device device, Fabric fabric) {
        FabricRails f = new FabricRails(device, fabric, task -> Thread.ofVirtual().start(task));
        f.scanner.start();
        return f;
    }

    private void run() {
        while (running) {
            try {
                tick(System.nanoTime());
            } catch (RuntimeException e) {
                device.stats();
            }
            try {
                Thread.sleep(ScanCadence.FIRST_NANOS / 1_000_000);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** One look at {@code now}: reads the fabric and opens what is missing when a read is due. */
    void tick(long now) {
        if (cadence.due(now, anyClosed())) {
            cadence.read(now, scan());
        }
    }

    /** The wait before the next read of the fabric, for tests. */
    long readInterval() {
        return cadence.interval();
    }

    private boolean anyClosed() {
        for (RailTransport t : open.values()) {
            if (!t.isOpen()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Reads the fabric and starts opening every rail that is not open; true when it listed rails and every one was
     * open. A fabric with no peer yet is not settled: the device waits for one (a host started before its peer or
     * its cable, a simulated host still discovering), and should find it soon.
     */
    private boolean scan() {
        int perLink = device.settings().railsPerLink();
        boolean settled = true;
        int listed = 0;
        for (PeerInfo peer : fabric.peers()) {
            for (LinkInfo link : peer.links()) {
                for (int index = 0; index < perLink; index++) {
                    listed++;
                    String key = peer.domain() + "/" + link.id() + "/" + index;
                    RailTransport t = open.get(key);
                    if (t == null || !t.isOpen()) {
                        settled = false;
                        if (opening.add(key)) {
                            int i = index;
                            opener.execute(() -> openRail(key, peer, link, i));
                        }
                    }
                }
            }
        }
        return settled && listed > 0;
    }

    private void openRail(String key, PeerInfo peer, LinkInfo link, int index) {
        try {
            if (!running) {
                return;
            }
            RailTransport t = fabric.openRail(peer.domain(), link.id(), index);
            if (!running || device.isClosed()) {
                t.close();
                return;
            }
            open.put(key, t);
            device.addRail(t);
        } catch (IOException | RuntimeException e) {
            // The peer's side is not there yet, or went away again: the next scan tries once more.
        } finally {
            opening.remove(key);
        }
    }

    @Override
    public void close() {
        running = false;
        scanner.interrupt();
    }
}
