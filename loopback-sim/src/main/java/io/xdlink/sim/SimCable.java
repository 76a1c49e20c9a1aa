package io.xdlink.sim;

import io.xdlink.xdomain.LinkState;

import java.util.Optional;
import io.xdlink.rails.RailClosedException;

/**
 * A cable between two ports. Plugging it in brings the link up when both hosts are running (each host then runs its
 * XDomain discovery over the cable); pulling it takes the link down at once: every rail over it fails with
 * {@link RailClosedException}, frames in flight are lost, and both hosts see the peer unplugged.
 * Plugging it back re-enumerates from scratch, with new rails.
 */
public final class SimCable {
    private final SimFabric fabric;
    private final String name;
    private final CableSpec spec;
    private final SimPort a;
    private final SimPort b;
    private boolean plugged;
    private CableLink link;
    private int plugCount;

    SimCable(SimFabric fabric, String name, CableSpec spec, SimPort a, SimPort b) {
        this.fabric = fabric;
        this.name = name;
        this.spec = spec;
        this.a = a;
        this.b = b;
    }

    public String name() {
        return name;
    }

    public CableSpec spec() {
        return spec;
    }

    /** The host at the cable's A end. */
    public SimHost hostA() {
        return a.host();
    }

    /** The host at the cable's B end. */
    public SimHost hostB() {
        return b.host();
    }

    public synchronized boolean isPlugged() {
        return plugged;
    }

    /** Plugs the cable in (nothing happens if it is in already). */
    public void plug() {
        synchronized (this) {
            if (plugged) {
                return;
            }
            plugged = true;
        }
        linkUp();
    }

    /** Pulls the cable (nothing happens if it is out already). */
    public void unplug() {
        synchronized (this) {
            if (!plugged) {
                return;
            }
            plugged = false;
        }
        linkDown("cable " + name + " was pulled");
    }

    /** What the link runs now, while it is up. */
    public Optional<LinkState> linkState() {
        CableLink l = link();
        return l == null ? Optional.empty() : Optional.of(l.lanes().linkState());
    }

    /** How many times the link came up. */
    public synchronized int plugCount() {
        return plugCount;
    }

    /** Brings the link up if the cable is in and both hosts run. */
    void linkUp() {
        CableLink l;
        synchronized (this) {
            if (!plugged || link != null || !a.host().isUp() || !b.host().isUp() || fabric.isClosed()) {
                return;
            }
            plugCount++;
            l = new CableLink(fabric, this, plugCount);
            link = l;
        }
        a.host().linkUp(a, l, l.ring0(true), l.lanes().end(true));
        b.host().linkUp(b, l, l.ring0(false), l.lanes().end(false));
    }

    /** Takes the link down: rails fail with {@code reason}, both hosts lose the peer. */
    void linkDown(String reason) {
        CableLink l;
        synchronized (this) {
            l = link;
            link = null;
        }
        if (l == null) {
            return;
        }
        l.tearDown(reason);
        a.host().linkDown(a, l);
        b.host().linkDown(b, l);
    }

    synchronized CableLink link() {
        return link;
    }

    SimPort end(boolean atA) {
        return atA ? a : b;
    }

    /** The port of {@code host} this cable is plugged into, or null. */
    SimPort portOf(SimHost host) {
        return a.host() == host ? a : b.host() == host ? b : null;
    }

    /** True when the link is down for good (cable out or a host down) or both ends finished discovery. */
    boolean settled() {
        CableLink l = link();
        if (l == null) {
            return !isPlugged() || !a.host().isUp() || !b.host().isUp();
        }
        PortSession sa = a.session();
        PortSession sb = b.session();
        return sa != null && sb != null && sa.finished() && sb.finished();
    }

    @Override
    public String toString() {
        return name + " (" + a + " - " + b + ", " + spec.generation().label() + ")";
    }
}
