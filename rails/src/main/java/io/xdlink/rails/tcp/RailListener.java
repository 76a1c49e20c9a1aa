package io.xdlink.rails.tcp;

import io.xdlink.xdomain.Scheduler;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The accepting half of rail set-up: a listener on one link's local address that reads each connection's hello on
 * the loop, asks a {@link RailAcceptor}, replies, and hands the connection over as a {@link TcpRailTransport}. A
 * connection that sends no whole hello within the connect timeout, or sends bytes that are not one, is closed.
 */
public final class RailListener {
    private RailListener() {
    }

    /**
     * Listens for rails on {@code local}.
     *
     * @param localDomain this host's domain, which the reply carries and each hello must name
     */
    public static TcpListener open(IoLoop loop, InetSocketAddress local, UUID localDomain, TcpSettings settings,
                                   RailAcceptor acceptor) throws IOException {
        return open(loop, local, null, why -> { }, localDomain, settings, acceptor);
    }

    /**
     * Listens for rails on {@code local}, tied to interface {@code device} (the link's) so that every rail accepted
     * answers by that cable ({@link InterfaceBinding}), and every rail accepted takes the settings' congestion
     * control from the listener ({@link CongestionControl}); a tie or a congestion control that cannot be set is told
     * to {@code notes}.
     */
    public static TcpListener open(IoLoop loop, InetSocketAddress local, String device, Consumer<String> notes,
                                   UUID localDomain, TcpSettings settings, RailAcceptor acceptor) throws IOException {
        return TcpListener.open(loop, local, device, settings.socketReceiveBuffer(), settings.congestionControl(),
                notes, ch -> new Pending(loop, ch, localDomain, settings, acceptor).start());
    }

    /** One accepted connection until its hello is answered. */
    private static final class Pending implements IoLoop.Handler {
        private final IoLoop loop;
        private final SocketChannel channel;
        private final UUID localDomain;
        private final TcpSettings settings;
        private final RailAcceptor acceptor;
        private final String name;
        private final RecordReader reader;
        private SelectionKey key;
        private Scheduler.Timer deadline;

        Pending(IoLoop loop, SocketChannel channel, UUID localDomain, TcpSettings settings, RailAcceptor acceptor)
                throws IOException {
            this.loop = loop;
            this.channel = channel;
            this.localDomain = localDomain;
            this.settings = settings;
            this.acceptor = acceptor;
            this.name = "rail from " + channel.getRemoteAddress();
            this.reader = TcpRailTransport.newReader(name, settings);
        }

        void start() throws IOException {
            RailConnector.configure(channel, settings);
            channel.configureBlocking(false);
            key = loop.register(channel, SelectionKey.OP_READ, this);
            deadline = loop.schedule(settings.connectTimeout().toNanos(), () -> failed(
                    new SocketTimeoutException(name + ": no hello within " + settings.connectTimeout().toMillis() + " ms")));
        }

        @Override
        public void ready(SelectionKey k) throws IOException {
            MemorySegment record;
            while ((record = reader.next()) == null) {
                int n = reader.fill(channel);
                if (n == 0) {
                    return;
                }
                if (n < 0) {
                    reader.next(); // throws when the stream ended inside the hello
                    throw new IOException(name + ": closed before its hello");
                }
            }
            RailHello hello = RailHello.decode(record, name);
            deadline.cancel();
            key.cancel();
            RecordWriter writer = new RecordWriter(settings.railBuffer());
            RailAcceptor.Answer answer = hello.to().equals(localDomain)
                    ? acceptor.answer(hello) : new RailAcceptor.Refuse(RailHello.Status.WRONG_HOST);
            switch (answer) {
                case RailAcceptor.Take take -> {
                    writer.append(new RailHello.Reply(localDomain, RailHello.Status.ACCEPTED).encode());
                    writer.writeTo(channel);
                    // Whatever the socket did not take yet leaves with the engine's first flush.
                    take.taker().accept(new TcpRailTransport(channel, take.info(), reader, writer, loop,
                            settings.payloadByReference(), settings.readIntoPlace(), hello.runFrames()));
                }
                case RailAcceptor.Refuse refuse -> {
                    writer.append(new RailHello.Reply(localDomain, refuse.status()).encode());
                    writer.writeTo(channel);
                    IoLoop.closeQuietly(channel);
                }
            }
        }

        @Override
        public void failed(Exception cause) {
            if (deadline != null) {
                deadline.cancel();
            }
            if (key != null) {
                key.cancel();
            }
            IoLoop.closeQuietly(channel);
        }
    }
}
