package io.xdlink.rails.tcp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Chooses the congestion control of a rail's socket (Linux's {@code TCP_CONGESTION}) instead of taking the host's
 * default. A rail is a cable between two hosts, not a path through a network: the only queues on it are the two
 * hosts' own, which is what a loss-based algorithm such as {@code cubic}, Linux's usual default, assumes. Under
 * {@code bbr}, which paces each socket at the rate it estimates, the segments of rails between two network
 * namespaces joined by a veth cable reached the receiver out of order, set off recoveries by retransmission and
 * stalled the stream ({@code tcp_congestion} in {@link TcpParams} gives the figures).
 *
 * <p>Java has no socket option for it, so it is set through {@code setsockopt} ({@link SocketCalls}), before the
 * connection begins: on a connecting socket once it is bound, on a listener for the sockets it accepts. A socket
 * switched once connected keeps what its first algorithm began: switched from bbr to cubic, rails went on pacing and
 * moved 1 MiB messages at 6.4 Gb/s, against 49 with cubic from the start. Where the name is not built into the
 * kernel or not in {@code net.ipv4.tcp_allowed_congestion_control} for an unprivileged process, {@link #set} says
 * why and the socket keeps the host's default.
 */
public final class CongestionControl {
    private static final int IPPROTO_TCP = 6;
    private static final int TCP_CONGESTION = 13;
    /** {@code TCP_CA_NAME_MAX}: a name and its terminating zero. */
    static final int NAME_BYTES = 16;
    private static final Map<String, Optional<String>> TRIED = new ConcurrentHashMap<>();

    private CongestionControl() {
    }

    /**
     * A warning for a host whose rails cannot take {@code name} (the {@code tcp_congestion} parameter), found by
     * setting it on a socket of this process's own, once per name; empty when they can, or when {@code name} is empty
     * (the host's default). A rail that cannot take it still opens, on the host's default, so a misspelt name would
     * otherwise pass unseen: the command line and the plugin print this once as they open a real host's fabric.
     */
    public static Optional<String> unusable(String name) {
        if (name.isEmpty()) {
            return Optional.empty();
        }
        return TRIED.computeIfAbsent(name, n -> tryOn(n).map(why -> TcpParams.CONGESTION_CONTROL.name() + "=" + n
                + ": " + why + "; rails keep the host's default congestion control"));
    }

    private static Optional<String> tryOn(String name) {
        try (SocketChannel ch = SocketChannel.open()) {
            ch.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return set(ch, name);
        } catch (IOException e) {
            return Optional.of("cannot be tried: " + e.getMessage());
        }
    }

    /**
     * Sets {@code channel}'s congestion control to {@code name}; the channel must be bound to a local address.
     *
     * @return empty when set, else why not (the socket then keeps what it had)
     */
    public static Optional<String> set(NetworkChannel channel, String name) {
        byte[] b = name.getBytes(StandardCharsets.US_ASCII);
        if (b.length == 0 || b.length >= NAME_BYTES || !name.chars().allMatch(c -> c > ' ' && c < 0x7F)) {
            return Optional.of("congestion control '" + name + "' is not a name of 1.." + (NAME_BYTES - 1)
                    + " printable characters");
        }
        try {
            int errno = SocketCalls.set(channel, IPPROTO_TCP, TCP_CONGESTION, b, b.length);
            return errno == 0 ? Optional.empty()
                    : Optional.of("setsockopt(TCP_CONGESTION, " + name + ") failed: " + describe(errno));
        } catch (IOException e) {
            return Optional.of("congestion control " + name + " not set: " + e.getMessage());
        }
    }

    /** The congestion control of {@code channel}; empty where it cannot be read. */
    public static Optional<String> of(NetworkChannel channel) {
        return SocketCalls.getName(channel, IPPROTO_TCP, TCP_CONGESTION, NAME_BYTES);
    }

    /** An error setsockopt gives for this option, by number and what it means here. */
    static String describe(int errno) {
        String meaning = switch (errno) {
            case 1 -> "EPERM: not in net.ipv4.tcp_allowed_congestion_control, which an unprivileged process may choose"
                    + " from";
            case 2 -> "ENOENT: the kernel has no such congestion control (see"
                    + " net.ipv4.tcp_available_congestion_control)";
            case 92 -> "ENOPROTOOPT: not a TCP socket, or a kernel without the option";
            default -> null;
        };
        return "errno " + errno + (meaning == null ? "" : " (" + meaning + ")");
    }
}
