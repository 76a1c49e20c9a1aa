package io.xdlink.rails.tcp;

import io.xdlink.rails.RailInfo;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * A rail's congestion control: set and read back on real loopback sockets, the rails' own set-up giving both ends the
 * one asked for, the host's default left alone when none is asked for, and the ways a name is refused (the rail still
 * opens, and the refusal is told).
 */
class CongestionControlTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    /** Always built into Linux and always allowed to an unprivileged process. */
    private static final String RENO = "reno";

    /** The host's default, as a fresh socket has it; the test is skipped where it cannot be read. */
    private static String hostDefault() throws IOException {
        try (SocketChannel ch = SocketChannel.open()) {
            ch.bind(new InetSocketAddress(LOOPBACK, 0));
            Optional<String> cc = CongestionControl.of(ch);
            assumeThat(cc).as("this platform reads TCP_CONGESTION").isPresent();
            return cc.orElseThrow();
        }
    }

    @Test
    void aConnectedSocketTakesTheNameAndReportsIt() throws IOException {
        hostDefault();
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(LOOPBACK, 0));
             SocketChannel client = SocketChannel.open(server.getLocalAddress());
             SocketChannel accepted = server.accept()) {
            assertThat(CongestionControl.set(client, RENO)).isEmpty();
            assertThat(CongestionControl.of(client)).contains(RENO);
            // Its peer, the accepted socket, is a socket of its own.
            assertThat(CongestionControl.of(accepted)).contains(hostDefault());
        }
    }

    @Test
    void aNameTheKernelLacksIsRefusedWithItsReasonAndTheSocketKeepsWhatItHad() throws IOException {
        String before = hostDefault();
        try (SocketChannel ch = SocketChannel.open()) {
            ch.bind(new InetSocketAddress(LOOPBACK, 0));
            assertThat(CongestionControl.set(ch, "xdlnosuchcc")).hasValueSatisfying(why -> assertThat(why)
                    .contains("TCP_CONGESTION, xdlnosuchcc").contains("ENOENT"));
            assertThat(CongestionControl.of(ch)).contains(before);
        }
    }

    @Test
    void namesThatAreNoNamesAreRefusedBeforeAnyCall() throws IOException {
        try (SocketChannel ch = SocketChannel.open()) {
            ch.bind(new InetSocketAddress(LOOPBACK, 0));
            for (String bad : List.of("", "a-name-far-too-long", "cu bic", "cubic\n", "c\u00fcbic", "\u0000")) {
                assertThat(CongestionControl.set(ch, bad)).as(bad).hasValueSatisfying(why -> assertThat(why)
                        .contains("is not a name of 1..15 printable characters"));
            }
        }
    }

    @Test
    void anUnboundSocketIsRefusedWithTheReason() throws IOException {
        try (SocketChannel ch = SocketChannel.open()) {
            assertThat(CongestionControl.set(ch, RENO)).hasValueSatisfying(why -> assertThat(why)
                    .contains("not bound to a local address"));
        }
    }

    @Test
    void bothEndsOfARailTakeTheSettingsName() throws IOException {
        hostDefault();
        TcpSettings settings = TcpSettings.defaults().withCongestionControl(RENO);
        try (TcpLoopbackPair pair = TcpLoopbackPair.open(settings, TcpRailTransportTest.LINK)) {
            assertThat(CongestionControl.of(pair.a().channel())).contains(RENO);
            assertThat(CongestionControl.of(pair.b().channel())).contains(RENO);
        }
    }

    @Test
    void railsTakeCubicByDefaultAndTheHostsDefaultWhenAskedForNone() throws IOException {
        String host = hostDefault();
        try (TcpLoopbackPair pair = TcpLoopbackPair.open(TcpSettings.defaults(), TcpRailTransportTest.LINK)) {
            assumeThat(CongestionControl.of(pair.a().channel())).as("this kernel has cubic").contains("cubic");
            assertThat(CongestionControl.of(pair.b().channel())).contains("cubic");
        }
        try (TcpLoopbackPair pair = TcpLoopbackPair.open(TcpSettings.defaults().withCongestionControl(""),
                TcpRailTransportTest.LINK)) {
            assertThat(CongestionControl.of(pair.a().channel())).contains(host);
            assertThat(CongestionControl.of(pair.b().channel())).contains(host);
        }
    }

    @Test
    void aRailWhoseNameIsRefusedStillOpensWithTheHostsDefaultAndBothEndsSayWhy() throws Exception {
        String host = hostDefault();
        TcpSettings settings = TcpSettings.defaults().withCongestionControl("xdlnosuchcc");
        List<String> notes = new CopyOnWriteArrayList<>();
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        CompletableFuture<TcpRailTransport> taken = new CompletableFuture<>();
        try (IoLoop loop = new IoLoop("cc-test");
             TcpListener listener = RailListener.open(loop, new InetSocketAddress(LOOPBACK, 0), null, notes::add, b,
                     settings, hello -> new RailAcceptor.Take(new RailInfo("b", "loopback", TcpRailTransportTest.LINK,
                             false), taken::complete));
             TcpRailTransport connecting = RailConnector.connect(new InetSocketAddress(LOOPBACK, 0), null, notes::add,
                     listener.address(), new RailHello(a, b, 0),
                     new RailInfo("a", "loopback", TcpRailTransportTest.LINK, false), settings, loop);
             TcpRailTransport accepting = taken.get(10, TimeUnit.SECONDS)) {
            assertThat(connecting.isOpen()).isTrue();
            assertThat(accepting.isOpen()).isTrue();
            assertThat(CongestionControl.of(connecting.channel())).contains(host);
            assertThat(CongestionControl.of(accepting.channel())).contains(host);
            assertThat(notes).hasSize(2).allSatisfy(n -> assertThat(n).contains("ENOENT"));
            assertThat(notes).anySatisfy(n -> assertThat(n).startsWith("rail a to ")
                            .contains(": kept the host's congestion control: "))
                    .anySatisfy(n -> assertThat(n).startsWith("listener ")
                            .contains(": rails it accepts keep the host's congestion control: "));
        }
    }

    @Test
    void aNameRailsCannotTakeIsWarnedOfOnceAsTheFabricOpensAndUsableOnesAreNot() throws IOException {
        hostDefault();
        assertThat(CongestionControl.unusable(RENO)).isEmpty();
        assertThat(CongestionControl.unusable("")).isEmpty();
        assertThat(CongestionControl.unusable("cubci")).hasValueSatisfying(w -> assertThat(w)
                .startsWith("tcp_congestion=cubci: setsockopt(TCP_CONGESTION, cubci) failed: errno 2 (ENOENT")
                .endsWith("; rails keep the host's default congestion control"));
        assertThat(CongestionControl.unusable("cu bic")).hasValueSatisfying(w -> assertThat(w)
                .contains("is not a name of 1..15 printable characters"));
    }

    @Test
    void optionBytesReadBackStopAtTheirFirstZeroWhateverTheyHold() {
        assertThat(SocketCalls.cString(new byte[0])).isEmpty();
        assertThat(SocketCalls.cString(new byte[] {0, 'x'})).isEmpty();
        // No terminator within the buffer: all of it, as a truncated answer would be.
        assertThat(SocketCalls.cString("cubic".getBytes(java.nio.charset.StandardCharsets.US_ASCII)))
                .isEqualTo("cubic");
        assertThat(SocketCalls.cString(new byte[] {'b', 'b', 'r', 0, 'j', 'u', 'n', 'k'})).isEqualTo("bbr");
    }
}
