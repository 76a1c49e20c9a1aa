package io.xdlink.rails.host;

import io.xdlink.rails.tcp.TcpLinkEndpoint;
import io.xdlink.rails.tcp.TcpRailDirectory;
import io.xdlink.xdomain.InMemoryControlChannel;
import io.xdlink.xdomain.VirtualScheduler;
import io.xdlink.xdomain.packet.XdpCodec;
import io.xdlink.xdomain.packet.XdpError;
import io.xdlink.xdomain.packet.XdpHeader;
import io.xdlink.xdomain.packet.XdpMessage;
import io.xdlink.xdomain.property.PropertyBlock;
import io.xdlink.xdomain.property.PropertyDirectory;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class SessionHandshakeTest {
    static final UUID A = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    static final UUID B = UUID.fromString("00000000-0000-0000-0000-00000000000b");
    static final Duration TIMEOUT = Duration.ofSeconds(5);
    final VirtualScheduler clock = new VirtualScheduler();
    final InMemoryControlChannel[] wire = InMemoryControlChannel.pair(clock, 1_000);

    /** What one side's handshake reported. */
    static final class Seen implements SessionHandshake.Outcome {
        final List<PropertyDirectory> blocks = new ArrayList<>();
        UUID peer;
        IOException failure;

        @Override
        public void block(UUID p, PropertyDirectory root) {
            peer = p;
            blocks.add(root);
        }

        @Override
        public void failed(IOException why) {
            failure = why;
        }
    }

    static int[] block(String host, int links) throws Exception {
        List<TcpLinkEndpoint> eps = new ArrayList<>();
        for (int i = 0; i < links; i++) {
            eps.add(new TcpLinkEndpoint("0-" + (i + 1), InetAddress.ofLiteral("10.0." + i + ".1"), 40000 + i, 30));
        }
        return LocalBlock.words(host, eps);
    }

    private SessionHandshake side(int end, UUID local, UUID expected, int[] words, Seen seen) {
        return new SessionHandshake(local, expected, p -> true, () -> words, () -> 1, wire[end], clock, TIMEOUT, seen);
    }

    @Test
    void eachHostReadsTheOthersWholeBlockInChunks() throws Exception {
        int[] a = block("host-a", 8);
        int[] b = block("host-b", 3);
        assertThat(a.length).as("several chunks of 45 dwords").isGreaterThan(3 * XdpMessage.PropertiesResponse.MAX_DATA);
        Seen atA = new Seen();
        Seen atB = new Seen();
        side(0, A, B, a, atA).start();
        side(1, B, null, b, atB).start();
        clock.runUntilIdle(TIMEOUT.toNanos());
        assertThat(atA.failure).isNull();
        assertThat(atB.failure).isNull();
        assertThat(atA.peer).isEqualTo(B);
        assertThat(atB.peer).isEqualTo(A);
        assertThat(PropertyBlock.format(atA.blocks.getFirst())).isEqualTo(b);
        assertThat(PropertyBlock.format(atB.blocks.getFirst())).isEqualTo(a);
        PropertyDirectory service = LocalBlock.service(atB.blocks.getFirst()).orElseThrow();
        assertThat(TcpRailDirectory.read(service)).hasSize(8);
        assertThat(atB.blocks.getFirst().text("deviceid")).contains("host-a");
    }

    @Test
    void aChangedBlockIsReadAgain() throws Exception {
        int[][] a = {block("host-a", 1)};
        Seen atA = new Seen();
        Seen atB = new Seen();
        SessionHandshake hsA = new SessionHandshake(A, B, p -> true, () -> a[0], () -> 1, wire[0], clock, TIMEOUT, atA);
        hsA.start();
        side(1, B, null, block("host-b", 1), atB).start();
        clock.runUntilIdle(TIMEOUT.toNanos());
        a[0] = block("host-a", 2);
        hsA.announceChange();
        clock.runUntilIdle(TIMEOUT.toNanos());
        assertThat(atB.blocks).hasSize(2);
        assertThat(TcpRailDirectory.read(LocalBlock.service(atB.blocks.getLast()).orElseThrow())).hasSize(2);
    }

    @Test
    void theWrongHostFailsTheHandshake() throws Exception {
        Seen atA = new Seen();
        side(0, A, UUID.randomUUID(), block("a", 1), atA).start();
        side(1, B, null, block("b", 1), new Seen()).start();
        clock.runUntilIdle(TIMEOUT.toNanos());
        assertThat(atA.failure).hasMessageContaining("answered by host " + B + ", expected");
        assertThat(atA.blocks).isEmpty();
    }

    @Test
    void talkingToItselfIsALoop() throws Exception {
        Seen atA = new Seen();
        side(0, A, null, block("a", 1), atA).start();
        side(1, A, null, block("a", 1), new Seen()).start();
        clock.runUntilIdle(TIMEOUT.toNanos());
        assertThat(atA.failure).hasMessageContaining("is this host itself");
    }

    @Test
    void aSilentPeerTimesOutInVirtualTime() throws Exception {
        Seen atA = new Seen();
        side(0, A, B, block("a", 1), atA).start();
        clock.advance(TIMEOUT.toNanos() - 1);
        assertThat(atA.failure).isNull();
        clock.advance(1);
        assertThat(atA.failure).hasMessageContaining("no answer within 5000 ms while reading the peer's UUID");
    }

    /** A scripted peer on end 1 that answers the UUID request and then whatever the test says. */
    private Seen againstScript(java.util.function.Function<XdpMessage, List<byte[]>> script) throws Exception {
        Seen atA = new Seen();
        wire[1].receiver(p -> script.apply(XdpCodec.decode(p)).forEach(wire[1]::send));
        side(0, A, B, block("a", 1), atA).start();
        clock.runUntilIdle(TIMEOUT.toNanos() * 2);
        return atA;
    }

    private static byte[] uuidAnswer(XdpMessage m) {
        return XdpCodec.encode(new XdpMessage.UuidResponse(m.header().reply(), B, 0));
    }

    @Test
    void anErrorAnswerFailsTheHandshakeNamingTheError() throws Exception {
        Seen s = againstScript(m -> List.of(m instanceof XdpMessage.UuidRequest ? uuidAnswer(m)
                : XdpCodec.encode(new XdpMessage.ErrorResponse(m.header().reply(), XdpError.NOT_READY))));
        assertThat(s.failure).hasMessageEndingWith("the peer answered NOT_READY (4)");
    }

    @Test
    void hostileChunksAreRefused() throws Exception {
        // A chunk claiming a block longer than any block may be.
        Seen tooLong = againstScript(m -> m instanceof XdpMessage.PropertiesRequest r
                ? List.of(XdpCodec.encode(new XdpMessage.PropertiesResponse(r.header().reply(), B, A, 0, 60_000, 1,
                new int[45])))
                : List.of(uuidAnswer(m)));
        assertThat(tooLong.failure).hasMessageContaining("does not fit a block of 60000 (at most 500)");
    }

    @Test
    void aMalformedBlockOrPacketFailsTheHandshake() throws Exception {
        Seen badBlock = againstScript(m -> m instanceof XdpMessage.PropertiesRequest r
                ? List.of(XdpCodec.encode(new XdpMessage.PropertiesResponse(r.header().reply(), B, A, 0, 3, 1,
                new int[] {0x12345678, 1, 0})))
                : List.of(uuidAnswer(m)));
        assertThat(badBlock.failure).hasMessageContaining("the peer's property block is malformed");

        SessionHandshakeTest fresh = new SessionHandshakeTest();
        Seen badCrc = fresh.againstScript(m -> {
            byte[] p = uuidAnswer(m);
            p[p.length - 1] ^= 1;
            return List.of(p);
        });
        assertThat(badCrc.failure).hasMessageContaining("bad XDomain packet from the peer: crc");
    }

    @Test
    void chunksThatWereNotAskedForAreIgnored() throws Exception {
        int[] real = block("b", 2);
        Seen s = againstScript(m -> {
            if (!(m instanceof XdpMessage.PropertiesRequest r)) {
                return List.of(uuidAnswer(m));
            }
            int n = Math.min(45, real.length - r.offset());
            int[] chunk = java.util.Arrays.copyOfRange(real, r.offset(), r.offset() + n);
            return List.of(
                    XdpCodec.encode(new XdpMessage.PropertiesResponse(r.header().reply(), B, A, r.offset() + 1,
                            real.length, 1, chunk)),
                    XdpCodec.encode(new XdpMessage.PropertiesResponse(r.header().reply(), UUID.randomUUID(), A,
                            r.offset(), real.length, 1, new int[n])),
                    XdpCodec.encode(new XdpMessage.PropertiesResponse(r.header().reply(), B, A, r.offset(),
                            real.length, 1, chunk)));
        });
        assertThat(s.failure).isNull();
        assertThat(PropertyBlock.format(s.blocks.getFirst())).isEqualTo(real);
    }

    @Test
    void requestsForAnotherDomainAreAnsweredUnknownDomain() throws Exception {
        List<XdpMessage> answers = new ArrayList<>();
        side(0, A, B, block("a", 1), new Seen()).start();
        wire[1].receiver(p -> {
            XdpMessage m = XdpCodec.decode(p);
            answers.add(m);
            if (m instanceof XdpMessage.UuidRequest) {
                wire[1].send(uuidAnswer(m));
            }
        });
        // Sent before A knows who B is: held until it does, then answered.
        wire[1].send(XdpCodec.encode(new XdpMessage.PropertiesRequest(XdpHeader.of(0, 2), B, UUID.randomUUID(), 0)));
        wire[1].send(XdpCodec.encode(new XdpMessage.PropertiesRequest(XdpHeader.of(0, 1), B, A, 9999)));
        wire[1].send(XdpCodec.encode(new XdpMessage.UuidRequestOld(XdpHeader.of(0, 3))));
        clock.runUntilIdle(1_000_000);
        assertThat(answers).anySatisfy(m -> assertThat(m).isEqualTo(
                new XdpMessage.ErrorResponse(XdpHeader.of(0, 2), XdpError.UNKNOWN_DOMAIN)));
        assertThat(answers).anySatisfy(m -> assertThat(m).isEqualTo(
                new XdpMessage.UuidResponse(XdpHeader.of(0, 3), A, 0)));
        assertThat(answers).noneSatisfy(m -> assertThat(m).isInstanceOf(XdpMessage.PropertiesResponse.class));
    }

    @Test
    void aRefusedHostNeverReadsTheBlock() throws Exception {
        Seen atA = new Seen();
        Seen atB = new Seen();
        new SessionHandshake(A, null, p -> false, () -> new int[0], () -> 1, wire[0], clock, TIMEOUT, atA).start();
        side(1, B, A, block("b", 1), atB).start();
        clock.runUntilIdle(TIMEOUT.toNanos() * 2);
        assertThat(atA.failure).hasMessageContaining("host " + B + " is not a peer of this host in sysfs");
        assertThat(atB.blocks).isEmpty();
        assertThat(atB.failure).hasMessageContaining("no answer within");
    }
}
