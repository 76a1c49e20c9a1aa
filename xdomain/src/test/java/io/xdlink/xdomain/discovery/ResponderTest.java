package io.xdlink.xdomain.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.xdlink.xdomain.Seeds;
import io.xdlink.xdomain.packet.ControlFrame;
import io.xdlink.xdomain.packet.UuidWords;
import io.xdlink.xdomain.packet.XdomainPacket;
import io.xdlink.xdomain.packet.XdpCodec;
import io.xdlink.xdomain.packet.XdpError;
import io.xdlink.xdomain.packet.XdpHeader;
import io.xdlink.xdomain.packet.XdpMessage;
import io.xdlink.xdomain.packet.XdpMessage.ErrorResponse;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateChangeRequest;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateStatusRequest;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateStatusResponse;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesChangedRequest;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesChangedResponse;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesRequest;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesResponse;
import io.xdlink.xdomain.packet.XdpMessage.UuidRequest;
import io.xdlink.xdomain.packet.XdpMessage.UuidRequestOld;
import io.xdlink.xdomain.packet.XdpMessage.UuidResponse;
import io.xdlink.xdomain.property.Property;
import io.xdlink.xdomain.property.PropertyDirectory;
import io.xdlink.xdomain.service.ThunderboltNet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Requests thrown at host A's side of a link, and the exact answers (or silences) that come back. */
class ResponderTest {
    private Hosts h;
    private final List<byte[]> answers = new ArrayList<>();

    @BeforeEach
    void setUp() {
        h = Hosts.gen3();
        h.channels[1].receiver(answers::add);
    }

    private List<XdpMessage> ask(XdpMessage request) {
        return askRaw(XdpCodec.encode(request));
    }

    private List<XdpMessage> askRaw(byte[] wire) {
        answers.clear();
        h.channels[1].send(wire);
        h.run(50);
        // A's own discovery sends requests too once started; only answers count here
        return answers.stream().map(XdpCodec::decode).filter(m -> !m.type().isRequest()).toList();
    }

    private static XdpHeader header(int sequence) {
        return XdpHeader.of(3, sequence);
    }

    @Test
    void notReadyUntilStarted() {
        assertThat(ask(new UuidRequest(header(2)))).containsExactly(new ErrorResponse(header(2),
                XdpError.NOT_READY));
        h.atA.start();
        assertThat(ask(new UuidRequest(header(2)))).containsExactly(new UuidResponse(header(2), Hosts.LOW, 3));
    }

    @Test
    void uuidRequestsOfBothTypesEchoRouteAndSequence() {
        h.atA.start();
        assertThat(ask(new UuidRequestOld(header(1)))).containsExactly(new UuidResponse(header(1), Hosts.LOW, 3));
        // a packet from the other domain has route_hi bit 31 set: it is masked off in the answer
        assertThat(ask(new UuidRequest(new XdpHeader(3, true, 3))))
                .containsExactly(new UuidResponse(header(3), Hosts.LOW, 3));
    }

    @Test
    void propertiesAnswersFollowLinux() {
        h.a.services().register(ThunderboltNet.KEY, ThunderboltNet.directory());
        List<Property> fill = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            fill.add(new Property.Immediate("k" + i, i));
        }
        h.a.services().register("more", new PropertyDirectory(UUID.randomUUID(), fill));
        h.atA.start();
        int[] block = h.atA.localBlock();
        assertThat(block.length).isGreaterThan(45);
        int generation = h.a.services().generation();

        assertThat(ask(new PropertiesRequest(header(2), Hosts.HIGH, Hosts.LOW, 45))).containsExactly(
                new PropertiesResponse(header(2), Hosts.LOW, Hosts.HIGH, 45, block.length, generation,
                        Arrays.copyOfRange(block, 45, Math.min(90, block.length))));
        // not addressed to us
        assertThat(ask(new PropertiesRequest(header(2), Hosts.HIGH, Hosts.HIGH, 0)))
                .containsExactly(new ErrorResponse(header(2), XdpError.UNKNOWN_DOMAIN));
        // past the block: silence, the requester times out
        assertThat(ask(new PropertiesRequest(header(2), Hosts.HIGH, Hosts.LOW, block.length))).isEmpty();
        // too short to hold an offset: silence
        int[] words = XdpCodec.encodeWords(new PropertiesChangedRequest(header(2), Hosts.HIGH));
        words[7] = 3;
        assertThat(askRaw(ControlFrame.encode(words))).isEmpty();
    }

    @Test
    void linkStateAnswers() {
        h.atA.start();
        assertThat(ask(new LinkStateStatusRequest(header(0))))
                .containsExactly(new LinkStateStatusResponse(header(0), 0, 0x3, 0x1, 0x5, 0xc));
        // a link state change outside BONDING_UUID_HIGH is not ready
        assertThat(ask(new LinkStateChangeRequest(header(1), 3, 0xc)))
                .containsExactly(new ErrorResponse(header(1), XdpError.NOT_READY));
    }

    @Test
    void propertiesChangedIsAcknowledged() {
        h.atA.start();
        assertThat(ask(new PropertiesChangedRequest(header(2), Hosts.HIGH)))
                .containsExactly(new PropertiesChangedResponse(header(2)));
    }

    @Test
    void unknownTypesAreNotSupported() {
        h.atA.start();
        for (int type : new int[] {0, 8, 9, 13, 99}) {
            int[] words = XdpCodec.encodeWords(new UuidRequest(header(2)));
            words[7] = type;
            assertThat(askRaw(ControlFrame.encode(words))).as("type %d", type)
                    .containsExactly(new ErrorResponse(header(2), XdpError.NOT_SUPPORTED));
        }
    }

    @Test
    void damagedPacketsAreDroppedSilently() {
        h.atA.start();
        byte[] wire = XdpCodec.encode(new UuidRequest(header(2)));
        wire[wire.length - 1] ^= 1;
        assertThat(askRaw(wire)).isEmpty();
        int[] words = XdpCodec.encodeWords(new UuidRequest(header(2)));
        words[2] = 6;
        assertThat(askRaw(ControlFrame.encode(words))).isEmpty();
    }

    @Test
    void servicePacketsGoToTheFirstHandlerThatConsumesThem() {
        h.atA.start();
        List<String> seen = new ArrayList<>();
        h.a.protocolHandlers().register(ThunderboltNet.PROTOCOL_UUID, (p, c) -> {
            seen.add("first");
            return false;
        });
        h.a.protocolHandlers().register(ThunderboltNet.PROTOCOL_UUID, (p, c) -> {
            seen.add("second " + p.header().sequence());
            return true;
        });
        h.a.protocolHandlers().register(ThunderboltNet.PROTOCOL_UUID, (p, c) -> {
            seen.add("third");
            return true;
        });
        int[] login = new int[23];
        login[1] = 1;
        login[2] = 0x0800_0014;
        UuidWords.put(login, 3, ThunderboltNet.PROTOCOL_UUID);
        assertThat(askRaw(ControlFrame.encode(login))).isEmpty();
        assertThat(seen).containsExactly("first", "second 1");
        assertThat(XdomainPacket.parse(login).protocol()).isEqualTo(ThunderboltNet.PROTOCOL_UUID);
    }

    /** Random and mutated packets at a running discovery: it answers or ignores them, and never throws. */
    @Test
    void hostilePacketsNeverBreakTheLink() {
        long seed = Seeds.seed();
        SplittableRandom r = Seeds.random(seed);
        h.atA.start();
        byte[][] seeds = {XdpCodec.encode(new UuidRequest(header(2))),
                XdpCodec.encode(new PropertiesRequest(header(1), Hosts.HIGH, Hosts.LOW, 0)),
                XdpCodec.encode(new LinkStateChangeRequest(header(0), 3, 0xc)),
                XdpCodec.encode(new PropertiesChangedRequest(header(2), Hosts.HIGH))};
        for (int i = 0; i < 20_000; i++) {
            byte[] wire = seeds[r.nextInt(seeds.length)].clone();
            int word = r.nextInt(wire.length / 4 - 1);
            wire[word * 4 + r.nextInt(4)] = (byte) r.nextInt();
            int[] words = new int[wire.length / 4 - 1];
            for (int k = 0; k < words.length; k++) {
                words[k] = (wire[k * 4] & 0xFF) << 24 | (wire[k * 4 + 1] & 0xFF) << 16
                        | (wire[k * 4 + 2] & 0xFF) << 8 | (wire[k * 4 + 3] & 0xFF);
            }
            try {
                h.channels[1].send(ControlFrame.encode(words));
                if (i % 100 == 0) {
                    h.run(10);
                }
            } catch (Throwable t) {
                throw Seeds.failure(seed, i, t);
            }
        }
        h.run(100_000);
        assertThat(ask(new UuidRequest(header(2)))).containsExactly(new UuidResponse(header(2), Hosts.LOW, 3));
    }
}
