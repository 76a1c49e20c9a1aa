package io.xdlink.rails.tcp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Ties a rail's socket to the interface of its cable (Linux's {@code SO_BINDTODEVICE}), so the rail's traffic leaves
 * by that cable whatever the routing table says. Where several cables' interfaces hold addresses in one subnet, as
 * IPv4 link-local addressing gives (169.254.0.0/16 on every thunderbolt-net interface), the kernel routes by
 * destination alone and sends every rail out of the interface whose route comes first: two cables then carry what
 * one does. A socket tied to its interface sends out of it and takes only what arrives on it; a listener's accepted
 * connections inherit the tie before their first answer leaves.
 *
 * <p>Java has no socket option for it, so the option is set through {@code setsockopt} on the socket's descriptor,
 * found among the process's open descriptors ({@link SocketCalls}).
 * Since Linux 5.7 an unprivileged process may tie a socket that is not tied yet. Where it cannot (another system, an
 * older kernel without the privilege), {@link #bind} says why and the socket stays as it was.
 */
public final class InterfaceBinding {
    private static final int SOL_SOCKET = 1;
    private static final int SO_BINDTODEVICE = 25;
    /** {@code IFNAMSIZ}: an interface name and its terminating zero. */
    private static final int NAME_BYTES = 16;
    private static volatile Boolean works;

    private InterfaceBinding() {
    }

    /**
     * Ties {@code channel}, which must be bound to a local address already (and not connected yet, for a connecting
     * socket to leave by the interface from its first packet), to interface {@code device}.
     *
     * @return empty when the socket is tied, else why it is not (it is then left as it was)
     */
    public static Optional<String> bind(NetworkChannel channel, String device) {
        byte[] name = device.getBytes(StandardCharsets.US_ASCII);
        if (name.length == 0 || name.length >= NAME_BYTES) {
            return Optional.of("interface name '" + device + "' is not 1.." + (NAME_BYTES - 1) + " characters");
        }
        if (!SocketCalls.available()) {
            return Optional.of("this platform gives no setsockopt through native access");
        }
        try {
            int errno = SocketCalls.set(channel, SOL_SOCKET, SO_BINDTODEVICE, name, name.length + 1);
            return errno == 0 ? Optional.empty()
                    : Optional.of("setsockopt(SO_BINDTODEVICE, " + device + ") failed: " + describe(errno));
        } catch (IOException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** The interface {@code channel} is tied to; empty when it is tied to none or that cannot be read. */
    public static Optional<String> device(NetworkChannel channel) {
        return SocketCalls.getName(channel, SOL_SOCKET, SO_BINDTODEVICE, NAME_BYTES);
    }

    /**
     * Whether this process can tie sockets to interfaces: tried once, on a socket of its own bound to the loopback
     * interface, and remembered. Where it cannot, cables that share a subnet share one cable's traffic.
     */
    public static boolean works() {
        Boolean w = works;
        if (w == null) {
            w = probe();
            works = w;
        }
        return w;
    }

    private static boolean probe() {
        try (SocketChannel ch = SocketChannel.open()) {
            ch.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            String lo = NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress()).getName();
            return bind(ch, lo).isEmpty();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** An error setsockopt gives here, by number and name. */
    static String describe(int errno) {
        String name = switch (errno) {
            case 1 -> "EPERM: before Linux 5.7 only a privileged process may tie a socket";
            case 9 -> "EBADF";
            case 19 -> "ENODEV: no such interface";
            case 22 -> "EINVAL";
            case 92 -> "ENOPROTOOPT";
            default -> null;
        };
        return "errno " + errno + (name == null ? "" : " (" + name + ")");
    }
}
