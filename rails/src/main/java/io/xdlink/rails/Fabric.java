package io.xdlink.rails;

import io.xdlink.xdomain.ControlChannel;

import java.io.IOException;
import java.util.List;
import java.util.UUID;

/**
 * One host's view of a USB4 fabric: the peers it can reach, the links to each with what they negotiated, and the
 * control channels and rails that run over them. Implemented by the simulator and by a real host (sysfs plus TCP),
 * so nothing above this seam knows which one it got.
 */
public interface Fabric extends AutoCloseable {

    /** This host's domain UUID. */
    UUID localDomain();

    /** The peers reachable now, each with its links; a snapshot. */
    List<PeerInfo> peers();

    /** Opens the XDomain control channel to a peer. */
    ControlChannel openControl(UUID peer) throws IOException;

    /**
     * Opens rail number {@code index} over one link to a peer. Both hosts open the same (link, index) to make one
     * rail; this call may wait for the peer's side during set-up, never afterwards.
     */
    RailTransport openRail(UUID peer, String linkId, int index) throws IOException;

    @Override
    void close();
}
