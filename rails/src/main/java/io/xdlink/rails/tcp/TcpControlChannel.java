package io.xdlink.rails.tcp;

import io.xdlink.xdomain.ControlChannel;

import java.util.function.Consumer;
import java.io.IOException;
import java.util.Optional;

/**
 * An XDomain control channel to one peer over a TCP session stream: packets travel unchanged (whole big-endian
 * words with their CRC), so the XDomain code that runs on ring 0 runs here as it is. Like ring 0 the channel does
 * not parse packets and may drop them (when closed, or when more than a thousand wait to be sent); XDomain's
 * retries make up for it. Packets are delivered on the session's {@link IoLoop} thread.
 */
public final class TcpControlChannel implements ControlChannel {
    private final ControlConnection connection;
    private final int channel;
    private final Runnable onClose;
    private volatile boolean closed;

    TcpControlChannel(ControlConnection connection, int channel, Runnable onClose) {
        this.connection = connection;
        this.channel = channel;
        this.onClose = onClose;
    }

    @Override
    public void send(byte[] packet) {
        if (!closed) {
            connection.sendPacket(channel, packet);
        }
    }

    @Override
    public void receiver(Consumer<byte[]> receiver) {
        if (!closed) {
            connection.receiver(channel, receiver);
        }
    }

    @Override
    public boolean isOpen() {
        return !closed && connection.isOpen();
    }

    /** Why the session stream closed (peer silent, peer closed, bad bytes), when it has. */
    public Optional<IOException> failure() {
        return Optional.ofNullable(connection.cause());
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            connection.receiver(channel, null);
            onClose.run();
        }
    }

    @Override
    public String toString() {
        return "TcpControlChannel[" + connection.name() + ", channel " + channel + (isOpen() ? "" : ", closed") + "]";
    }
}
