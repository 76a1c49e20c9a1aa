package io.xdlink.sim;

import io.xdlink.rails.Fabric;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.xdomain.ControlChannel;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * What code on one simulated host sees: the peers its XDomain discovery enumerated, their links with what those
 * negotiated, and control channels and rails to them. Closing the view closes everything opened through it; the
 * host and its cables stay.
 */
final class SimulatedHostFabric implements Fabric {
    private final SimFabric world;
    private final SimHost host;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private boolean closed;

    SimulatedHostFabric(SimFabric world, SimHost host) {
        this.world = world;
        this.host = host;
    }

    @Override
    public UUID localDomain() {
        return host.domain();
    }

    @Override
    public List<PeerInfo> peers() {
        return host.isUp() ? host.peers() : List.of();
    }

    @Override
    public ControlChannel openControl(UUID peer) throws IOException {
        Objects.requireNonNull(peer, "peer");
        for (SimPort p : host.ports()) {
            PeerRecord r = p.peer();
            SimCable c = p.cable();
            CableLink link = c == null ? null : c.link();
            if (r != null && link != null && r.domain().equals(peer)) {
                ControlChannel ch = link.ring0(c.end(true) == p).open();
                track(ch);
                return ch;
            }
        }
        throw new IOException(host.name() + ": no link to peer " + peer + " (unplugged, or discovery not finished)");
    }

    @Override
    public RailTransport openRail(UUID peer, String linkId, int index) throws IOException {
        Objects.requireNonNull(peer, "peer");
        Objects.requireNonNull(linkId, "linkId");
        checkOpen();
        if (!host.isUp()) {
            throw new IOException(host.name() + " is down");
        }
        SimPort port = host.portFor(linkId).orElseThrow(() -> new IOException(host.name()
                + ": no cable '" + linkId + "' is plugged into this host"));
        SimCable cable = port.cable();
        CableLink link = cable.link();
        PeerRecord r = port.peer();
        if (link == null || r == null) {
            throw new IOException(host.name() + ": the link over " + linkId + " is down or still negotiating");
        }
        if (!r.domain().equals(peer)) {
            throw new IOException(host.name() + ": " + linkId + " leads to " + r.domain() + ", not to " + peer);
        }
        if (!r.xdlink()) {
            throw new IOException(host.name() + ": peer " + r.name() + " over " + linkId
                    + " does not publish the xdlink service");
        }
        RailTransport rail = link.openRail(cable.end(true) == port, index, r.link());
        track(rail);
        return rail;
    }

    private synchronized void track(AutoCloseable resource) throws IOException {
        if (closed) {
            CableLink.closeQuietly(resource);
            throw new IOException(host.name() + ": this fabric view is closed");
        }
        opened.removeIf(SimulatedHostFabric::finished);
        opened.add(resource);
    }

    private static boolean finished(AutoCloseable c) {
        return switch (c) {
            case RailTransport r -> !r.isOpen();
            case ControlChannel ch -> !ch.isOpen();
            default -> false;
        };
    }

    private synchronized void checkOpen() throws IOException {
        if (closed) {
            throw new IOException(host.name() + ": this fabric view is closed");
        }
    }

    /** Nothing opened before a crash survives it; the rails already failed with their links. */
    void hostCrashed() {
        List<AutoCloseable> gone;
        synchronized (this) {
            gone = new ArrayList<>(opened);
            opened.clear();
        }
        gone.forEach(CableLink::closeQuietly);
    }

    @Override
    public void close() {
        List<AutoCloseable> all;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            all = new ArrayList<>(opened);
            opened.clear();
        }
        for (int i = all.size() - 1; i >= 0; i--) {
            CableLink.closeQuietly(all.get(i));
        }
    }

    @Override
    public String toString() {
        return "simulated fabric of " + host.name();
    }
}
