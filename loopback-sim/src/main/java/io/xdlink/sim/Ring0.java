package io.xdlink.sim;

import io.xdlink.sim.wire.SimControlChannel;
import io.xdlink.xdomain.ControlChannel;
import io.xdlink.xdomain.XdomainFormatException;
import io.xdlink.xdomain.packet.ControlFrame;
import io.xdlink.xdomain.packet.XdomainPacket;
import io.xdlink.xdomain.packet.XdpCodec;
import io.xdlink.xdomain.service.ProtocolHandlers;

import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * One host's ring 0 on one port, shared the way a real host shares it: discovery packets go to the XDomain state
 * machine, packets of a service protocol to the host's protocol handlers (first consumer wins), and what no handler
 * consumes to the channels opened with {@code Fabric.openControl}. Packets that fail the CRC or the XDomain length
 * rule are dropped, as a ring-0 consumer drops them.
 */
final class Ring0 {
    private final SimControlChannel ring;
    private final ProtocolHandlers handlers;
    private final View discovery = new View(true);
    private final CopyOnWriteArrayList<View> opened = new CopyOnWriteArrayList<>();
    private volatile long dropped;

    Ring0(SimControlChannel ring, ProtocolHandlers handlers) {
        this.ring = ring;
        this.handlers = handlers;
        ring.receiver(this::onPacket);
    }

    /** The channel the XDomain discovery state machine runs over: XDP packets only. */
    ControlChannel discovery() {
        return discovery;
    }

    /** A channel for a service's own packets to and from the peer; closing it leaves ring 0 alone. */
    ControlChannel open() {
        View v = new View(false);
        opened.add(v);
        return v;
    }

    boolean isOpen() {
        return ring.isOpen();
    }

    void close() {
        ring.close();
        for (View v : opened) {
            v.open = false;
        }
        discovery.open = false;
    }

    long dropped() {
        return dropped;
    }

    private void onPacket(byte[] wire) {
        UUID protocol;
        XdomainPacket packet;
        try {
            ControlFrame frame = ControlFrame.parse(wire);
            if (!frame.crcOk()) {
                dropped++;
                return;
            }
            packet = XdomainPacket.parse(frame.words());
            protocol = packet.protocol();
        } catch (XdomainFormatException e) {
            dropped++;
            return;
        }
        if (protocol.equals(XdpCodec.XDP_UUID)) {
            discovery.deliver(wire);
            return;
        }
        if (handlers.dispatch(packet, discovery)) {
            return;
        }
        for (View v : opened) {
            v.deliver(wire);
        }
    }

    /** A filtered view of ring 0. */
    private final class View implements ControlChannel {
        private final boolean isDiscovery;
        private volatile Consumer<byte[]> receiver;
        private volatile boolean open = true;

        private View(boolean isDiscovery) {
            this.isDiscovery = isDiscovery;
        }

        void deliver(byte[] wire) {
            Consumer<byte[]> r = receiver;
            if (open && r != null) {
                r.accept(wire.clone());
            }
        }

        @Override
        public void send(byte[] packet) {
            if (open) {
                ring.send(packet);
            }
        }

        @Override
        public void receiver(Consumer<byte[]> receiver) {
            this.receiver = receiver;
        }

        @Override
        public boolean isOpen() {
            return open && ring.isOpen();
        }

        @Override
        public void close() {
            open = false;
            if (!isDiscovery) {
                opened.remove(this);
            }
        }

        @Override
        public String toString() {
            return ring + (isDiscovery ? " (discovery)" : " (service)");
        }
    }
}
