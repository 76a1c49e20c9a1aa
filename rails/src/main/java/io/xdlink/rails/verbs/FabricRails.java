package io.xdlink.rails.verbs;

import io.xdlink.rails.Fabric;
import io.xdlink.rails.LinkInfo;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.RailTransport;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps a fabric device's rails open: every {@value #SCAN_MILLIS} ms it lists the fabric's peers and links, and
 * opens (on a virtual thread each, since opening may wait for the peer's side) every rail that is not open: new
 * peers, new links, and rails whose transport closed because the peer or the cable went away.
 */
final class FabricRails implements AutoCloseable {
    static final long SCAN_MILLIS = 200;

    private final Device device;
    private final Fabric fabric;
    private final Map<String, RailTransport> open = new ConcurrentHashMap<>();
    private final Set<String> opening = ConcurrentHashMap.newKeySet();
    private final Thread scanner;
    private volatile boolean running = true;

    private FabricRails(Device device, Fabric fabric) {
        this.device = device;
        this.fabric = fabric;
        this.scanner = Thread.ofPlatform().daemon(true).name("xdlink-rails-open-" + device.id().toString()
                .substring(0, 8)).unstarted(this::run);
    }

    static FabricRails start(Device device, Fabric fabric) {
        FabricRails f = new FabricRails(device, fabric);
        f.scanner.start();
        return f;
    }

    private void run() {
        while (running) {
            try {
                scan();
            } catch (RuntimeException e) {
                device.stats();
            }
            try {
                Thread.sleep(SCAN_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void scan() {
        int perLink = device.settings().railsPerLink();
        for (PeerInfo peer : fabric.peers()) {
            for (LinkInfo link : peer.links()) {
                for (int index = 0; index < perLink; index++) {
                    String key = peer.domain() + "/" + link.id() + "/" + index;
                    RailTransport t = open.get(key);
                    if ((t == null || !t.isOpen()) && opening.add(key)) {
                        int i = index;
                        Thread.ofVirtual().start(() -> openRail(key, peer, link, i));
                    }
                }
            }
        }
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
