package io.xdlink.xdomain.discovery;

import io.xdlink.xdomain.ControlChannel;
import io.xdlink.xdomain.LaneAdapter;
import io.xdlink.xdomain.packet.PacketFormatException;
import io.xdlink.xdomain.packet.XdomainPacket;
import io.xdlink.xdomain.packet.XdpCodec;
import io.xdlink.xdomain.packet.XdpError;
import io.xdlink.xdomain.packet.XdpHeader;
import io.xdlink.xdomain.packet.XdpMessage;
import io.xdlink.xdomain.packet.XdpMessage.ErrorResponse;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateChangeRequest;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateChangeResponse;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateStatusResponse;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesChangedResponse;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesRequest;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesResponse;
import io.xdlink.xdomain.packet.XdpMessage.UuidResponse;
import io.xdlink.xdomain.packet.XdpType;
import io.xdlink.xdomain.property.PropertyBlock;
import io.xdlink.xdomain.service.ServiceRegistry;
import java.util.Arrays;
import java.util.Optional;
import java.util.UUID;

/**
 * Answers the peer's XDP requests on one link exactly as Linux's {@code tb_xdp_handle_request} does:
 * <ul>
 *   <li>before the link is started (the domain is not ready): ERROR NOT_READY to everything;</li>
 *   <li>UUID_REQUEST and UUID_REQUEST_OLD: our UUID and the route the request came on; a discovery stopped in
 *       ERROR restarts;</li>
 *   <li>PROPERTIES_REQUEST: UNKNOWN_DOMAIN when the destination UUID is not ours, nothing at all for an offset at
 *       or past the end of the block or a request too short to hold an offset, else the chunk from the offset (at
 *       most 45 dwords) with the block length and generation;</li>
 *   <li>PROPERTIES_CHANGED_REQUEST: acknowledged; once the peer is enumerated its block is read again;</li>
 *   <li>LINK_STATE_STATUS_REQUEST: our lane adapter's slw, tlw, sls and tls with status 0;</li>
 *   <li>LINK_STATE_CHANGE_REQUEST: status 0 and the requested width taken only in BONDING_UUID_HIGH (and only from
 *       a request long enough to hold it), else NOT_READY;</li>
 *   <li>any other type: NOT_SUPPORTED.</li>
 * </ul>
 * The reply carries the request's route (bit 31 masked) and sequence number. The local block is rebuilt from the
 * service registry whenever its generation moved, as Linux rebuilds a link's block on the next request.
 */
final class Responder {
    private final PeerDiscovery discovery;
    private final ServiceRegistry registry;
    private final ControlChannel channel;
    private final LaneAdapter lanes;
    private final UUID localUuid;
    private final int localMaxHopId;
    private int[] block;
    private int blockGeneration;

    Responder(PeerDiscovery discovery, ServiceRegistry registry, ControlChannel channel, LaneAdapter lanes,
              UUID localUuid, int localMaxHopId) {
        this.discovery = discovery;
        this.registry = registry;
        this.channel = channel;
        this.lanes = lanes;
        this.localUuid = localUuid;
        this.localMaxHopId = localMaxHopId;
    }

    /** Answers {@code packet}, an XDP packet whose type is a request or not a type at all. */
    void handle(XdomainPacket packet, Optional<XdpType> type) {
        XdpHeader reply = packet.header().reply();
        if (!discovery.started()) {
            error(reply, XdpError.NOT_READY);
            return;
        }
        if (type.isEmpty()) {
            error(reply, XdpError.NOT_SUPPORTED);
            return;
        }
        updateBlock();
        switch (type.get()) {
            case UUID_REQUEST, UUID_REQUEST_OLD -> {
                send(new UuidResponse(reply, localUuid, reply.route()));
                discovery.uuidRequested();
            }
            case PROPERTIES_REQUEST -> properties(packet, reply);
            case PROPERTIES_CHANGED_REQUEST -> {
                send(new PropertiesChangedResponse(reply));
                discovery.propertiesChanged();
            }
            case LINK_STATE_STATUS_REQUEST -> send(new LinkStateStatusResponse(reply, 0,
                    lanes.supportedWidth() & 0xFF, lanes.targetWidth() & 0xFF, lanes.supportedSpeeds() & 0xFF,
                    lanes.targetSpeed() & 0xFF));
            case LINK_STATE_CHANGE_REQUEST -> {
                Optional<XdpMessage> request = lenient(packet);
                if (discovery.state() == DiscoveryState.BONDING_UUID_HIGH && request.isPresent()) {
                    send(new LinkStateChangeResponse(reply, 0));
                    discovery.linkStateChangeRequested(((LinkStateChangeRequest) request.get()).tlw());
                } else {
                    error(reply, XdpError.NOT_READY);
                }
            }
            default -> error(reply, XdpError.NOT_SUPPORTED);
        }
    }

    private void properties(XdomainPacket packet, XdpHeader reply) {
        Optional<XdpMessage> decoded = lenient(packet);
        if (decoded.isEmpty()) {
            return; // too short to hold the offset: Linux stays silent
        }
        PropertiesRequest request = (PropertiesRequest) decoded.get();
        if (!request.destinationUuid().equals(localUuid)) {
            error(reply, XdpError.UNKNOWN_DOMAIN);
            return;
        }
        if (request.offset() >= block.length) {
            return; // past the block: no answer, the requester times out
        }
        int n = Math.min(block.length - request.offset(), PropertiesResponse.MAX_DATA);
        send(new PropertiesResponse(reply, localUuid, request.sourceUuid(), request.offset(), block.length,
                blockGeneration, Arrays.copyOfRange(block, request.offset(), request.offset() + n)));
    }

    private void updateBlock() {
        if (block == null || blockGeneration != registry.generation()) {
            ServiceRegistry.Snapshot s = registry.block(localMaxHopId);
            block = PropertyBlock.format(s.root());
            blockGeneration = s.generation();
        }
    }

    /** The block this link serves now (rebuilt if the registry moved). */
    int[] block() {
        updateBlock();
        return block.clone();
    }

    private static Optional<XdpMessage> lenient(XdomainPacket packet) {
        try {
            return Optional.of(XdpCodec.decode(packet, true));
        } catch (PacketFormatException e) {
            return Optional.empty();
        }
    }

    private void error(XdpHeader reply, XdpError error) {
        send(new ErrorResponse(reply, error));
    }

    private void send(XdpMessage message) {
        channel.send(XdpCodec.encode(message));
    }
}
