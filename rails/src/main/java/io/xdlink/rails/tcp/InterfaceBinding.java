package io.xdlink.rails.tcp;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

/**
 * Ties a rail's socket to the interface of its cable (Linux's {@code SO_BINDTODEVICE}), so the rail's traffic leaves
 * by that cable whatever the routing table says. Where several cables' interfaces hold addresses in one subnet, as
 * IPv4 link-local addressing gives (169.254.0.0/16 on every thunderbolt-net interface), the kernel routes by
 * destination alone and sends every rail out of the interface whose route comes first: two cables then carry what
 * one does. A socket tied to its interface sends out of it and takes only what arrives on it; a listener's accepted
 * connections inherit the tie before their first answer leaves.
 *
 * <p>Java has no socket option for it, so the option is set through {@code setsockopt} on the socket's descriptor,
 * found among the process's open descriptors as the one whose local address (and peer, or none) is the channel's.
 * Since Linux 5.7 an unprivileged process may tie a socket that is not tied yet. Where it cannot (another system, an
 * older kernel without the privilege), {@link #bind} says why and the socket stays as it was.
 */
public final class InterfaceBinding {
    private static final int SOL_SOCKET = 1;
    private static final int SO_BINDTODEVICE = 25;
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;
    /** {@code struct sockaddr_storage}: room for any address family. */
    private static final int SOCKADDR_BYTES = 128;
    /** {@code IFNAMSIZ}: an interface name and its terminating zero. */
    private static final int NAME_BYTES = 16;
    private static final Path DESCRIPTORS = Path.of("/proc/self/fd");

    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Optional<Natives> NATIVES = Natives.lookUp();
    private static volatile Boolean works;

    private InterfaceBinding() {
    }

    /** The four socket calls this needs, when this platform and the JVM's native access give them. */
    private record Natives(MethodHandle getsockname, MethodHandle getpeername, MethodHandle setsockopt,
                           MethodHandle getsockopt) {
        static Optional<Natives> lookUp() {
            try {
                Linker linker = Linker.nativeLinker();
                FunctionDescriptor name = FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS);
                Linker.Option errno = Linker.Option.captureCallState("errno");
                return Optional.of(new Natives(
                        handle(linker, "getsockname", name),
                        handle(linker, "getpeername", name),
                        handle(linker, "setsockopt",
                                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT), errno),
                        handle(linker, "getsockopt",
                                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS))));
            } catch (RuntimeException | LinkageError e) {
                // Not Linux, or no native access: sockets follow the routing table.
                return Optional.empty();
            }
        }

        private static MethodHandle handle(Linker linker, String symbol, FunctionDescriptor d, Linker.Option... o) {
            return linker.downcallHandle(linker.defaultLookup().find(symbol).orElseThrow(
                    () -> new UnsupportedOperationException("the C library has no " + symbol)), d, o);
        }
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
        if (NATIVES.isEmpty()) {
            return Optional.of("this platform gives no setsockopt through native access");
        }
        try (Arena arena = Arena.ofConfined()) {
            int fd = descriptorOf(channel, arena);
            MemorySegment value = arena.allocate(NAME_BYTES);
            MemorySegment.copy(name, 0, value, JAVA_BYTE, 0, name.length);
            MemorySegment state = arena.allocate(CALL_STATE);
            int rc = (int) NATIVES.get().setsockopt().invokeExact(state, fd, SOL_SOCKET, SO_BINDTODEVICE, value,
                    name.length + 1);
            if (rc != 0) {
                int errno = (int) ERRNO.get(state, 0L);
                return Optional.of("setsockopt(SO_BINDTODEVICE, " + device + ") failed: " + describe(errno));
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of(e.getMessage());
        } catch (Throwable t) {
            return Optional.of("setsockopt(SO_BINDTODEVICE, " + device + ") failed: " + t);
        }
    }

    /** The interface {@code channel} is tied to; empty when it is tied to none or that cannot be read. */
    public static Optional<String> device(NetworkChannel channel) {
        if (NATIVES.isEmpty()) {
            return Optional.empty();
        }
        try (Arena arena = Arena.ofConfined()) {
            int fd = descriptorOf(channel, arena);
            MemorySegment value = arena.allocate(NAME_BYTES);
            MemorySegment length = arena.allocate(JAVA_INT);
            length.set(JAVA_INT, 0, NAME_BYTES);
            int rc = (int) NATIVES.get().getsockopt().invokeExact(fd, SOL_SOCKET, SO_BINDTODEVICE, value, length);
            if (rc != 0) {
                return Optional.empty();
            }
            String s = value.getString(0, StandardCharsets.US_ASCII);
            return s.isEmpty() ? Optional.empty() : Optional.of(s);
        } catch (Throwable t) {
            return Optional.empty();
        }
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

    /**
     * The descriptor of {@code channel}: the open descriptor whose local address is the channel's and whose peer is
     * the channel's remote address, or none (a listener, or a socket not connected yet). Two sockets never share
     * both, so the one found is the channel's own, which stays open while its owner holds it.
     */
    private static int descriptorOf(NetworkChannel channel, Arena arena) throws IOException {
        if (!(channel.getLocalAddress() instanceof InetSocketAddress local)) {
            throw new IOException("the socket is not bound to a local address yet");
        }
        InetSocketAddress remote = channel instanceof SocketChannel sc && sc.isConnected()
                ? (InetSocketAddress) sc.getRemoteAddress() : null;
        MemorySegment address = arena.allocate(SOCKADDR_BYTES);
        MemorySegment length = arena.allocate(JAVA_INT);
        Natives n = NATIVES.orElseThrow();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(DESCRIPTORS)) {
            for (Path p : fds) {
                int fd;
                try {
                    fd = Integer.parseInt(p.getFileName().toString());
                } catch (NumberFormatException e) {
                    continue;
                }
                if (matches(n.getsockname(), fd, address, length, local)
                        && (remote == null ? !answers(n.getpeername(), fd, address, length)
                        : matches(n.getpeername(), fd, address, length, remote))) {
                    return fd;
                }
            }
        } catch (IOException e) {
            throw new IOException("cannot list this process's descriptors in " + DESCRIPTORS + ": " + e.getMessage(),
                    e);
        }
        throw new IOException("found no descriptor of the socket bound to " + local);
    }

    /** Whether {@code call} (getsockname or getpeername) answers for {@code fd} with {@code expected}. */
    private static boolean matches(MethodHandle call, int fd, MemorySegment address, MemorySegment length,
                                   InetSocketAddress expected) {
        if (!answers(call, fd, address, length)) {
            return false;
        }
        InetSocketAddress got = parse(address, length.get(JAVA_INT, 0));
        return got != null && got.getPort() == expected.getPort()
                && Arrays.equals(plain(got.getAddress()), plain(expected.getAddress()));
    }

    private static boolean answers(MethodHandle call, int fd, MemorySegment address, MemorySegment length) {
        length.set(JAVA_INT, 0, SOCKADDR_BYTES);
        try {
            return (int) call.invokeExact(fd, address, length) == 0;
        } catch (Throwable t) {
            return false;
        }
    }

    /** A {@code struct sockaddr_in} or {@code sockaddr_in6} of {@code length} bytes; null for another family. */
    static InetSocketAddress parse(MemorySegment a, int length) {
        if (length < 2) {
            return null;
        }
        int family = Short.toUnsignedInt(a.get(JAVA_SHORT, 0));
        int port = Short.toUnsignedInt(a.get(JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), 2));
        try {
            if (family == AF_INET && length >= 8) {
                return new InetSocketAddress(InetAddress.getByAddress(a.asSlice(4, 4).toArray(JAVA_BYTE)), port);
            }
            if (family == AF_INET6 && length >= 24) {
                return new InetSocketAddress(InetAddress.getByAddress(a.asSlice(8, 16).toArray(JAVA_BYTE)), port);
            }
        } catch (UnknownHostException e) {
            return null;
        }
        return null;
    }

    /** The address's bytes, an IPv4-mapped IPv6 address as its IPv4 four (a dual-stack socket reports those). */
    private static byte[] plain(InetAddress a) {
        byte[] b = a.getAddress();
        if (a instanceof Inet6Address && b.length == 16) {
            boolean mapped = b[10] == (byte) 0xFF && b[11] == (byte) 0xFF;
            for (int i = 0; i < 10 && mapped; i++) {
                mapped = b[i] == 0;
            }
            if (mapped) {
                return Arrays.copyOfRange(b, 12, 16);
            }
        }
        return b;
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
