package io.xdlink.rails.tcp;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.MembershipKey;
import java.nio.channels.SelectionKey;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.net.PortUnreachableException;

/**
 * Sends and hears {@link LinkHello}s on the links' interfaces, on one UDP port (the session listener's port number:
 * UDP and TCP ports are separate, so no parameter is added and a firewall rule for the one port covers both).
 *
 * <p>One socket, bound to the wildcard address with address reuse, hears every hello that reaches this host; a hello
 * goes out of a socket bound to the link's own address, to the IPv4 limited broadcast address (which Linux sends out
 * of the interface that owns the bound address, whatever the subnet) or to IPv6's all-nodes address scoped to the
 * link's interface. Which link a hello arrived on is the listener's business ({@link Heard}); datagrams that are
 * not a hello are counted and dropped. Confined to the loop.
 */
public final class LinkBeacon implements AutoCloseable {
    /** Largest datagram read whole; anything longer is cut there and then refused, so nothing is sized by a peer. */
    private static final int READ_BYTES = 64;
    private static final InetAddress BROADCAST = InetAddress.ofLiteral("255.255.255.255");
    private static final byte[] ALL_NODES = InetAddress.ofLiteral("ff02::1").getAddress();

    /** What a hello that arrived says; on the loop. */
    public interface Heard {
        void heard(InetSocketAddress from, LinkHello hello);

        /** A datagram on the port that is not a hello (counted, and named here so a log can say what it was). */
        void refused(InetSocketAddress from, String why);
    }

    private final int port;
    private final DatagramChannel receiver;
    private final Map<InetAddress, DatagramChannel> senders = new HashMap<>();
    /** Interfaces the receiver joined all-nodes on, with the membership. */
    private final Map<String, MembershipKey> joined = new HashMap<>();

    private LinkBeacon(int port, DatagramChannel receiver) {
        this.port = port;
        this.receiver = receiver;
    }

    /**
     * Starts hearing hellos on UDP {@code port} of every address; on the loop.
     *
     * @throws IOException naming the port when it cannot be bound
     */
    public static LinkBeacon open(IoLoop loop, int port, Heard heard) throws IOException {
        DatagramChannel ch = DatagramChannel.open();
        try {
            ch.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            ch.bind(new InetSocketAddress(port));
            ch.configureBlocking(false);
            LinkBeacon b = new LinkBeacon(port, ch);
            ByteBuffer buf = ByteBuffer.allocate(READ_BYTES);
            loop.register(ch, SelectionKey.OP_READ, new IoLoop.Handler() {
                @Override
                public void ready(SelectionKey key) throws IOException {
                    for (SocketAddress from; (from = receive(ch, buf.clear())) != null; ) {
                        InetSocketAddress src = (InetSocketAddress) from;
                        buf.flip();
                        LinkHello hello;
                        try {
                            hello = LinkHello.decode(buf);
                        } catch (StreamFormatException e) {
                            heard.refused(src, e.getMessage());
                            continue;
                        }
                        heard.heard(src, hello);
                    }
                }

                @Override
                public void failed(Exception cause) {
                    IoLoop.closeQuietly(ch);
                }
            });
            return b;
        } catch (IOException | RuntimeException e) {
            IoLoop.closeQuietly(ch);
            throw new IOException("cannot hear link hellos on UDP port " + port + ": " + e.getMessage(), e);
        }
    }

    private static SocketAddress receive(DatagramChannel ch, ByteBuffer buf) throws IOException {
        try {
            return ch.receive(buf);
        } catch (PortUnreachableException e) {
            return null; // an ICMP error for an earlier datagram: nothing to read
        }
    }

    /**
     * Sends {@code hello} out of the interface that owns {@code local} (an address of a link, with its scope when
     * IPv6 link-local); on the loop.
     *
     * @throws IOException naming the address when the datagram cannot go out (the address vanished, the interface
     *                     went down)
     */
    public void send(InetAddress local, String interfaceName, LinkHello hello) throws IOException {
        DatagramChannel ch = senders.get(local);
        try {
            if (ch == null || !ch.isOpen()) {
                ch = sender(local, interfaceName);
                senders.put(local, ch);
            }
            InetSocketAddress to;
            if (local instanceof Inet4Address) {
                to = new InetSocketAddress(BROADCAST, port);
            } else {
                NetworkInterface ni = NetworkInterface.getByName(interfaceName);
                if (ni == null) {
                    throw new IOException("no interface " + interfaceName);
                }
                InetAddress allNodes = Inet6Address.getByAddress(null, ALL_NODES, ni);
                to = new InetSocketAddress(allNodes, port);
                MembershipKey k = joined.get(interfaceName);
                if (k == null || !k.isValid()) {
                    // The JDK turns IPV6_MULTICAST_ALL off, so the receiver hears all-nodes traffic only on the
                    // interfaces it joined the group on, as the far end's hellos need.
                    joined.put(interfaceName, receiver.join(allNodes, ni));
                }
            }
            ch.send(ByteBuffer.wrap(hello.encode()), to);
        } catch (IOException | RuntimeException e) {
            if (ch != null) {
                IoLoop.closeQuietly(ch);
            }
            senders.remove(local);
            throw new IOException("cannot send a link hello from " + local.getHostAddress() + " ("
                    + interfaceName + "): " + e.getMessage(), e);
        }
    }

    private static DatagramChannel sender(InetAddress local, String interfaceName) throws IOException {
        boolean v4 = local instanceof Inet4Address;
        DatagramChannel ch = DatagramChannel.open(v4 ? StandardProtocolFamily.INET : StandardProtocolFamily.INET6);
        try {
            ch.configureBlocking(false);
            if (v4) {
                ch.setOption(StandardSocketOptions.SO_BROADCAST, true);
            } else {
                NetworkInterface ni = NetworkInterface.getByName(interfaceName);
                if (ni != null) {
                    ch.setOption(StandardSocketOptions.IP_MULTICAST_IF, ni);
                }
            }
            ch.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, false);
            ch.bind(new InetSocketAddress(local, 0));
            return ch;
        } catch (IOException | RuntimeException e) {
            IoLoop.closeQuietly(ch);
            throw e;
        }
    }

    /** Closes the senders of addresses no longer in {@code keep}, and leaves the interfaces not in {@code on}. */
    public void retain(Set<InetAddress> keep, Set<String> on) {
        joined.entrySet().removeIf(e -> {
            if (on.contains(e.getKey())) {
                return false;
            }
            e.getValue().drop();
            return true;
        });
        senders.entrySet().removeIf(e -> {
            if (keep.contains(e.getKey())) {
                return false;
            }
            IoLoop.closeQuietly(e.getValue());
            return true;
        });
    }

    /** The UDP port hellos use. */
    public int port() {
        return port;
    }

    @Override
    public void close() {
        senders.values().forEach(IoLoop::closeQuietly);
        senders.clear();
        IoLoop.closeQuietly(receiver);
    }
}
