package io.xdlink.rails.tcp;

import io.xdlink.rails.RailInfo;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;

/**
 * The connecting half of a rail's set-up: connect from the link's local address, send the hello, wait for the
 * accepting host's reply. Set-up is the one place a rail may wait ({@code Fabric.openRail} says so); it waits on a
 * selector of its own, never longer than the connect timeout, and leaves a non-blocking socket behind.
 */
public final class RailConnector {
    private RailConnector() {
    }

    /**
     * Opens a rail to {@code remote}.
     *
     * @param local  the local interface address to leave from (port 0), or null to let routing choose
     * @param device the interface to tie the socket to ({@link InterfaceBinding}), or null to let routing choose
     * @param notes  told what set-up could not do: a tie to {@code device} that failed (the rail then follows the
     *               routing table), a congestion control that could not be set ({@link CongestionControl})
     * @param remote the peer's rail listener
     * @param hello  who connects, whom it expects, which rail
     * @param info   what the rail will report about itself
     * @param watcher the loop that tells the rail's engine about arrivals ({@code onArrival}), or null for none
     * @throws IOException when the peer cannot be reached, refuses the rail, is not the host the hello names, or
     *                     does not answer within the connect timeout
     */
    public static TcpRailTransport connect(InetSocketAddress local, InetSocketAddress remote, RailHello hello,
                                           RailInfo info, TcpSettings settings, IoLoop watcher) throws IOException {
        return connect(local, null, why -> { }, remote, hello, info, settings, watcher);
    }

    /** As {@link #connect(InetSocketAddress, InetSocketAddress, RailHello, RailInfo, TcpSettings, IoLoop)}. */
    public static TcpRailTransport connect(InetSocketAddress local, String device, Consumer<String> notes,
                                           InetSocketAddress remote, RailHello hello, RailInfo info,
                                           TcpSettings settings, IoLoop watcher) throws IOException {
        long deadline = System.nanoTime() + settings.connectTimeout().toNanos();
        String name = "rail " + info.name() + " to " + remote;
        SocketChannel ch = SocketChannel.open();
        try (Selector selector = Selector.open()) {
            configure(ch, settings);
            // Bound before the connect (to any address and a free port when no local one is given), so that the
            // congestion control is set before the connection begins.
            ch.bind(local);
            if (!settings.congestionControl().isEmpty()) {
                CongestionControl.set(ch, settings.congestionControl()).ifPresent(why -> notes.accept(
                        name + ": kept the host's congestion control: " + why));
            }
            if (local != null) {
                if (device != null) {
                    // Before the connect, so the handshake leaves by the cable too: a tied listener at the far
                    // end takes only what arrives on its own interface.
                    InterfaceBinding.bind(ch, device).ifPresent(why -> notes.accept(
                            name + ": not tied to " + device + ": " + why));
                }
            }
            ch.configureBlocking(false);
            SelectionKey key = ch.register(selector, 0);
            if (!ch.connect(remote)) {
                await(selector, key, SelectionKey.OP_CONNECT, deadline, name, "connecting");
                ch.finishConnect();
            }
            RecordWriter writer = new RecordWriter(settings.railBuffer());
            writer.append(hello.encode());
            while (writer.pending() > 0) {
                if (writer.writeTo(ch) == 0) {
                    await(selector, key, SelectionKey.OP_WRITE, deadline, name, "sending the hello");
                }
            }
            RecordReader reader = TcpRailTransport.newReader(name, settings);
            MemorySegment record;
            while ((record = reader.next()) == null) {
                int n = reader.fill(ch);
                if (n < 0) {
                    reader.next(); // throws when the stream ended inside the reply
                    throw new IOException(name + ": the peer closed the connection without answering the hello");
                }
                if (n == 0) {
                    await(selector, key, SelectionKey.OP_READ, deadline, name, "waiting for the reply");
                }
            }
            RailHello.Reply reply = RailHello.Reply.decode(record, name);
            if (reply.status() != RailHello.Status.ACCEPTED) {
                throw new IOException(name + ": refused: " + reply.status());
            }
            if (!reply.from().equals(hello.to())) {
                throw new IOException(name + ": answered by host " + reply.from() + ", expected " + hello.to());
            }
            key.cancel(); // closing the selector releases the socket, so the engine owns a plain non-blocking one
            return new TcpRailTransport(ch, info, reader, writer, watcher, settings.payloadByReference(),
                    settings.readIntoPlace(), reply.runFrames());
        } catch (IOException | RuntimeException e) {
            IoLoop.closeQuietly(ch);
            throw e;
        }
    }

    static void configure(SocketChannel ch, TcpSettings settings) throws IOException {
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        if (settings.socketSendBuffer() > 0) {
            ch.setOption(StandardSocketOptions.SO_SNDBUF, settings.socketSendBuffer());
        }
        if (settings.socketReceiveBuffer() > 0) {
            ch.setOption(StandardSocketOptions.SO_RCVBUF, settings.socketReceiveBuffer());
        }
    }

    private static void await(Selector selector, SelectionKey key, int ops, long deadline, String name, String what)
            throws IOException {
        key.interestOps(ops);
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new SocketTimeoutException(name + ": timed out " + what);
            }
            if (selector.select(Math.max(1, left / 1_000_000)) > 0) {
                selector.selectedKeys().clear();
                key.interestOps(0);
                return;
            }
        }
    }
}
