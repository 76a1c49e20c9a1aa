package io.xdlink.xdomain.service;

import io.xdlink.xdomain.ControlChannel;
import io.xdlink.xdomain.packet.XdomainPacket;
import io.xdlink.xdomain.packet.XdpCodec;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * The host's protocol handlers, tried in registration order for packets whose protocol UUID they registered; the
 * first that consumes a packet wins. The discovery protocol's own UUID is refused: XDP packets belong to the
 * discovery state machine. Thread-safe.
 */
public final class ProtocolHandlers {
    private record Registration(UUID protocol, ProtocolHandler handler) {
    }

    private final CopyOnWriteArrayList<Registration> handlers = new CopyOnWriteArrayList<>();

    /**
     * Adds {@code handler} for {@code protocol}.
     *
     * @throws IllegalArgumentException for the XDomain discovery protocol's UUID
     */
    public void register(UUID protocol, ProtocolHandler handler) {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(handler, "handler");
        if (protocol.equals(XdpCodec.XDP_UUID)) {
            throw new IllegalArgumentException("the XDomain discovery protocol " + protocol + " is not a service's");
        }
        handlers.add(new Registration(protocol, handler));
    }

    /** Removes {@code handler} from {@code protocol}; true if it was there. */
    public boolean unregister(UUID protocol, ProtocolHandler handler) {
        return handlers.remove(new Registration(protocol, handler));
    }

    /** Offers {@code packet} to the handlers of its protocol in order; true when one consumed it. */
    public boolean dispatch(XdomainPacket packet, ControlChannel channel) {
        for (Registration r : handlers) {
            if (r.protocol().equals(packet.protocol()) && r.handler().handle(packet, channel)) {
                return true;
            }
        }
        return false;
    }

    /** Number of handlers per protocol, for diagnostics. */
    public Map<UUID, Long> counts() {
        return handlers.stream().collect(Collectors.groupingBy(Registration::protocol,
                Collectors.counting()));
    }
}
