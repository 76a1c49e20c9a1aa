package io.xdlink.rails.tcp;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Rails tied to their interface: real sockets on the loopback interface, the tie read back with {@code getsockopt},
 * an accepted socket inheriting its listener's, and the ways a tie is refused.
 */
class InterfaceBindingTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private String lo;

    @BeforeEach
    void loopbackInterface() throws IOException {
        lo = NetworkInterface.getByInetAddress(LOOPBACK).getName();
        assumeThat(InterfaceBinding.works()).as("this process can tie sockets (Linux 5.7 or later, or root)")
                .isTrue();
    }

    @Test
    void aConnectingSocketIsTiedBeforeItConnectsAndStillConnects() throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(LOOPBACK, 0));
             SocketChannel client = SocketChannel.open()) {
            client.bind(new InetSocketAddress(LOOPBACK, 0));
            assertThat(InterfaceBinding.device(client)).isEmpty();
            assertThat(InterfaceBinding.bind(client, lo)).isEmpty();
            assertThat(InterfaceBinding.device(client)).contains(lo);
            client.connect(server.getLocalAddress());
            try (SocketChannel accepted = server.accept()) {
                client.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
                ByteBuffer in = ByteBuffer.allocate(3);
                while (in.hasRemaining()) {
                    accepted.read(in);
                }
                assertThat(in.array()).containsExactly(1, 2, 3);
                // The accepted socket shares the listener's local address; it is told apart by its peer.
                assertThat(InterfaceBinding.device(accepted)).isEmpty();
                assertThat(InterfaceBinding.device(client)).contains(lo);
            }
        }
    }

    @Test
    void acceptedSocketsInheritTheirListenersTie() throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(LOOPBACK, 0));
             SocketChannel client = SocketChannel.open(server.getLocalAddress())) {
            // Connected before the tie: this connection was accepted by the kernel already and keeps no tie.
            try (SocketChannel early = server.accept()) {
                assertThat(InterfaceBinding.bind(server, lo)).isEmpty();
                assertThat(InterfaceBinding.device(server)).contains(lo);
                assertThat(InterfaceBinding.device(early)).isEmpty();
            }
            try (SocketChannel late = SocketChannel.open(server.getLocalAddress());
                 SocketChannel accepted = server.accept()) {
                assertThat(InterfaceBinding.device(accepted)).contains(lo);
                assertThat(InterfaceBinding.device(late)).isEmpty();
                assertThat(InterfaceBinding.device(client)).isEmpty();
            }
        }
    }

    @Test
    void anInterfaceThatDoesNotExistIsNamedAndTheSocketStaysUsable() throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(LOOPBACK, 0));
             SocketChannel client = SocketChannel.open()) {
            client.bind(new InetSocketAddress(LOOPBACK, 0));
            assertThat(InterfaceBinding.bind(client, "xdlnosuch0")).hasValueSatisfying(why -> assertThat(why)
                    .contains("SO_BINDTODEVICE, xdlnosuch0").contains("errno 19").contains("ENODEV"));
            assertThat(InterfaceBinding.device(client)).isEmpty();
            client.connect(server.getLocalAddress());
            assertThat(client.isConnected()).isTrue();
        }
    }

    @Test
    void hostileNamesAndUnboundSocketsAreRefusedByName() throws IOException {
        try (SocketChannel unbound = SocketChannel.open(); SocketChannel bound = SocketChannel.open()) {
            assertThat(InterfaceBinding.bind(unbound, lo)).hasValueSatisfying(why -> assertThat(why)
                    .contains("not bound to a local address"));
            bound.bind(new InetSocketAddress(LOOPBACK, 0));
            assertThat(InterfaceBinding.bind(bound, "")).hasValueSatisfying(why -> assertThat(why)
                    .contains("interface name ''"));
            assertThat(InterfaceBinding.bind(bound, "a-name-far-too-long-for-linux")).hasValueSatisfying(
                    why -> assertThat(why).contains("1..15 characters"));
            assertThat(InterfaceBinding.device(bound)).isEmpty();
        }
    }

    @Test
    void parsesBothFamiliesAndRefusesTruncatedOrForeignAddresses() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(128);
            a.set(JAVA_SHORT, 0, (short) 2);
            a.set(JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN), 2, (short) 18520);
            a.asSlice(4, 4).copyFrom(MemorySegment.ofArray(new byte[] {(byte) 169, (byte) 254, 1, 2}));
            assertThat(SocketCalls.parse(a, 16)).isEqualTo(new InetSocketAddress("169.254.1.2", 18520));
            assertThat(SocketCalls.parse(a, 7)).isNull();
            assertThat(SocketCalls.parse(a, 1)).isNull();
            a.set(JAVA_SHORT, 0, (short) 10);
            a.asSlice(8, 16).fill((byte) 0);
            a.set(JAVA_BYTE, 8, (byte) 0xfe);
            a.set(JAVA_BYTE, 9, (byte) 0x80);
            a.set(JAVA_BYTE, 23, (byte) 1);
            assertThat(SocketCalls.parse(a, 28)).isEqualTo(new InetSocketAddress("fe80::1", 18520));
            assertThat(SocketCalls.parse(a, 23)).isNull();
            a.set(JAVA_SHORT, 0, (short) 1); // AF_UNIX
            assertThat(SocketCalls.parse(a, 110)).isNull();
        }
    }
}
