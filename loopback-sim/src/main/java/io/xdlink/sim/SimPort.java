package io.xdlink.sim;

/**
 * One USB4 port of a simulated host: the cable plugged into it (if any), its HopIDs, and what its XDomain
 * discovery found on the other side.
 */
final class SimPort {
    private final SimHost host;
    private final int index;
    private final HopIds hopIds;
    private SimCable cable;
    private PeerRecord peer;
    private PortSession session;

    SimPort(SimHost host, int index, int maxHopId) {
        this.host = host;
        this.index = index;
        this.hopIds = new HopIds(host.name() + "/port" + index, maxHopId);
    }

    SimHost host() {
        return host;
    }

    int index() {
        return index;
    }

    /** {@code port0}, as a host names its USB4 ports. */
    String name() {
        return "port" + index;
    }

    HopIds hopIds() {
        return hopIds;
    }

    synchronized SimCable cable() {
        return cable;
    }

    synchronized void cable(SimCable c) {
        cable = c;
    }

    synchronized PeerRecord peer() {
        return peer;
    }

    synchronized void peer(PeerRecord p) {
        peer = p;
    }

    synchronized PortSession session() {
        return session;
    }

    synchronized void session(PortSession s) {
        session = s;
    }

    @Override
    public String toString() {
        return host.name() + "/" + name();
    }
}
