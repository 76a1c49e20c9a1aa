package io.xdlink.xdomain.packet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xdlink.xdomain.LinuxImage;
import io.xdlink.xdomain.Seeds;
import io.xdlink.xdomain.packet.XdpMessage.ErrorResponse;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateChangeRequest;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateChangeResponse;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateStatusRequest;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateStatusResponse;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesChangedRequest;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesChangedResponse;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesRequest;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesResponse;
import io.xdlink.xdomain.packet.XdpMessage.UuidRequest;
import io.xdlink.xdomain.packet.XdpMessage.UuidRequestOld;
import io.xdlink.xdomain.packet.XdpMessage.UuidResponse;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.HexFormat;
import java.util.UUID;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Every XDP message against a vector built the way Linux builds it (see {@link LinuxImage}), plus words taken from a
 * trace of a real Linux host and the UUID constants of another vendor's driver.
 */
class XdpCodecTest {
    private static final UUID XDP = UUID.fromString("b638d70e-42ff-40bb-97c2-90e2c0b2ff07");
    private static final UUID A = UUID.fromString("01234567-89ab-cdef-0011-223344556677");
    private static final UUID B = UUID.fromString("fedcba98-7654-3210-8899-aabbccddeeff");
    private static final long ROUTE = 0x0000_0003_0000_0001L;

    /** Encodes, compares with the independent image, decodes back. */
    private static void same(XdpMessage message, LinuxImage linux) {
        byte[] expected = linux.wire();
        assertThat(HexFormat.of().formatHex(XdpCodec.encode(message))).isEqualTo(HexFormat.of().formatHex(expected));
        assertThat(XdpCodec.decode(expected)).isEqualTo(message);
        assertThat(XdpCodec.decode(expected, message.pdf())).isEqualTo(message);
    }

    @Test
    void independentCrcMatchesTheStandardCheckValueAndTheJdk() {
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertThat(LinuxImage.crc32c(check, check.length)).isEqualTo(0xE306_9283);
        CRC32C jdk = new CRC32C();
        jdk.update(check);
        assertThat((int) jdk.getValue()).isEqualTo(0xE306_9283);
    }

    @Test
    void uuidRequests() {
        same(new UuidRequest(XdpHeader.of(ROUTE, 2)), new LinuxImage(32).xdpHeader(ROUTE, 2, XDP, 12));
        same(new UuidRequestOld(XdpHeader.of(ROUTE, 1)), new LinuxImage(32).xdpHeader(ROUTE, 1, XDP, 1));
    }

    @Test
    void uuidResponse() {
        same(new UuidResponse(XdpHeader.of(ROUTE, 3), A, 0x1_0000_0002L),
                new LinuxImage(56).xdpHeader(ROUTE, 3, XDP, 2).uuid(32, A).u32(48, 1).u32(52, 2));
    }

    @Test
    void propertiesRequest() {
        same(new PropertiesRequest(XdpHeader.of(ROUTE, 0), A, B, 45),
                new LinuxImage(68).xdpHeader(ROUTE, 0, XDP, 3).uuid(32, A).uuid(48, B).u16(64, 45));
    }

    @Test
    void propertiesResponse() {
        int[] data = {0x55584401, 0x00000010, 0x76656e64, 0x6f726964};
        LinuxImage linux = new LinuxImage(72 + 16).xdpHeader(ROUTE, 2, XDP, 4).uuid(32, B).uuid(48, A)
                .u16(64, 45).u16(66, 90).u32(68, 0xDEAD_BEEF);
        for (int i = 0; i < data.length; i++) {
            linux.u32(72 + 4 * i, data[i]);
        }
        same(new PropertiesResponse(XdpHeader.of(ROUTE, 2), B, A, 45, 90, 0xDEAD_BEEF, data), linux);
    }

    @Test
    void propertiesChanged() {
        same(new PropertiesChangedRequest(XdpHeader.of(ROUTE, 2), A),
                new LinuxImage(48).xdpHeader(ROUTE, 2, XDP, 5).uuid(32, A));
        same(new PropertiesChangedResponse(XdpHeader.of(ROUTE, 2)), new LinuxImage(36).xdpHeader(ROUTE, 2, XDP, 6));
    }

    @Test
    void errorResponse() {
        same(new ErrorResponse(XdpHeader.of(ROUTE, 1), XdpError.NOT_READY),
                new LinuxImage(36).xdpHeader(ROUTE, 1, XDP, 7).u32(32, 4));
        ErrorResponse unknown = (ErrorResponse) XdpCodec.decode(new LinuxImage(36).xdpHeader(ROUTE, 1, XDP, 7)
                .u32(32, 99).wire());
        assertThat(unknown.error()).isEqualTo(99);
        assertThat(unknown.known()).isEmpty();
    }

    @Test
    void linkState() {
        same(new LinkStateStatusRequest(XdpHeader.of(ROUTE, 2)), new LinuxImage(32).xdpHeader(ROUTE, 2, XDP, 15));
        same(new LinkStateStatusResponse(XdpHeader.of(ROUTE, 2), 0, 0x3, 0x1, 0x5, 0xc),
                new LinuxImage(40).xdpHeader(ROUTE, 2, XDP, 16).u32(32, 0).u8(36, 0x3).u8(37, 0x1).u8(38, 0x5)
                        .u8(39, 0xc));
        same(new LinkStateChangeRequest(XdpHeader.of(ROUTE, 2), 0x3, 0xc),
                new LinuxImage(36).xdpHeader(ROUTE, 2, XDP, 17).u8(32, 0x3).u8(33, 0xc));
        same(new LinkStateChangeResponse(XdpHeader.of(ROUTE, 2), 0),
                new LinuxImage(36).xdpHeader(ROUTE, 2, XDP, 18).u32(32, 0));
    }

    @Test
    void subFieldsSitWhereTheLittleEndianStructPutsThem() {
        int[] w = XdpCodec.encodeWords(new LinkStateStatusResponse(XdpHeader.of(1, 0), 0, 0x3, 0x1, 0x5, 0xc));
        assertThat(w[9]).isEqualTo(0x0c05_0103);
        int[] r = XdpCodec.encodeWords(new PropertiesResponse(XdpHeader.of(1, 0), A, B, 45, 90, 7, new int[0]));
        assertThat(r[16]).isEqualTo(90 << 16 | 45);
        int[] c = XdpCodec.encodeWords(new LinkStateChangeRequest(XdpHeader.of(1, 0), 3, 0xc));
        assertThat(c[8]).isEqualTo(0x0c03);
        // length 5 in bits 5:0, sequence number 2 in bits 28:27
        assertThat(XdpCodec.encodeWords(new UuidRequest(XdpHeader.of(1, 2)))[2]).isEqualTo(0x1000_0005);
    }

    @Test
    void protocolUuidWordsMatchAnotherVendorsDriver() {
        // The Windows Thunderbolt driver defines the UUIDs as these words.
        assertThat(UuidWords.toWords(XDP)).containsExactly(0x0ED738B6, 0xBB40FF42, 0xE290C297, 0x07FFB2C0);
        assertThat(UuidWords.toWords(UUID.fromString("798f589e-3616-8a47-97c6-5664a920c8dd")))
                .containsExactly(0x9E588F79, 0x478A1636, 0x6456C697, 0xDDC820A9);
        // On the wire the UUID reads 0e d7 38 b6 bb 40 ff 42 ...: each 4-byte group of b638d70e-42ff-... reversed.
        assertThat(HexFormat.of().formatHex(XdpCodec.encode(new UuidRequest(XdpHeader.of(0, 0)))))
                .startsWith("00000000" + "00000000" + "00000005" + "0ed738b6bb40ff42e290c29707ffb2c0" + "0000000c");
    }

    @Test
    void wordsFromARealLinuxTrace() {
        // tb_tx of a UUID response and a UUID request, recorded on a Linux host (intel/tbtools test data).
        int[] response = {0x00000000, 0x00000001, 0x0000000b, 0x0ed738b6, 0xbb40ff42, 0xe290c297, 0x07ffb2c0,
                0x00000002, 0x80877f49, 0x256a86f1, 0xffffffff, 0xffffffff, 0x00000000, 0x00000001};
        UuidResponse r = (UuidResponse) XdpCodec.decode(ControlFrame.encode(response));
        assertThat(r.sourceUuid()).isEqualTo(UUID.fromString("497f8780-f186-6a25-ffff-ffffffffffff"));
        assertThat(r.sourceRoute()).isEqualTo(1);
        assertThat(r.header()).isEqualTo(new XdpHeader(1, false, 0));
        assertThat(XdpCodec.encodeWords(r)).containsExactly(response);

        int[] request = {0x00000000, 0x00000001, 0x10000005, 0x0ed738b6, 0xbb40ff42, 0xe290c297, 0x07ffb2c0,
                0x0000000c};
        assertThat(XdpCodec.decodeWords(request)).isEqualTo(new UuidRequest(new XdpHeader(1, false, 2)));

        // A ThunderboltIP login received from the peer: route_hi bit 31 set, sequence number 1.
        int[] login = {0x80000000, 0x00000001, 0x08000014, 0x9e588f79, 0x478a1636, 0x6456c697, 0xddc820a9,
                0x000003d7, 0x186f7000, 0x4a0d7aa3, 0x1d925063, 0x80877f49, 0x256a86f1, 0xffffffff, 0xffffffff,
                0x00000000, 0x00000002, 0x00000001, 0x00000008, 0x00000000, 0x00000000, 0x00000000, 0x00000000};
        XdomainPacket p = XdomainPacket.parse(login);
        assertThat(p.header()).isEqualTo(new XdpHeader(1, true, 1));
        assertThat(p.protocol()).isEqualTo(UUID.fromString("798f589e-3616-8a47-97c6-5664a920c8dd"));
        assertThat(UuidWords.fromWords(login, 7)).isEqualTo(UUID.fromString("d7030000-0070-6f18-a37a-0d4a6350921d"));
        assertThatThrownBy(() -> XdpCodec.decodeWords(login)).isInstanceOf(PacketFormatException.class)
                .hasMessageStartingWith("protocol uuid");
    }

    @Test
    void inboundRouteBitIsMaskedAndKept() {
        byte[] wire = new LinuxImage(32).xdpHeader(0x8000_0000_0000_0001L, 2, XDP, 12).wire();
        XdpMessage m = XdpCodec.decode(wire);
        assertThat(m.header().route()).isEqualTo(1);
        assertThat(m.header().inbound()).isTrue();
        assertThat(XdpCodec.encode(m)).isEqualTo(wire);
        assertThat(m.header().reply()).isEqualTo(new XdpHeader(1, false, 2));
    }

    @Test
    void sequenceNumberFollowsRetriesLeft() {
        assertThat(XdpHeader.sequenceFor(10)).isEqualTo(2);
        assertThat(XdpHeader.sequenceFor(9)).isEqualTo(1);
        assertThat(XdpHeader.sequenceFor(8)).isEqualTo(0);
        assertThat(XdpHeader.sequenceFor(7)).isEqualTo(3);
    }

    @Test
    void badInputNamesTheField() {
        byte[] good = XdpCodec.encode(new UuidRequest(XdpHeader.of(1, 2)));
        byte[] crc = good.clone();
        crc[crc.length - 1] ^= 1;
        assertThatThrownBy(() -> XdpCodec.decode(crc)).isInstanceOf(PacketFormatException.class)
                .extracting(e -> ((PacketFormatException) e).field()).isEqualTo("crc");
        assertField(new byte[7], "size");
        assertField(new byte[4], "size");
        assertField(new byte[260], "size");
        int[] words = XdpCodec.encodeWords(new UuidRequest(XdpHeader.of(1, 2)));
        words[2] = 0x1000_0006;
        assertField(ControlFrame.encode(words), "length");
        words[2] = 0x1000_0005;
        words[7] = 13;
        assertField(ControlFrame.encode(words), "type");
        int[] shortResponse = XdpCodec.encodeWords(new ErrorResponse(XdpHeader.of(1, 0), 4));
        shortResponse[7] = XdpType.UUID_RESPONSE.value();
        assertField(ControlFrame.encode(shortResponse), "length");
        assertThatThrownBy(() -> XdpCodec.decode(good, Pdf.XDOMAIN_RESP)).isInstanceOf(PacketFormatException.class)
                .hasMessageStartingWith("pdf");
    }

    @Test
    void trailingWordsOnlyWhenAllowed() {
        int[] words = new int[9];
        System.arraycopy(XdpCodec.encodeWords(new UuidRequest(XdpHeader.of(1, 2))), 0, words, 0, 8);
        words[2] = 0x1000_0006;
        words[8] = 0xABCD;
        assertThatThrownBy(() -> XdpCodec.decodeWords(words)).isInstanceOf(PacketFormatException.class);
        assertThat(XdpCodec.decodeWords(words, true)).isEqualTo(new UuidRequest(XdpHeader.of(1, 2)));
    }

    /**
     * Random bytes, random valid messages and mutations of them: each either decodes (and then survives a round
     * trip) or fails with a {@link PacketFormatException} naming a field. Anything else fails the test with the seed.
     */
    @Test
    void hostileInputOnlyEverYieldsPacketFormatException() {
        long seed = Seeds.seed();
        SplittableRandom r = Seeds.random(seed);
        int decoded = 0;
        for (int i = 0; i < 120_000; i++) {
            byte[] wire;
            if (i % 10 == 0) {
                wire = new byte[r.nextInt(300)];
                r.nextBytes(wire);
            } else {
                XdpMessage m = RandomMessages.next(r);
                wire = XdpCodec.encode(m);
                if (i % 10 == 1) {
                    XdpMessage back;
                    try {
                        back = XdpCodec.decode(wire);
                    } catch (Throwable t) {
                        throw Seeds.failure(seed, i, t);
                    }
                    if (!back.equals(m)) {
                        throw Seeds.failure(seed, i, new AssertionError(back + " != " + m));
                    }
                    continue;
                }
                wire = RandomMessages.mutate(wire, r);
            }
            try {
                XdpMessage m = XdpCodec.decode(wire);
                if (!XdpCodec.decode(XdpCodec.encode(m)).equals(m)) {
                    throw new AssertionError("round trip changed " + m);
                }
                decoded++;
            } catch (PacketFormatException e) {
                if (e.field().isBlank()) {
                    throw Seeds.failure(seed, i, e);
                }
            } catch (Throwable t) {
                throw Seeds.failure(seed, i, t);
            }
            try {
                ControlFrame frame = ControlFrame.parse(wire);
                XdomainPacket.parse(frame.words());
            } catch (PacketFormatException e) {
                // named, as required
            } catch (Throwable t) {
                throw Seeds.failure(seed, i, t);
            }
        }
        assertThat(decoded).as("mutations that still decode, seed " + seed).isPositive();
    }

    private static void assertField(byte[] wire, String field) {
        assertThatThrownBy(() -> XdpCodec.decode(wire)).isInstanceOf(PacketFormatException.class)
                .extracting(e -> ((PacketFormatException) e).field()).isEqualTo(field);
    }
}
