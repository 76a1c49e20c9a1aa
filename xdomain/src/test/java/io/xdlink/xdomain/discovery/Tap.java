package io.xdlink.xdomain.discovery;

import io.xdlink.xdomain.ControlChannel;
import io.xdlink.xdomain.packet.ControlFrame;
import io.xdlink.xdomain.packet.XdomainPacket;
import io.xdlink.xdomain.packet.XdpCodec;
import io.xdlink.xdomain.packet.XdpMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A control channel wrapper that records what its owner sends and can intercept it: for asserting on the exact
 * packets of a handshake and for making a host behave like an older or a lying one.
 */
final class Tap implements ControlChannel {
    private final ControlChannel inner;
    final List<XdpMessage> sent = new ArrayList<>();
    /** Incoming packets for which this returns true never reach the owner. */
    Predicate<byte[]> swallowIncoming = p -> false;
    /** Sees every XDP message the owner sends, before it goes out. */
    Consumer<XdpMessage> onSend = m -> { };

    Tap(ControlChannel inner) {
        this.inner = inner;
    }

    @Override
    public void send(byte[] packet) {
        ControlFrame frame = ControlFrame.parse(packet);
        if (XdomainPacket.parse(frame.words()).protocol().equals(XdpCodec.XDP_UUID)) {
            XdpMessage m = XdpCodec.decode(packet);
            sent.add(m);
            onSend.accept(m);
        }
        inner.send(packet);
    }

    @Override
    public void receiver(Consumer<byte[]> receiver) {
        inner.receiver(p -> {
            if (!swallowIncoming.test(p)) {
                receiver.accept(p);
            }
        });
    }

    /** Sends raw bytes to the far end as if the owner had sent them, without recording them. */
    void inject(byte[] packet) {
        inner.send(packet);
    }

    @Override
    public boolean isOpen() {
        return inner.isOpen();
    }

    @Override
    public void close() {
        inner.close();
    }

    <T extends XdpMessage> List<T> sent(Class<T> type) {
        return sent.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
