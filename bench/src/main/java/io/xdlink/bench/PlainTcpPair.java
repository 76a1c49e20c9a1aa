package io.xdlink.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * The baseline every TCP figure is held against: two plain sockets joined over 127.0.0.1, with nothing of xdlink
 * between them, set up with the same TCP_NODELAY the rails use.
 *
 * @param a the connecting end
 * @param b the accepting end
 */
record PlainTcpPair(SocketChannel a, SocketChannel b) implements AutoCloseable {

    static PlainTcpPair open() throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel a = SocketChannel.open(server.getLocalAddress());
            SocketChannel b = server.accept();
            for (SocketChannel c : new SocketChannel[] {a, b}) {
                c.setOption(StandardSocketOptions.TCP_NODELAY, true);
            }
            return new PlainTcpPair(a, b);
        }
    }

    @Override
    public void close() throws IOException {
        a.close();
        b.close();
    }
}
