package io.xdlink.rails.tcp;

import io.xdlink.rails.RailInfo;
import io.xdlink.xdomain.LinkState;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Both ends of one TCP rail inside one process, over 127.0.0.1 and an ephemeral port, set up exactly as two hosts
 * set one up (listener, hello, reply). Tests and benchmarks use it where they need a real socket and no second host.
 */
public final class TcpLoopbackPair implements AutoCloseable {
    private final IoLoop loop;
    private final TcpListener listener;
    private final TcpRailTransport connecting;
    private final TcpRailTransport accepting;

    private TcpLoopbackPair(IoLoop loop, TcpListener listener, TcpRailTransport connecting,
                            TcpRailTransport accepting) {
        this.loop = loop;
        this.listener = listener;
        this.connecting = connecting;
        this.accepting = accepting;
    }

    /**
     * Opens a pair reporting {@code link} as what their cable negotiated.
     *
     * @throws IOException when the loopback interface refuses, or set-up takes longer than the connect timeout
     */
    public static TcpLoopbackPair open(TcpSettings settings, LinkState link) throws IOException {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        InetAddress loopback = InetAddress.getLoopbackAddress();
        IoLoop loop = new IoLoop("xdlink-tcp-pair");
        TcpListener listener = null;
        try {
            CompletableFuture<TcpRailTransport> taken = new CompletableFuture<>();
            RailInfo acceptInfo = new RailInfo("loopback/b", "loopback", link, false);
            listener = RailListener.open(loop, new InetSocketAddress(loopback, 0), b, settings,
                    hello -> hello.from().equals(a)
                            ? new RailAcceptor.Take(acceptInfo, taken::complete)
                            : new RailAcceptor.Refuse(RailHello.Status.UNKNOWN_PEER));
            TcpRailTransport connecting = RailConnector.connect(new InetSocketAddress(loopback, 0), listener.address(),
                    new RailHello(a, b, 0), new RailInfo("loopback/a", "loopback", link, false), settings, loop);
            TcpRailTransport accepting;
            try {
                accepting = taken.get(settings.connectTimeout().toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                connecting.close();
                throw new IOException("the accepting end of the loopback rail never appeared", e);
            } catch (InterruptedException e) {
                connecting.close();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while opening a loopback rail", e);
            }
            return new TcpLoopbackPair(loop, listener, connecting, accepting);
        } catch (IOException | RuntimeException e) {
            if (listener != null) {
                listener.close();
            }
            loop.close();
            throw e;
        }
    }

    /** The end that connected. */
    public TcpRailTransport a() {
        return connecting;
    }

    /** The end that accepted. */
    public TcpRailTransport b() {
        return accepting;
    }

    @Override
    public void close() {
        connecting.close();
        accepting.close();
        listener.close();
        loop.close();
    }
}
