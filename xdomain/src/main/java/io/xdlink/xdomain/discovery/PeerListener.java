package io.xdlink.xdomain.discovery;

/** Hears every change of a peer: state, link, properties, services. Runs on the scheduler; must not block. */
@FunctionalInterface
public interface PeerListener {
    void peerChanged(Peer peer);
}
