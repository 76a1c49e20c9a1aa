package io.xdlink.rails.tcp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/**
 * A listening socket on an {@link IoLoop}: every connection it accepts goes to a handler on the loop. Bound to one
 * interface's address (a link's thunderbolt-net address), so only that cable's peer reaches it.
 */
public final class TcpListener implements AutoCloseable {
    /** Takes an accepted connection; runs on the loop. */
    @FunctionalInterface
    interface Accepted {
        void accepted(SocketChannel channel) throws IOException;
    }

    private final IoLoop loop;
    private final ServerSocketChannel server;
    private final InetSocketAddress address;

    private TcpListener(IoLoop loop, ServerSocketChannel server) throws IOException {
        this.loop = loop;
        this.server = server;
        this.address = (InetSocketAddress) server.getLocalAddress();
    }

    /**
     * Binds {@code local} (port 0: any free one) and starts accepting. Receive buffers set here are inherited by
     * accepted sockets, which is the only way they take effect before the window is negotiated.
     */
    static TcpListener open(IoLoop loop, InetSocketAddress local, int receiveBuffer, Accepted handler)
            throws IOException {
        return open(loop, local, null, receiveBuffer, "", why -> { }, handler);
    }

    /**
     * As {@link #open(IoLoop, InetSocketAddress, int, Accepted)}, tied to interface {@code device} when not null
     * ({@link InterfaceBinding}): accepted sockets inherit the tie, so their answers leave by the cable their peer
     * came in on. A tie that fails is told to {@code notes}, and the listener goes on untied. Accepted sockets
     * inherit the listener's {@code congestion} control too ({@link CongestionControl}; empty: the host's default),
     * from their first segment; one that cannot be set is told to {@code notes}.
     */
    static TcpListener open(IoLoop loop, InetSocketAddress local, String device, int receiveBuffer,
                            String congestion, Consumer<String> notes, Accepted handler) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        try {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            if (receiveBuffer > 0) {
                server.setOption(StandardSocketOptions.SO_RCVBUF, receiveBuffer);
            }
            server.bind(local, 64);
            if (device != null) {
                InterfaceBinding.bind(server, device).ifPresent(why -> notes.accept(
                        "listener " + local + " not tied to " + device + ": " + why));
            }
            if (!congestion.isEmpty()) {
                CongestionControl.set(server, congestion).ifPresent(why -> notes.accept(
                        "listener " + local + ": rails it accepts keep the host's congestion control: " + why));
            }
            server.configureBlocking(false);
            TcpListener l = new TcpListener(loop, server);
            CompletableFuture<Void> registered = new CompletableFuture<>();
            loop.execute(() -> {
                try {
                    loop.register(server, SelectionKey.OP_ACCEPT, new IoLoop.Handler() {
                        @Override
                        public void ready(SelectionKey key) throws IOException {
                            for (SocketChannel ch; (ch = server.accept()) != null; ) {
                                try {
                                    handler.accepted(ch);
                                } catch (IOException | RuntimeException e) {
                                    IoLoop.closeQuietly(ch);
                                }
                            }
                        }

                        @Override
                        public void failed(Exception cause) {
                            IoLoop.closeQuietly(server);
                        }
                    });
                    registered.complete(null);
                } catch (IOException | RuntimeException e) {
                    registered.completeExceptionally(e);
                }
            });
            if (!loop.inLoop()) {
                registered.get();
            }
            return l;
        } catch (IOException | RuntimeException e) {
            IoLoop.closeQuietly(server);
            throw e;
        } catch (ExecutionException e) {
            IoLoop.closeQuietly(server);
            throw new IOException("cannot listen on " + local + ": " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            IoLoop.closeQuietly(server);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting to listen on " + local, e);
        }
    }

    /** The bound address, with the port the kernel picked. */
    public InetSocketAddress address() {
        return address;
    }

    public boolean isOpen() {
        return server.isOpen();
    }

    @Override
    public void close() {
        IoLoop.closeQuietly(server);
        loop.selectorWakeup();
    }
}
