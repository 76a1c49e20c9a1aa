package io.xdlink.rails.host;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.xdlink.rails.testing.Closer;
import io.xdlink.rails.LinkInfo;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.tcp.TcpSettings;
import io.xdlink.xdomain.ControlChannel;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.packet.XdpCodec;
import io.xdlink.xdomain.packet.XdpHeader;
import io.xdlink.xdomain.packet.XdpMessage;
import io.xdlink.xdomain.sysfs.SysfsFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Two hosts in one process, each with a fake sysfs tree whose links run over the loopback interface. */
class HostFabricTest {
    static final UUID A = UUID.fromString("11111111-0000-0000-0000-000000000001");
    static final UUID B = UUID.fromString("22222222-0000-0000-0000-000000000002");
    static final LinkState GEN3_X2 = LinkState.of(Generation.GEN3, 2);
    @RegisterExtension
    final Closer closer = new Closer();

    /** A host {@code self} whose links (routes) all lead to {@code peer} over {@code lo}. */
    private Path tree(UUID self, UUID peer, String... routes) {
        FileSystem fs = closer.track(Jimfs.newFileSystem(Configuration.unix()));
        Path root = fs.getPath("/");
        SysfsFixture f = SysfsFixture.create(root).domain(0, "0000:00:0d.2", self);
        for (String route : routes) {
            f.peer(0, route, peer).link(20, 2).network("lo").done();
        }
        return root;
    }

    static TcpSettings settings(Duration keepaliveTimeout) {
        return new TcpSettings(0, 0, 64 << 10, Duration.ofSeconds(20), Duration.ofMillis(10), keepaliveTimeout,
                Duration.ofMillis(20));
    }

    private HostFabric open(Path root, List<InetSocketAddress> dial, Duration keepaliveTimeout) throws IOException {
        return closer.track(HostFabric.open(new HostFabricConfig(root, 0, 0, dial, Map.of(), settings(keepaliveTimeout))));
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("still waiting for " + what);
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    /** Opens rail (link, index) on both hosts at once, as two engines would. */
    private RailTransport[] openBoth(HostFabric a, HostFabric b, String link, int index) throws Exception {
        CompletableFuture<RailTransport> atB = CompletableFuture.supplyAsync(() -> {
            try {
                return b.openRail(A, link, index);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        RailTransport atA = closer.track(a.openRail(B, link, index));
        return new RailTransport[] {atA, closer.track(atB.get(60, TimeUnit.SECONDS))};
    }

    private static void roundTrip(RailTransport from, RailTransport to, byte... bytes) {
        MemorySegment f = MemorySegment.ofArray(bytes);
        assertThat(from.offer(f)).isTrue();
        from.flush();
        List<byte[]> got = new ArrayList<>();
        await("a frame on " + to.info().name(), () -> {
            to.poll(s -> got.add(s.toArray(ValueLayout.JAVA_BYTE)), 16);
            return !got.isEmpty();
        });
        assertThat(got).containsExactly(bytes);
    }

    @Test
    void peersRailsAndControlChannelsComeUpBetweenTwoHosts() throws Exception {
        HostFabric a = open(tree(A, B, "1"), List.of(), Duration.ofSeconds(2));
        HostFabric b = open(tree(B, A, "1"), a.sessionAddresses(), Duration.ofSeconds(2));
        assertThat(a.localDomain()).isEqualTo(A);
        assertThat(a.peers()).containsExactly(new PeerInfo(B, "peer-1", List.of(new LinkInfo("0-1", "lo", GEN3_X2))));
        assertThat(a.hostRouterPciPath(B)).contains("/sys/devices/pci0000:00/0000:00:0d.2");
        assertThat(a.hostRouterPciPath(UUID.randomUUID())).isEmpty();

        RailTransport[] r0 = openBoth(a, b, "0-1", 0);
        RailTransport[] r1 = openBoth(a, b, "0-1", 1);
        assertThat(r0[0].info()).isEqualTo(new RailInfo("lo/rail0", "0-1", GEN3_X2, false, true));
        assertThat(r1[1].info()).isEqualTo(new RailInfo("lo/rail1", "0-1", GEN3_X2, false, true));
        roundTrip(r0[0], r0[1], (byte) 1, (byte) 2);
        roundTrip(r0[1], r0[0], (byte) 3);
        roundTrip(r1[0], r1[1], (byte) 4);
        assertThat(r0[1].poll(f -> { }, 16)).as("nothing crossed over between rails").isZero();

        ControlChannel ca = closer.track(a.openControl(B));
        ControlChannel cb = closer.track(b.openControl(A));
        List<XdpMessage> atB = new CopyOnWriteArrayList<>();
        cb.receiver(p -> atB.add(XdpCodec.decode(p)));
        await("both user channels open", () -> ca.isOpen() && cb.isOpen());
        ca.send(XdpCodec.encode(new XdpMessage.UuidRequest(XdpHeader.of(0, 2))));
        await("a packet on the user channel", () -> !atB.isEmpty());
        assertThat(atB.getFirst()).isInstanceOf(XdpMessage.UuidRequest.class);
        assertThat(a.recentEvents()).anySatisfy(e -> assertThat(e).startsWith("peer " + B + " up on"));
    }

    @Test
    void aSilentPeerIsFoundDeadItsRailsFailAndItsRailsReturnWithIt() throws Exception {
        HostFabric a = open(tree(A, B, "1"), List.of(), Duration.ofMillis(1500));
        HostFabric b = open(tree(B, A, "1"), a.sessionAddresses(), Duration.ofMillis(1500));
        RailTransport[] rails = openBoth(a, b, "0-1", 0);
        roundTrip(rails[0], rails[1], (byte) 9);

        CountDownLatch frozen = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        b.loop().execute(() -> {
            frozen.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(frozen.await(60, TimeUnit.SECONDS)).isTrue();
        RailClosedException[] failure = new RailClosedException[1];
        await("A's rail to fail", () -> {
            try {
                rails[0].poll(f -> { }, 16);
                return false;
            } catch (RailClosedException e) {
                failure[0] = e;
                return true;
            }
        });
        assertThat(failure[0]).hasMessageContaining("peer " + B + " lost").hasMessageContaining("keepalive timeout 1500 ms");
        assertThat(failure[0].peerLost()).as("the whole peer is gone, not just the rail").isTrue();
        assertThatThrownBy(() -> rails[0].offer(MemorySegment.ofArray(new byte[1]))).isInstanceOf(RailClosedException.class);

        release.countDown();
        // B learns it one of two ways, whichever comes first: its own keepalive finds A gone, or (when B's session
        // is back within its keepalive timeout, so B never counts A as lost) the rail A closed reads as ended. An
        // engine polls its rails all the time; here the test polls for it.
        await("B to notice and fail its rail too", () -> {
            try {
                rails[1].poll(f -> { }, 16);
            } catch (RailClosedException e) {
                return true;
            }
            return !rails[1].isOpen();
        });
        // B may still be settling its side (its keepalive, run late after the freeze, can count A as lost just
        // after B's rail ended): a rail opened in between fails with the peer, as it should, and the next one holds.
        await("the rails to return with the peer", () -> {
            try {
                RailTransport[] again = openBoth(a, b, "0-1", 0);
                roundTrip(again[1], again[0], (byte) 7);
                return true;
            } catch (RailClosedException e) {
                return false;
            } catch (Exception e) {
                if (e.getCause() instanceof RailClosedException) {
                    return false;
                }
                throw new AssertionError(e);
            }
        });
        assertThat(a.recentEvents()).anySatisfy(e -> assertThat(e).contains("lost"));
    }

    @Test
    void twoCablesToOnePeerPairUpLinkByLink() throws Exception {
        HostFabric a = open(tree(A, B, "1", "3"), List.of(), Duration.ofSeconds(2));
        HostFabric b = open(tree(B, A, "1", "3"), a.sessionAddresses(), Duration.ofSeconds(2));
        assertThat(a.peers().getFirst().links()).extracting(LinkInfo::id).containsExactly("0-1", "0-3");
        RailTransport[] one = openBoth(a, b, "0-1", 0);
        RailTransport[] three = openBoth(a, b, "0-3", 0);
        roundTrip(three[0], three[1], (byte) 3);
        roundTrip(one[0], one[1], (byte) 1);
        assertThat(three[1].info().linkId()).isEqualTo("0-3");
    }

    @Test
    void aHostThatIsNotAPeerInSysfsGetsNoSession() throws Exception {
        UUID stranger = UUID.fromString("33333333-0000-0000-0000-000000000003");
        HostFabric a = open(tree(A, B, "1"), List.of(), Duration.ofSeconds(2));
        HostFabric c = closer.track(HostFabric.open(new HostFabricConfig(tree(stranger, A, "1"), 0, 0, a.sessionAddresses(),
                Map.of(), new TcpSettings(0, 0, 64 << 10, Duration.ofMillis(500), Duration.ofMillis(10),
                Duration.ofSeconds(2), Duration.ofMillis(20)))));
        assertThatThrownBy(() -> c.openRail(A, "0-1", 0)).isInstanceOf(IOException.class);
        await("A to refuse the stranger", () -> a.recentEvents().stream()
                .anyMatch(e -> e.contains("host " + stranger) && e.contains("is not a peer of this host in sysfs")));
    }

    @Test
    void unknownLinksAndHostsWithoutUsb4AreClearErrors() throws Exception {
        HostFabric a = open(tree(A, B, "1"), List.of(), Duration.ofSeconds(2));
        assertThatThrownBy(() -> a.openRail(B, "0-9", 0)).isInstanceOf(IOException.class)
                .hasMessageStartingWith("no usable link 0-9 to peer " + B + "; usable links to it: [0-1]");
        assertThatThrownBy(() -> a.openRail(UUID.randomUUID(), "0-1", 0)).isInstanceOf(IOException.class);
        Path bare = closer.track(Jimfs.newFileSystem(Configuration.unix())).getPath("/");
        assertThatThrownBy(() -> HostFabric.open(new HostFabricConfig(bare, 0, 0, List.of(), Map.of(),
                settings(Duration.ofSeconds(1))))).isInstanceOf(IOException.class)
                .hasMessageContaining("no USB4 host under /").hasMessageContaining("set loopback=1");
    }

    @Test
    void aSessionPortAnotherProcessHoldsIsAClearErrorWhenNoLinkIsLeft() throws Exception {
        try (ServerSocketChannel other = ServerSocketChannel.open()) {
            other.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            int port = ((InetSocketAddress) other.getLocalAddress()).getPort();
            long listening = listening(LOOPBACK_V4);
            assertThatThrownBy(() -> HostFabric.open(new HostFabricConfig(tree(A, B, "1"), port, 0, List.of(),
                    Map.of(), settings(Duration.ofSeconds(2))))).isInstanceOf(IOException.class)
                    .hasMessageContaining("no link of this host is free for xdlink: link 0-1 (lo): no rails: session"
                            + " port 127.0.0.1:" + port + " (tcp_control_port) is in use, most likely by another"
                            + " xdlink process on this host");
            assertThat(listening(LOOPBACK_V4)).as("listeners left on 127.0.0.1").isEqualTo(listening);
        }
    }

    @Test
    void aLinkWhosePortIsTakenIsNamedAmongTheProblemsAndCostsNoSocketPerReadOfSysfs() throws Exception {
        InetAddress v6 = InetAddress.getByName("::1");
        assumeTrue(NetworkInterface.getByInetAddress(v6) != null, "this host's loopback has no ::1");
        try (ServerSocketChannel other = ServerSocketChannel.open()) {
            other.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            int port = ((InetSocketAddress) other.getLocalAddress()).getPort();
            // Link 0-1 on 127.0.0.1, where the port is taken; link 0-3 on ::1, where it is free.
            HostFabric a = closer.track(HostFabric.open(new HostFabricConfig(tree(A, B, "1", "3"), port, 0, List.of(),
                    Map.of("0-1", "127.0.0.1", "0-3", "::1"), settings(Duration.ofSeconds(2)))));
            assertThat(a.problems()).containsExactly("link 0-1 (127.0.0.1): no rails: session port 127.0.0.1:"
                    + port + " (tcp_control_port) is in use, most likely by another xdlink process on this host;"
                    + " processes sharing a host each need their own, and each names its peer's in tcp_peer_address"
                    + " (Address already in use)");
            assertThat(a.sessionAddresses()).containsExactly(new InetSocketAddress(v6, port));
            long listening = listening(LOOPBACK_V4);
            for (int i = 0; i < 20; i++) {
                a.peers();
            }
            a.sessionAddresses(); // the loop has run every read's reconcile by the time it answers
            assertThat(listening(LOOPBACK_V4)).as("listeners on 127.0.0.1 after 20 reads of sysfs")
                    .isEqualTo(listening);
            assertThatThrownBy(() -> a.openRail(B, "0-1", 0)).isInstanceOf(IOException.class)
                    .hasMessageContaining("usable links to it: [0-3]")
                    .hasMessageContaining("session port 127.0.0.1:" + port + " (tcp_control_port) is in use");
        }
    }

    private static final String LOOPBACK_V4 = "0100007F";

    /**
     * Sockets listening on the IPv4 address whose /proc/net/tcp form is {@code hex} (as IPv4 sockets or IPv6 ones
     * mapping it): what a leaked listener would add to.
     */
    private static long listening(String hex) throws IOException {
        long n = 0;
        for (String file : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path p = Path.of(file);
            if (!Files.exists(p)) {
                continue;
            }
            for (String line : Files.readAllLines(p)) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 3 && f[3].equals("0A")
                        && (f[1].startsWith(hex + ":") || f[1].startsWith("0000000000000000FFFF0000" + hex + ":"))) {
                    n++;
                }
            }
        }
        return n;
    }
}
