package io.xdlink.rails.tcp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Stand-alone TCP control channels: one session stream per channel, for XDomain code that wants a ring 0 to a
 * peer over IP and nothing else (a real host's fabric multiplexes its own sessions instead). Closing the channel
 * closes the stream; a peer silent for the keepalive timeout closes it too.
 */
public final class TcpControl {
    private TcpControl() {
    }

    /** Listens on {@code local}; every session that comes up is handed to {@code onChannel} on the loop. */
    public static TcpListener listen(IoLoop loop, InetSocketAddress local, TcpSettings settings,
                                     Consumer<TcpControlChannel> onChannel) throws IOException {
        return ControlConnection.listen(loop, local, settings, () -> new ControlConnection.Listener() {
                    @Override
                    public void opened(ControlConnection connection) {
                        onChannel.accept(channelOf(connection));
                    }

                    @Override
                    public void closed(ControlConnection connection, IOException cause) {
                        // The channel reports closed through isOpen(); nothing else holds on to it.
                    }
                });
    }

    /**
     * Connects to a listener; the future completes with the channel once both hellos are through, or fails within
     * the connect timeout.
     */
    public static CompletableFuture<TcpControlChannel> connect(IoLoop loop, InetSocketAddress local,
                                                               InetSocketAddress remote, TcpSettings settings) {
        CompletableFuture<TcpControlChannel> result = new CompletableFuture<>();
        loop.execute(() -> {
            try {
                ControlConnection.connect(loop, local, remote, settings, new ControlConnection.Listener() {
                    @Override
                    public void opened(ControlConnection connection) {
                        if (!result.complete(channelOf(connection))) {
                            connection.close();
                        }
                    }

                    @Override
                    public void closed(ControlConnection connection, IOException cause) {
                        result.completeExceptionally(cause);
                    }
                });
            } catch (IOException | RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    private static TcpControlChannel channelOf(ControlConnection connection) {
        return connection.channel(ControlConnection.SESSION_CHANNEL, connection::close);
    }
}
