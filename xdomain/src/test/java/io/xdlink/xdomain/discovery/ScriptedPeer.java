package io.xdlink.xdomain.discovery;

import io.xdlink.xdomain.ControlChannel;
import io.xdlink.xdomain.packet.XdpCodec;
import io.xdlink.xdomain.packet.XdpMessage;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateStatusRequest;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateStatusResponse;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesChangedRequest;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesChangedResponse;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesRequest;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesResponse;
import io.xdlink.xdomain.packet.XdpMessage.UuidRequest;
import io.xdlink.xdomain.packet.XdpMessage.UuidResponse;
import java.util.Arrays;
import java.util.UUID;
import java.util.function.Function;

/**
 * A peer that answers by script rather than by protocol: single lane, a UUID, and property chunks from a function
 * that may lie. Used to show how discovery treats a peer that breaks the rules.
 */
final class ScriptedPeer {
    final UUID uuid;
    final ControlChannel channel;
    /** Returns the response to a properties request, or null for silence. */
    Function<PropertiesRequest, XdpMessage> properties;

    ScriptedPeer(UUID uuid, ControlChannel channel, Function<PropertiesRequest, XdpMessage> properties) {
        this.uuid = uuid;
        this.channel = channel;
        this.properties = properties;
        channel.receiver(this::receive);
    }

    /** Serves {@code block} honestly under {@code generation}. */
    static Function<PropertiesRequest, XdpMessage> honest(UUID self, int[] block, int generation) {
        return r -> {
            if (r.offset() >= block.length) {
                return null;
            }
            int n = Math.min(45, block.length - r.offset());
            return new PropertiesResponse(r.header().reply(), self, r.sourceUuid(), r.offset(), block.length,
                    generation, Arrays.copyOfRange(block, r.offset(), r.offset() + n));
        };
    }

    private void receive(byte[] wire) {
        XdpMessage m = XdpCodec.decode(wire);
        XdpMessage answer = switch (m) {
            case UuidRequest u -> new UuidResponse(u.header().reply(), uuid, u.header().route());
            case LinkStateStatusRequest l -> new LinkStateStatusResponse(l.header().reply(), 0, 1, 1, 0, 0);
            case PropertiesChangedRequest c -> new PropertiesChangedResponse(c.header().reply());
            case PropertiesRequest p -> properties.apply(p);
            default -> null;
        };
        if (answer != null) {
            channel.send(XdpCodec.encode(answer));
        }
    }

    /** Tells the other side our properties changed. */
    void announce() {
        channel.send(XdpCodec.encode(new PropertiesChangedRequest(io.xdlink.xdomain.packet.XdpHeader.of(3, 2),
                uuid)));
    }
}
