package io.xdlink.xdomain.service;

import io.xdlink.xdomain.ControlChannel;
import io.xdlink.xdomain.packet.XdomainPacket;

/**
 * Receives the control packets of one service protocol (by its protocol UUID), like ThunderboltIP's login
 * messages. Runs on the discovery's scheduler and must not block.
 */
@FunctionalInterface
public interface ProtocolHandler {
    /**
     * @param packet  the packet, CRC checked and header parsed
     * @param channel the channel it came in on, to answer on
     * @return true when this handler consumed the packet; later handlers for the same UUID then do not see it
     */
    boolean handle(XdomainPacket packet, ControlChannel channel);
}
