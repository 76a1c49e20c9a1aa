package io.xdlink.xdomain.discovery;

import static io.xdlink.xdomain.discovery.Hosts.visited;
import static org.assertj.core.api.Assertions.assertThat;

import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.packet.XdpCodec;
import io.xdlink.xdomain.packet.XdpError;
import io.xdlink.xdomain.packet.XdpMessage;
import io.xdlink.xdomain.packet.XdpMessage.ErrorResponse;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateChangeRequest;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateStatusRequest;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesRequest;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesResponse;
import io.xdlink.xdomain.packet.XdpMessage.UuidRequest;
import io.xdlink.xdomain.packet.XdpType;
import io.xdlink.xdomain.property.Property;
import io.xdlink.xdomain.property.PropertyBlock;
import io.xdlink.xdomain.property.PropertyDirectory;
import io.xdlink.xdomain.service.ThunderboltNet;
import io.xdlink.xdomain.service.XdlinkService;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Two hosts over the in-memory channel in virtual time, one scenario per way a handshake can go. */
class PeerDiscoveryTest {

    @Test
    void bothDualLaneBondAndTheLowerUuidInitiates() {
        Hosts h = Hosts.gen3().start();
        long ms = h.runUntilBothEnumerated(60_000);

        assertThat(h.atA.peer().enumerated()).isTrue();
        assertThat(h.atB.peer().enumerated()).isTrue();
        assertThat(h.atA.peer().link()).isEqualTo(LinkState.of(Generation.GEN3, 2));
        assertThat(h.atA.peer().link().rateMbps()).isEqualTo(40_000);
        assertThat(h.atB.peer().bonded()).isTrue();
        // the lower UUID (A) asks for two lanes; the higher (B) waits for it
        assertThat(h.tapA.sent(LinkStateChangeRequest.class)).singleElement()
                .satisfies(r -> assertThat(r.tlw()).isEqualTo(3));
        assertThat(h.tapB.sent(LinkStateChangeRequest.class)).isEmpty();
        assertThat(visited(h.historyA, DiscoveryState.BONDING_UUID_LOW)).isTrue();
        assertThat(visited(h.historyA, DiscoveryState.LINK_STATUS2)).isTrue();
        assertThat(visited(h.historyB, DiscoveryState.BONDING_UUID_HIGH)).isTrue();
        assertThat(visited(h.historyB, DiscoveryState.LINK_STATE_CHANGE)).isFalse();
        // each side knows the other's UUID, hostname and services
        assertThat(h.atA.peer().uuid()).contains(Hosts.HIGH);
        assertThat(h.atA.peer().properties().orElseThrow().deviceName()).contains("beta");
        assertThat(h.atB.peer().properties().orElseThrow().vendorId()).isEqualTo(0x8086);
        assertThat(h.cable.end(0).secondLaneEnabled()).isTrue();
        assertThat(ms).as("virtual ms to enumerate").isLessThan(20_000);
    }

    @Test
    void rolesFollowMemcmpOfTheRawBytesNotJavaUuidOrder() {
        // 0x8... is negative as a Java long: UUID.compareTo calls it smaller, memcmp calls it larger.
        UUID negative = UUID.fromString("80000000-0000-4000-8000-000000000000");
        UUID positive = UUID.fromString("10000000-0000-4000-8000-000000000000");
        Hosts h = new Hosts(negative, positive, Generation.GEN3, TestCable.Port.dualLane(),
                TestCable.Port.dualLane()).start();
        h.runUntilBothEnumerated(60_000);
        assertThat(h.tapB.sent(LinkStateChangeRequest.class)).hasSize(1);
        assertThat(h.tapA.sent(LinkStateChangeRequest.class)).isEmpty();
        assertThat(h.atA.peer().bonded()).isTrue();
    }

    @Test
    void oneSideSingleLaneOnly() {
        Hosts h = new Hosts(Hosts.LOW, Hosts.HIGH, Generation.GEN3, TestCable.Port.dualLane(),
                TestCable.Port.singleLane()).start();
        h.runUntilBothEnumerated(60_000);

        assertThat(h.atA.peer().enumerated()).isTrue();
        assertThat(h.atB.peer().enumerated()).isTrue();
        assertThat(h.atA.peer().link()).isEqualTo(LinkState.of(Generation.GEN3, 1));
        assertThat(h.atA.peer().link().rateMbps()).isEqualTo(20_000);
        // A asked once, learned the peer has one lane, and never asked it to bond
        assertThat(h.tapA.sent(LinkStateStatusRequest.class)).hasSize(1);
        assertThat(h.tapA.sent(LinkStateChangeRequest.class)).isEmpty();
        // bonding was possible from A's port but did not happen: lane 1 goes off
        assertThat(h.cable.end(0).disables).isEqualTo(1);
        // B cannot bond at all, so it does not even ask
        assertThat(h.tapB.sent(LinkStateStatusRequest.class)).isEmpty();
    }

    @Test
    void peerAnsweringNotSupportedToLinkStateMessages() {
        // B plays an older host: link-state requests get NOT_SUPPORTED, and it never bonds itself.
        Hosts h = new Hosts(Hosts.LOW, Hosts.HIGH, Generation.GEN3, TestCable.Port.dualLane(),
                TestCable.Port.singleLane());
        h.tapB.swallowIncoming = p -> {
            XdpMessage m = XdpCodec.decode(p);
            if (m instanceof LinkStateStatusRequest || m instanceof LinkStateChangeRequest) {
                h.tapB.inject(XdpCodec.encode(new ErrorResponse(m.header().reply(), XdpError.NOT_SUPPORTED)));
                return true;
            }
            return false;
        };
        h.start();
        h.runUntilBothEnumerated(120_000);

        assertThat(h.atA.peer().enumerated()).isTrue();
        assertThat(h.atA.peer().bonded()).isFalse();
        // Linux retries NOT_SUPPORTED like any failure: the first try and 10 retries, then bonding is skipped
        List<LinkStateStatusRequest> asked = h.tapA.sent(LinkStateStatusRequest.class);
        assertThat(asked).hasSize(11);
        assertThat(asked.stream().map(r -> r.header().sequence()).toList())
                .containsExactly(2, 1, 0, 3, 2, 1, 0, 3, 2, 1, 0);
        assertThat(h.tapA.sent(LinkStateChangeRequest.class)).isEmpty();
    }

    @Test
    void loopBackToTheSameHostIsNeverBonded() {
        Hosts h = Hosts.gen3();
        XdomainHost self = h.a;
        // one host, its two ports cabled to each other
        Tap one = new Tap(h.channels[0]);
        Tap other = new Tap(h.channels[1]);
        TestCable cable = new TestCable(h.scheduler, Generation.GEN3, TestCable.Port.dualLane(),
                TestCable.Port.dualLane());
        PeerDiscovery p1 = self.connect("0-1", 1, one, cable.end(0));
        PeerDiscovery p3 = self.connect("0-3", 3, other, cable.end(1));
        p1.start();
        p3.start();
        h.runUntil(x -> p1.peer().enumerated() && p3.peer().enumerated(), 60_000);

        assertThat(p1.peer().enumerated()).isTrue();
        assertThat(p1.peer().loop()).isTrue();
        assertThat(p1.peer().uuid()).contains(Hosts.LOW);
        assertThat(p1.peer().bonded()).isFalse();
        assertThat(one.sent(LinkStateStatusRequest.class)).isEmpty();
        assertThat(p1.peer().properties().orElseThrow().deviceName()).contains("alpha");
    }

    @Test
    void peerThatNeverAnswersEndsInErrorAfterTheRetriesAndRestartsOnItsUuidRequest() {
        Hosts h = Hosts.gen3();
        h.channels[1].dropEverything(true);
        h.atA.start();
        long ms = h.runUntil(x -> x.atA.peer().state() == DiscoveryState.ERROR, 120_000);

        assertThat(h.atA.peer().state()).isEqualTo(DiscoveryState.ERROR);
        List<UuidRequest> asked = h.tapA.sent(UuidRequest.class);
        assertThat(asked).hasSize(11);
        assertThat(asked.stream().map(r -> r.header().sequence()).toList())
                .containsExactly(2, 1, 0, 3, 2, 1, 0, 3, 2, 1, 0);
        // INIT at 100 ms, UUID at 200 ms, 11 tries of 1 s each with 1 s between them
        assertThat(ms).isEqualTo(100 + 100 + 10 * 2000 + 1000);
        assertThat(h.atA.peer().lastError().orElseThrow()).contains("TIMEOUT");
        h.run(30_000);
        assertThat(h.tapA.sent).hasSize(11); // stopped: nothing more goes out

        // the peer comes to life; its UUID request starts A's handshake again
        h.channels[1].dropEverything(false);
        h.atB.start();
        h.runUntilBothEnumerated(60_000);
        assertThat(h.atA.peer().enumerated()).isTrue();
        assertThat(h.atA.peer().bonded()).isTrue();
    }

    @Test
    void replacedPeerIsReported() {
        Hosts h = Hosts.gen3().start();
        h.runUntilBothEnumerated(60_000);
        // B goes away; its last words announce new properties, which A then fails to read and stops in ERROR
        h.atB.stop();
        h.tapB.inject(XdpCodec.encode(new XdpMessage.PropertiesChangedRequest(
                io.xdlink.xdomain.packet.XdpHeader.of(3, 2), Hosts.HIGH)));
        h.runUntil(x -> x.atA.peer().state() == DiscoveryState.ERROR, 60_000);
        assertThat(h.atA.peer().state()).isEqualTo(DiscoveryState.ERROR);
        assertThat(h.atA.peer().replaced()).isFalse();

        // another host is plugged into the same cable and asks A for its UUID: A starts again and sees the change
        UUID other = UUID.fromString("22222222-0000-4000-8000-000000000003");
        XdomainHost c = new XdomainHost(h.scheduler, other, new io.xdlink.xdomain.service.ServiceRegistry(
                io.xdlink.xdomain.service.HostIdentity.linux("gamma"), 1));
        PeerDiscovery atC = c.connect("0-3", 3, new Tap(h.channels[1]), h.cable.end(1));
        atC.start();
        h.runUntil(x -> x.atA.peer().replaced(), 30_000);

        assertThat(h.atA.peer().replaced()).isTrue();
        assertThat(h.atA.peer().state()).isEqualTo(DiscoveryState.ERROR);
        assertThat(h.atA.peer().uuid()).contains(Hosts.HIGH);
        assertThat(h.atA.peer().lastError().orElseThrow()).contains("replaced").contains(other.toString());
    }

    @Test
    void gen4IsBondedWithoutNegotiation() {
        Hosts h = new Hosts(Hosts.LOW, Hosts.HIGH, Generation.GEN4, TestCable.Port.dualLane(),
                TestCable.Port.dualLane()).start();
        h.runUntilBothEnumerated(60_000);
        assertThat(h.atA.peer().link()).isEqualTo(LinkState.of(Generation.GEN4, 2));
        assertThat(h.atA.peer().link().rateMbps()).isEqualTo(80_000);
        assertThat(h.tapA.sent(LinkStateStatusRequest.class)).isEmpty();
        assertThat(h.tapB.sent(LinkStateStatusRequest.class)).isEmpty();
        assertThat(visited(h.historyA, DiscoveryState.LINK_STATUS)).isFalse();
    }

    @Test
    void fixedLanesAreReportedAndNeverNegotiated() {
        Hosts h = Hosts.gen3();
        LinkState kernel = LinkState.of(Generation.GEN3, 2);
        var tapA = new Tap(h.channels[0]);
        var tapB = new Tap(h.channels[1]);
        PeerDiscovery a = h.a.connect("0-1", 1, tapA, io.xdlink.xdomain.LaneAdapter.fixed(kernel));
        PeerDiscovery b = h.b.connect("0-3", 3, tapB, io.xdlink.xdomain.LaneAdapter.fixed(kernel));
        a.start();
        b.start();
        h.runUntil(x -> a.peer().enumerated() && b.peer().enumerated(), 60_000);
        assertThat(a.peer().link()).isEqualTo(kernel);
        assertThat(b.peer().bonded()).isTrue();
        assertThat(tapA.sent(LinkStateStatusRequest.class)).isEmpty();
        assertThat(tapB.sent(LinkStateStatusRequest.class)).isEmpty();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> io.xdlink.xdomain.LaneAdapter.fixed(
                new LinkState(20_000, 2, 40_000, 2))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void bondingRefusedByOneControllerFallsBackToOneLaneAfterTenSeconds() {
        Hosts h = new Hosts(Hosts.LOW, Hosts.HIGH, Generation.GEN3, TestCable.Port.dualLane(),
                TestCable.Port.refusing()).start();
        long ms = h.runUntilBothEnumerated(120_000);

        assertThat(h.atA.peer().enumerated()).isTrue();
        assertThat(h.atB.peer().enumerated()).isTrue();
        assertThat(h.atA.peer().link()).isEqualTo(LinkState.of(Generation.GEN3, 1));
        assertThat(h.atA.peer().lastError().orElseThrow()).contains("10 s");
        assertThat(h.atB.peer().lastError().orElseThrow()).contains("10 s");
        assertThat(ms).isGreaterThan(10_000);
        assertThat(h.cable.end(0).disables).isEqualTo(1);
        assertThat(h.cable.end(1).disables).isEqualTo(1);
    }

    @Test
    void blockLongerThan45DwordsIsReadInChunksOnOneSequenceNumber() {
        Hosts h = Hosts.gen3();
        List<Property> extra = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            extra.add(new Property.Immediate("rail" + i, i));
        }
        h.b.services().register(ThunderboltNet.KEY, ThunderboltNet.directory());
        h.b.services().register(XdlinkService.KEY, XdlinkService.directory(XdlinkService.RAIL_TCP, extra));
        int[] served = h.atB.localBlock();
        assertThat(served.length).isBetween(91, 135);
        h.start();
        h.runUntilBothEnumerated(60_000);

        assertThat(h.atA.peer().enumerated()).isTrue();
        assertThat(h.atA.peer().properties().orElseThrow().root()).isEqualTo(PropertyBlock.parse(served));
        List<PropertiesRequest> reads = h.tapA.sent(PropertiesRequest.class);
        assertThat(reads.stream().map(PropertiesRequest::offset).toList()).containsExactly(0, 45, 90);
        assertThat(reads.stream().map(r -> r.header().sequence()).distinct().toList()).hasSize(1);
        List<PropertiesResponse> chunks = h.tapB.sent(PropertiesResponse.class);
        assertThat(chunks.stream().map(PropertiesResponse::dataDwords).toList())
                .containsExactly(45, 45, served.length - 90);
        assertThat(h.atA.peer().services()).extracting(s -> s.name() + " " + s.key())
                .containsExactly("0-1.0 network", "0-1.1 xdlink");
    }

    @Test
    void blocksEndingInOneOrTwoDwordChunksAreRead() {
        for (int tail = 1; tail <= 2; tail++) {
            Hosts h = Hosts.gen3();
            PropertyDirectory dir = new PropertyDirectory(XdlinkService.DIRECTORY_UUID, List.of());
            h.b.services().register("pad", dir);
            int length = h.atB.localBlock().length;
            // grow the block with data until it is 45 + tail dwords
            int need = 45 + tail - length - 4;
            h.b.services().unregister("pad", dir);
            h.b.services().register("pad", new PropertyDirectory(XdlinkService.DIRECTORY_UUID,
                    List.of(Property.Data.of("fill", new byte[need * 4]))));
            assertThat(h.atB.localBlock()).hasSize(45 + tail);
            h.start();
            h.runUntilBothEnumerated(60_000);
            assertThat(h.atA.peer().enumerated()).as("block of %d dwords", 45 + tail).isTrue();
            assertThat(h.tapB.sent(PropertiesResponse.class).getLast().dataDwords()).isEqualTo(tail);
        }
    }

    @Test
    void propertiesChangingMidReadNeverYieldATornBlock() {
        Hosts h = Hosts.gen3();
        List<Property> extra = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            extra.add(new Property.Immediate("rail" + i, i));
        }
        h.b.services().register(XdlinkService.KEY, XdlinkService.directory(XdlinkService.RAIL_TCP, extra));
        // the moment B sends A the first chunk, a service appears on B
        boolean[] changed = {false};
        h.tapB.onSend = m -> {
            if (m instanceof PropertiesResponse r && r.offset() == 0 && !changed[0]) {
                changed[0] = true;
                h.b.services().register(ThunderboltNet.KEY, ThunderboltNet.directory());
            }
        };
        List<Peer.RemoteProperties> accepted = new ArrayList<>();
        h.atA.addListener(p -> p.properties().filter(r -> !accepted.contains(r)).ifPresent(accepted::add));
        h.start();
        h.runUntil(x -> x.atA.peer().service(ThunderboltNet.KEY).isPresent(), 60_000);

        assertThat(changed[0]).isTrue();
        assertThat(h.historyA).anySatisfy(p -> assertThat(p.lastError()).hasValueSatisfying(
                e -> assertThat(e).contains("TORN")));
        assertThat(h.tapA.sent(PropertiesRequest.class).stream().filter(r -> r.offset() == 0)).hasSizeGreaterThan(1);
        assertThat(h.atA.peer().enumerated()).isTrue();
        assertThat(h.atA.peer().service(ThunderboltNet.KEY)).isPresent();
        assertThat(h.atA.peer().properties().orElseThrow().root()).isEqualTo(PropertyBlock.parse(h.atB.localBlock()));
        // every block A ever accepted is one B served whole under that generation
        assertThat(accepted).allSatisfy(r -> assertThat(r.generation()).isEqualTo(h.b.services().generation()));
    }

    @Test
    void servicesAppearAndGoWhenThePeerPublishesAndWithdraws() {
        Hosts h = Hosts.gen3().start();
        h.runUntilBothEnumerated(60_000);
        assertThat(h.atA.peer().services()).isEmpty();

        PropertyDirectory xdlink = XdlinkService.directory(XdlinkService.RAIL_TCP | XdlinkService.E2E);
        h.b.services().register(XdlinkService.KEY, xdlink);
        h.runUntil(x -> x.atA.peer().service(XdlinkService.KEY).isPresent(), 10_000);
        var service = h.atA.peer().service(XdlinkService.KEY).orElseThrow();
        assertThat(service.name()).isEqualTo("0-1.0");
        assertThat(service.prtcstns()).isEqualTo(XdlinkService.RAIL_TCP | XdlinkService.E2E);
        assertThat(service.modalias()).isEqualTo("tbsvc:kxdlinkp00000001v00000001r00000000");
        assertThat(h.tapB.sent(XdpMessage.PropertiesChangedRequest.class)).isNotEmpty();

        h.b.services().unregister(XdlinkService.KEY, xdlink);
        h.runUntil(x -> x.atA.peer().services().isEmpty(), 10_000);
        assertThat(h.atA.peer().services()).isEmpty();
    }

    @Test
    void stopMidHandshakeFreesTheHostsQueueAndGoesQuiet() {
        Hosts h = Hosts.gen3();
        h.channels[1].dropEverything(true);
        h.atA.start();
        h.run(700); // A waits for a UUID answer
        h.atA.stop();
        h.run(60_000);
        assertThat(h.tapA.sent).hasSize(1);
        assertThat(h.scheduler.pending()).isZero();
    }

    @Test
    void responseTypesThatDoNotMatchAreIgnored() {
        Hosts h = Hosts.gen3();
        // B answers A's UUID request with a PROPERTIES_CHANGED_RESPONSE first: Linux would misread it
        h.tapB.swallowIncoming = p -> {
            XdpMessage m = XdpCodec.decode(p);
            if (m instanceof UuidRequest && h.tapA.sent(UuidRequest.class).size() == 1) {
                h.tapB.inject(XdpCodec.encode(new XdpMessage.PropertiesChangedResponse(m.header().reply())));
                return true;
            }
            return false;
        };
        h.start();
        h.runUntilBothEnumerated(60_000);
        assertThat(h.atA.peer().uuid()).contains(Hosts.HIGH);
        assertThat(h.tapA.sent(UuidRequest.class)).hasSize(2);
        assertThat(XdpType.UUID_RESPONSE.isRequest()).isFalse();
    }

    /** The words of the {@code network} directory inside a served block (its UUID and entries). */
    private static int[] networkWords(int[] block) {
        for (int at = 2; at < 2 + block[1]; at += 4) {
            if (block[at] == 0x6e657477 && block[at + 1] == 0x6f726b00 && block[at + 2] >>> 24 == 'D') {
                return java.util.Arrays.copyOfRange(block, block[at + 3], block[at + 3] + (block[at + 2] & 0xFFFF));
            }
        }
        throw new AssertionError("no network directory");
    }

    @Test
    void networkAndXdlinkCoexistAcrossTenXdlinkCycles() {
        Hosts h = Hosts.gen3();
        h.b.services().register(ThunderboltNet.KEY, ThunderboltNet.directory());
        List<Integer> ipPackets = new ArrayList<>();
        h.a.protocolHandlers().register(ThunderboltNet.PROTOCOL_UUID, (p, c) -> ipPackets.add(p.length()));
        h.start();
        h.runUntilBothEnumerated(60_000);
        int[] network = networkWords(h.atB.localBlock());
        assertThat(network).hasSize(20);
        var networkAtA = h.atA.peer().service(ThunderboltNet.KEY).orElseThrow();
        assertThat(networkAtA.name()).isEqualTo("0-1.0");
        assertThat(networkAtA.prtcstns()).isEqualTo(7);
        assertThat(ThunderboltNet.MATCH.matches(networkAtA)).isTrue();
        int generation = h.b.services().generation();

        for (int cycle = 0; cycle < 10; cycle++) {
            PropertyDirectory xdlink = XdlinkService.directory(XdlinkService.RAIL_TCP | XdlinkService.E2E);
            h.b.services().register(XdlinkService.KEY, xdlink);
            List<Integer> xdlinkPackets = new ArrayList<>();
            io.xdlink.xdomain.service.ProtocolHandler handler = (p, c) -> xdlinkPackets.add(p.length());
            h.a.protocolHandlers().register(XdlinkService.PROTOCOL_UUID, handler);
            h.runUntil(x -> x.atA.peer().service(XdlinkService.KEY).isPresent(), 10_000);

            var xdlinkAtA = h.atA.peer().service(XdlinkService.KEY).orElseThrow();
            assertThat(xdlinkAtA.name()).as("cycle %d", cycle).isEqualTo("0-1.1");
            assertThat(XdlinkService.MATCH.matches(xdlinkAtA)).isTrue();
            assertThat(h.atA.peer().service(ThunderboltNet.KEY)).contains(networkAtA);
            assertThat(networkWords(h.atB.localBlock())).as("cycle %d", cycle).containsExactly(network);
            // packets of both protocols reach their own handlers while both services are up
            h.tapB.inject(servicePacket(ThunderboltNet.PROTOCOL_UUID));
            h.tapB.inject(servicePacket(XdlinkService.PROTOCOL_UUID));
            h.run(10);
            assertThat(xdlinkPackets).hasSize(1);

            h.a.protocolHandlers().unregister(XdlinkService.PROTOCOL_UUID, handler);
            h.b.services().unregister(XdlinkService.KEY, xdlink);
            h.runUntil(x -> x.atA.peer().service(XdlinkService.KEY).isEmpty(), 10_000);
            assertThat(h.atA.peer().service(XdlinkService.KEY)).isEmpty();
            assertThat(h.atA.peer().service(ThunderboltNet.KEY)).contains(networkAtA);
            assertThat(networkWords(h.atB.localBlock())).containsExactly(network);
        }
        assertThat(ipPackets).hasSize(10);
        assertThat(h.b.services().generation()).isEqualTo(generation + 20);
        assertThat(h.atA.peer().enumerated()).isTrue();
        assertThat(h.atA.peer().bonded()).isTrue();
    }

    private static byte[] servicePacket(UUID protocol) {
        int[] words = new int[10];
        words[1] = 3;
        words[2] = 7;
        io.xdlink.xdomain.packet.UuidWords.put(words, 3, protocol);
        return io.xdlink.xdomain.packet.ControlFrame.encode(words);
    }
}
