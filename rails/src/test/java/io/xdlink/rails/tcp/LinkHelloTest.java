package io.xdlink.rails.tcp;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LinkHelloTest {
    private static final UUID HOST = UUID.fromString("1a2b3c4d-0000-4000-8000-00000000000a");

    @Test
    void roundTripsAndHasTheDocumentedLayout() throws Exception {
        LinkHello h = new LinkHello(HOST, 18520);
        byte[] b = h.encode();
        assertThat(b).hasSize(LinkHello.BYTES);
        assertThat(new String(b, 0, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("XDLH");
        assertThat(b[4]).isEqualTo((byte) 1);
        assertThat(b[5]).isZero();
        assertThat(((b[6] & 0xff) << 8) | (b[7] & 0xff)).isEqualTo(18520);
        assertThat(LinkHello.decode(ByteBuffer.wrap(b))).isEqualTo(h);
    }

    @Test
    void decodingLeavesTheBufferAsItWas() throws Exception {
        ByteBuffer b = ByteBuffer.wrap(new LinkHello(HOST, 1).encode());
        LinkHello.decode(b);
        assertThat(b.position()).isZero();
        assertThat(b.remaining()).isEqualTo(LinkHello.BYTES);
    }

    @Test
    void everyTruncationAndEveryPaddingIsRefusedWithItsLength() {
        byte[] good = new LinkHello(HOST, 18520).encode();
        for (int n = 0; n < 64; n++) {
            if (n == LinkHello.BYTES) {
                continue;
            }
            byte[] b = java.util.Arrays.copyOf(good, n);
            int len = n;
            assertThatThrownBy(() -> LinkHello.decode(ByteBuffer.wrap(b))).isInstanceOf(StreamFormatException.class)
                    .hasMessage("link hello is " + len + " bytes, expected 24");
        }
    }

    @Test
    void eachBadFieldIsNamed() {
        assertRefused(0, (byte) 'G', "magic 0x47444c48 is not 0x58444c48 (not an xdlink hello)");
        assertRefused(4, (byte) 2, "version 2 is not 1");
        assertRefused(4, (byte) 0xff, "version 255 is not 1");
        assertRefused(5, (byte) 0x80, "flags 0x80 are not 0");
        byte[] b = new LinkHello(HOST, 18520).encode();
        b[6] = 0;
        b[7] = 0;
        assertThatThrownBy(() -> LinkHello.decode(ByteBuffer.wrap(b))).hasMessage(
                "link hello session port 0 is outside 1..65535");
        byte[] nil = new LinkHello(HOST, 18520).encode();
        java.util.Arrays.fill(nil, 8, 24, (byte) 0);
        assertThatThrownBy(() -> LinkHello.decode(ByteBuffer.wrap(nil))).hasMessage("link hello host UUID is nil");
    }

    private static void assertRefused(int at, byte value, String message) {
        byte[] b = new LinkHello(HOST, 18520).encode();
        b[at] = value;
        assertThatThrownBy(() -> LinkHello.decode(ByteBuffer.wrap(b))).isInstanceOf(StreamFormatException.class)
                .hasMessage("link hello " + message);
    }

    @Test
    void anHttpRequestOrAnotherProtocolOnThePortIsNotAHello() {
        for (String s : new String[] {"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "M-SEARCH * HTTP/1.1\r\n", "XDLH", ""}) {
            byte[] b = s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            assertThatThrownBy(() -> LinkHello.decode(ByteBuffer.wrap(b))).isInstanceOf(StreamFormatException.class);
        }
    }

    @Test
    void randomDatagramsNeverEscapeAsAnythingButTheFormatError() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        byte[] good = new LinkHello(HOST, 18520).encode();
        for (int i = 0; i < 20_000; i++) {
            byte[] b = r.nextBoolean() ? new byte[r.nextInt(48)] : good.clone();
            if (b.length > 0) {
                for (int k = r.nextInt(4); k >= 0; k--) {
                    b[r.nextInt(b.length)] = (byte) r.nextInt(256);
                }
            }
            try {
                LinkHello h = LinkHello.decode(ByteBuffer.wrap(b));
                assertThat(h.sessionPort()).as("seed " + seed).isBetween(1, 65535);
                assertThat(h.encode()).as("seed " + seed).isEqualTo(b);
            } catch (StreamFormatException expected) {
                assertThat(expected.getMessage()).as("seed " + seed).startsWith("link hello ");
            }
        }
    }

    @Test
    void aHelloIsNeverBuiltWithANilHostOrAPortOutOfRange() {
        assertThatThrownBy(() -> new LinkHello(new UUID(0, 0), 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LinkHello(HOST, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LinkHello(HOST, 65536)).isInstanceOf(IllegalArgumentException.class);
    }
}
