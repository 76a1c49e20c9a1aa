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
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

/**
 * The C library's {@code setsockopt} and {@code getsockopt} on a channel's socket, for the Linux options Java has no
 * name for ({@link InterfaceBinding}'s {@code SO_BINDTODEVICE}, {@link CongestionControl}'s {@code TCP_CONGESTION}).
 * A channel does not give its descriptor away, so it is found among the process's open descriptors as the one whose
 * local address (and peer, or none) is the channel's. Used while a rail or listener is set up, never on a data path.
 */
final class SocketCalls {
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;
    /** {@code struct sockaddr_storage}: room for any address family. */
    private static final int SOCKADDR_BYTES = 128;
    private static final Path DESCRIPTORS = Path.of("/proc/self/fd");

    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Optional<Natives> NATIVES = Natives.lookUp();
    /**
     * The last descriptor found, so that a socket given two options in a row (a rail tied to its interface and given
     * its congestion control) is looked for among the process's descriptors once.
     */
    private static volatile Found last;

    private SocketCalls() {
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
                // Not Linux, or no native access: the options stay as the system sets them.
                return Optional.empty();
            }
        }

        private static MethodHandle handle(Linker linker, String symbol, FunctionDescriptor d, Linker.Option... o) {
            return linker.downcallHandle(linker.defaultLookup().find(symbol).orElseThrow(
                    () -> new IllegalStateException("the C library has no " + symbol)), d, o);
        }
    }

    /** Whether this platform gives the calls at all. */
    static boolean available() {
        return NATIVES.isPresent();
    }

    /**
     * Sets option {@code option} of {@code level} on {@code channel}'s socket to the first {@code length} bytes of
     * {@code value}.
     *
     * @return 0 when set, else the call's errno
     * @throws IOException when the calls are not available or the socket's descriptor cannot be found (it must be
     *                     bound to a local address)
     */
    static int set(NetworkChannel channel, int level, int option, byte[] value, int length) throws IOException {
        Natives n = natives();
        try (Arena arena = Arena.ofConfined()) {
            int fd = descriptorOf(channel, arena);
            MemorySegment v = arena.allocate(Math.max(1, value.length));
            MemorySegment.copy(value, 0, v, JAVA_BYTE, 0, value.length);
            MemorySegment state = arena.allocate(CALL_STATE);
            int rc = (int) n.setsockopt().invokeExact(state, fd, level, option, v, length);
            return rc == 0 ? 0 : Math.max(1, (int) ERRNO.get(state, 0L));
        } catch (IOException e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException("setsockopt failed: " + t, t);
        }
    }

    /**
     * The value of option {@code option} of {@code level} on {@code channel}'s socket, at most {@code capacity}
     * bytes; empty when the call fails or the socket cannot be found.
     */
    static Optional<byte[]> get(NetworkChannel channel, int level, int option, int capacity) {
        if (NATIVES.isEmpty()) {
            return Optional.empty();
        }
        try (Arena arena = Arena.ofConfined()) {
            int fd = descriptorOf(channel, arena);
            MemorySegment value = arena.allocate(capacity);
            MemorySegment length = arena.allocate(JAVA_INT);
            length.set(JAVA_INT, 0, capacity);
            int rc = (int) NATIVES.get().getsockopt().invokeExact(fd, level, option, value, length);
            if (rc != 0) {
                return Optional.empty();
            }
            int got = Math.min(capacity, Math.max(0, length.get(JAVA_INT, 0)));
            return Optional.of(value.asSlice(0, got).toArray(JAVA_BYTE));
        } catch (Throwable t) {
            return Optional.empty();
        }
    }

    /**
     * A name-valued option ({@code SO_BINDTODEVICE}, {@code TCP_CONGESTION}) of at most {@code capacity} bytes with
     * its terminating zero; empty when it is not set, or cannot be read.
     */
    static Optional<String> getName(NetworkChannel channel, int level, int option, int capacity) {
        return get(channel, level, option, capacity).map(SocketCalls::cString).filter(s -> !s.isEmpty());
    }

    /** The bytes up to the first zero, as ASCII. */
    static String cString(byte[] b) {
        int end = 0;
        while (end < b.length && b[end] != 0) {
            end++;
        }
        return new String(Arrays.copyOf(b, end), StandardCharsets.US_ASCII);
    }

    private static Natives natives() throws IOException {
        return NATIVES.orElseThrow(() -> new IOException("this platform gives no setsockopt through native access"));
    }

    /**
     * The descriptor of {@code channel}'s connected socket, or -1 where it cannot be found (no native access, another
     * platform): for a reader outside Java ({@link io.xdlink.rails.ParkedRead}). The channel keeps it open until it
     * closes.
     */
    static int descriptor(SocketChannel channel) {
        if (NATIVES.isEmpty()) {
            return -1;
        }
        try (Arena arena = Arena.ofConfined()) {
            return descriptorOf(channel, arena);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** A channel's descriptor, found while the channel had these addresses. */
    private record Found(NetworkChannel channel, InetSocketAddress local, InetSocketAddress remote, int fd) {
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
        Found f = last;
        if (f != null && f.channel() == channel && channel.isOpen() && f.local().equals(local)
                && Objects.equals(f.remote(), remote)) {
            return f.fd();
        }
        int fd = scan(local, remote, arena);
        last = new Found(channel, local, remote, fd);
        return fd;
    }

    /** The open descriptor bound to {@code local} and connected to {@code remote}, or to none when it is null. */
    private static int scan(InetSocketAddress local, InetSocketAddress remote, Arena arena) throws IOException {
        MemorySegment address = arena.allocate(SOCKADDR_BYTES);
        MemorySegment length = arena.allocate(JAVA_INT);
        Natives n = natives();
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

    /**
     * The address's bytes, an IPv4-mapped IPv6 address as its IPv4 four (a dual-stack socket reports those), and
     * either family's wildcard as none (a socket bound to no address in particular: Java may name it 0.0.0.0 where
     * the kernel says ::).
     */
    private static byte[] plain(InetAddress a) {
        if (a.isAnyLocalAddress()) {
            return new byte[0];
        }
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
}
