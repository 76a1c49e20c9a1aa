package io.xdlink.rails.host;

import io.xdlink.rails.testing.Closer;
import io.xdlink.rails.tcp.ControlConnection;
import io.xdlink.rails.tcp.IoLoop;
import io.xdlink.rails.tcp.TcpLinkEndpoint;
import io.xdlink.rails.tcp.TcpListener;
import io.xdlink.rails.tcp.TcpRailDirectory;
import io.xdlink.rails.tcp.TcpSettings;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LaneAdapter;
import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.discovery.XdomainHost;
import io.xdlink.xdomain.property.Property;
import io.xdlink.xdomain.service.HostIdentity;
import io.xdlink.xdomain.service.ServiceRegistry;
import io.xdlink.xdomain.service.XdlinkService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/** Discovery over a real session stream against a peer that publishes whatever a test gives it. */
class StreamDiscoveryTest {
    static final UUID US = UUID.fromString("10000000-0000-0000-0000-000000000001");
    static final UUID THEM = UUID.fromString("20000000-0000-0000-0000-000000000002");
    static final LinkState LINK = LinkState.of(Generation.GEN3, 1);
    static final HostLink VIA = new HostLink("0-1", 1, THEM, "them", "lo", LINK, Optional.empty());
    @RegisterExtension
    final Closer closer = new Closer();

    /** How one discovery ended. */
    record Result(UUID peer, List<TcpLinkEndpoint> endpoints, String refusal, boolean self) {
    }

    /**
     * Runs our side's discovery against a peer with domain {@code them} whose registry {@code publish} fills.
     */
    private Result discover(UUID them, UUID expected, java.util.function.Predicate<UUID> acceptable,
                            Consumer<ServiceRegistry> publish) throws Exception {
        IoLoop loop = new IoLoop("xdlink-test-discovery");
        closer.track(loop);
        // A keepalive far longer than discovery takes, so a busy machine cannot end the stream first.
        TcpSettings tcp = TcpSettings.defaults().withKeepalive(Duration.ofMillis(10), Duration.ofSeconds(30));
        XdomainHost peerHost = new XdomainHost(loop, them, new ServiceRegistry(HostIdentity.linux("them"), 7));
        publish.accept(peerHost.services());
        TcpListener listener = ControlConnection.listen(loop, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                tcp, () -> new ControlConnection.Listener() {
                    @Override
                    public void opened(ControlConnection c) {
                        peerHost.connect("0-1", 1, c.channel(ControlConnection.SESSION_CHANNEL, c::close),
                                LaneAdapter.fixed(LINK)).start();
                    }

                    @Override
                    public void closed(ControlConnection c, IOException cause) {
                    }
                });
        closer.track(listener);
        XdomainHost ourHost = new XdomainHost(loop, US, new ServiceRegistry(HostIdentity.linux("us"), 1));
        ourHost.services().register(XdlinkService.KEY, XdlinkService.directory(XdlinkService.RAIL_TCP));
        CompletableFuture<Result> result = new CompletableFuture<>();
        loop.execute(() -> {
            try {
                ControlConnection.connect(loop, null, listener.address(), tcp, new ControlConnection.Listener() {
                    @Override
                    public void opened(ControlConnection c) {
                        new StreamDiscovery(ourHost, c, VIA, expected, acceptable, Duration.ofSeconds(10),
                                new StreamDiscovery.Outcome() {
                                    @Override
                                    public void enumerated(ControlConnection s, UUID peer, List<TcpLinkEndpoint> eps) {
                                        result.complete(new Result(peer, eps, null, false));
                                    }

                                    @Override
                                    public void refused(ControlConnection s, String why, boolean self) {
                                        result.complete(new Result(null, null, why, self));
                                    }
                                }).start();
                    }

                    @Override
                    public void closed(ControlConnection c, IOException cause) {
                        result.complete(new Result(null, null, "closed: " + cause.getMessage(), false));
                    }
                });
            } catch (IOException e) {
                result.completeExceptionally(e);
            }
        });
        return result.get(60, TimeUnit.SECONDS);
    }

    private static List<Property> rails() throws Exception {
        return TcpRailDirectory.entries(List.of(new TcpLinkEndpoint("0-1", InetAddress.ofLiteral("127.0.0.1"), 4000, 8)));
    }

    @Test
    void aPeerPublishingTcpRailsIsEnumeratedWithThem() throws Exception {
        Result r = discover(THEM, THEM, u -> true, reg -> {
            try {
                reg.register(XdlinkService.KEY, XdlinkService.directory(XdlinkService.RAIL_TCP, rails()));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        assertThat(r.refusal()).isNull();
        assertThat(r.peer()).isEqualTo(THEM);
        assertThat(r.endpoints()).extracting(TcpLinkEndpoint::port).containsExactly(4000);
    }

    @Test
    void peersThatCannotCarryTcpRailsAreRefusedSayingWhy() throws Exception {
        assertThat(discover(THEM, null, u -> true, reg -> { }).refusal())
                .endsWith("host " + THEM + ": xdlink: the peer publishes no xdlink service; session refused");
        assertThat(discover(THEM, null, u -> true,
                reg -> reg.register(XdlinkService.KEY, XdlinkService.directory(XdlinkService.RAIL_DMA))).refusal())
                .contains("prtcstns: the peer's xdlink service offers no TCP rails (RAIL_DMA)");
        List<Property> empty = List.of(new Property.Directory("tcp0",
                new io.xdlink.xdomain.property.PropertyDirectory(TcpRailDirectory.LINK_DIRECTORY, List.of())));
        Result bad = discover(THEM, null, u -> true, reg -> reg.register(XdlinkService.KEY,
                XdlinkService.directory(XdlinkService.RAIL_TCP, empty)));
        assertThat(bad.refusal()).contains("tcp0 addr: missing");
    }

    @Test
    void theWrongHostAStrangerAndThisHostItselfAreRefused() throws Exception {
        UUID other = UUID.fromString("30000000-0000-0000-0000-000000000003");
        assertThat(discover(THEM, other, u -> true, reg -> { }).refusal())
                .endsWith("answered by host " + THEM + ", expected " + other);
        assertThat(discover(THEM, null, u -> false, reg -> { }).refusal())
                .endsWith("host " + THEM + " is not a peer of this host in sysfs; session refused");
        Result self = discover(US, null, u -> true, reg -> { });
        assertThat(self.self()).isTrue();
        assertThat(self.refusal()).endsWith("the peer is this host itself");
    }
}
