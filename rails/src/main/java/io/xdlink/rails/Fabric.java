package io.xdlink.rails;

import io.xdlink.xdomain.ControlChannel;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
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

    /**
     * The far end of a loopback link: the simulated peer's own view of the fabric, whose {@code openRail} meets ours
     * over the same cable. Empty for a real peer, which runs its own end. The collective-library plugin puts
     * {@code accept} on the far end of a loopback device, so two ranks in one process can connect over it.
     */
    default Optional<Fabric> far(UUID peer) {
        return Optional.empty();
    }

    /**
     * The PCI device directory under {@code /sys} of the USB4 host router the links to {@code peer} leave from
     * ({@code /sys/devices/pci0000:00/0000:00:0d.2}); empty for a simulated fabric.
     */
    default Optional<String> hostRouterPciPath(UUID peer) {
        return Optional.empty();
    }

    /**
     * Why {@code peer} counts as lost now (its session's heartbeat stopped, or its session ended and none came back
     * within the keepalive timeout), or empty while it is alive, has not been reached yet, or the fabric cannot
     * tell. A program waiting on the peer by other means (a benchmark's out-of-band connection) asks this instead
     * of waiting out its own, longer timeout.
     */
    default Optional<String> peerLost(UUID peer) {
        return Optional.empty();
    }

    /**
     * The {@code stripe_min_bytes} this fabric's rails run best with, used where the parameter was not set: by
     * default the parameter's own default, measured on USB4 rings (the simulator's), where a write left whole on one
     * rail leaves the other cable idle.
     */
    default long stripeMinBytes() {
        return RailsParams.STRIPE_MIN_BYTES.defaultValue();
    }

    /**
     * The {@code frame_bytes} this fabric's rails run best with, used where the parameter was not set: by default the
     * parameter's own default, a USB4 DMA frame.
     */
    default int frameBytes() {
        return RailsParams.FRAME_BYTES.defaultValue().intValue();
    }

    /** The largest {@code frame_bytes} this fabric's rails carry: by default a USB4 DMA frame. */
    default int maxFrameBytes() {
        return RailTransport.MAX_FRAME_BYTES;
    }

    @Override
    void close();
}
