package io.xdlink.xdomain.packet;

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
import java.util.Arrays;
import java.util.UUID;

/**
 * Encodes and decodes XDomain discovery protocol messages to and from the exact wire words.
 *
 * <p>Word layout after the common header (word 7 is the type): a u32 field is one word; u8 and u16 sub-fields sit
 * where a little-endian C struct puts them, so PROPERTIES offset is word 16 bits 15:0 and data_length bits 31:16,
 * the link-state status bytes slw/tlw/sls/tls are word 9 bits 7:0/15:8/23:16/31:24, and the link-state change
 * request has tlw in word 8 bits 7:0 and tls in bits 15:8.
 */
public final class XdpCodec {
    /** The XDomain discovery protocol UUID. */
    public static final UUID XDP_UUID = UUID.fromString("b638d70e-42ff-40bb-97c2-90e2c0b2ff07");

    private static final int TYPE_WORD = 7;
    private static final int BODY = 8;

    private XdpCodec() {
    }

    /** The wire bytes of {@code message}: big-endian words and the CRC-32C word. */
    public static byte[] encode(XdpMessage message) {
        return ControlFrame.encode(encodeWords(message));
    }

    /** The words of {@code message} as values, CRC excluded. */
    public static int[] encodeWords(XdpMessage message) {
        int bytes = message instanceof PropertiesResponse r
                ? XdpType.PROPERTIES_RESPONSE.bytes() + 4 * r.dataDwords()
                : message.type().bytes();
        int[] w = new int[bytes / 4];
        XdomainPacket.writeCommon(w, message.header(), XDP_UUID);
        w[TYPE_WORD] = message.type().value();
        switch (message) {
            case UuidRequestOld m -> { }
            case UuidRequest m -> { }
            case LinkStateStatusRequest m -> { }
            case PropertiesChangedResponse m -> { }
            case UuidResponse m -> {
                UuidWords.put(w, 8, m.sourceUuid());
                w[12] = (int) (m.sourceRoute() >>> 32);
                w[13] = (int) m.sourceRoute();
            }
            case PropertiesRequest m -> {
                UuidWords.put(w, 8, m.sourceUuid());
                UuidWords.put(w, 12, m.destinationUuid());
                w[16] = m.offset();
            }
            case PropertiesResponse m -> {
                UuidWords.put(w, 8, m.sourceUuid());
                UuidWords.put(w, 12, m.destinationUuid());
                w[16] = m.offset() | m.dataLength() << 16;
                w[17] = m.generation();
                int[] data = m.data();
                System.arraycopy(data, 0, w, 18, data.length);
            }
            case PropertiesChangedRequest m -> UuidWords.put(w, 8, m.sourceUuid());
            case ErrorResponse m -> w[BODY] = m.error();
            case LinkStateStatusResponse m -> {
                w[8] = m.status();
                w[9] = m.slw() | m.tlw() << 8 | m.sls() << 16 | m.tls() << 24;
            }
            case LinkStateChangeRequest m -> w[BODY] = m.tlw() | m.tls() << 8;
            case LinkStateChangeResponse m -> w[BODY] = m.status();
        }
        return w;
    }

    /** Decodes wire bytes; the CRC must be right. */
    public static XdpMessage decode(byte[] wire) {
        ControlFrame frame = ControlFrame.parse(wire);
        if (!frame.crcOk()) {
            throw new PacketFormatException("crc", String.format("received 0x%08x, computed 0x%08x",
                    frame.receivedCrc(), frame.computedCrc()));
        }
        return decodeWords(frame.words(), false);
    }

    /** Decodes wire bytes that arrived with PDF {@code pdf}, which must be the one the message type travels in. */
    public static XdpMessage decode(byte[] wire, Pdf pdf) {
        XdpMessage m = decode(wire);
        if (m.pdf() != pdf) {
            throw new PacketFormatException("pdf", m.type() + " travels in " + m.pdf() + ", not " + pdf);
        }
        return m;
    }

    /** Decodes packet words (CRC excluded); every type must have exactly its size. */
    public static XdpMessage decodeWords(int[] words) {
        return decodeWords(words, false);
    }

    /**
     * Decodes packet words. With {@code allowTrailing} a fixed-size message may carry extra words after its fields,
     * which are ignored: Linux answers such requests by reading the fields it needs and nothing else.
     */
    public static XdpMessage decodeWords(int[] words, boolean allowTrailing) {
        XdomainPacket p = XdomainPacket.parse(words);
        if (!XDP_UUID.equals(p.protocol())) {
            throw new PacketFormatException("protocol uuid", p.protocol() + " is not the XDomain discovery protocol");
        }
        return decode(p, allowTrailing);
    }

    /** Decodes a packet whose common header has been parsed and whose protocol is XDP. */
    public static XdpMessage decode(XdomainPacket p, boolean allowTrailing) {
        int type = p.word(TYPE_WORD);
        XdpType t = XdpType.of(type).orElseThrow(() -> new PacketFormatException("type",
                "unknown XDomain discovery message type " + Integer.toUnsignedString(type)));
        int words = p.length() + 3;
        int need = t.bytes() / 4;
        boolean ok = t == XdpType.PROPERTIES_RESPONSE || allowTrailing ? words >= need : words == need;
        if (!ok) {
            throw new PacketFormatException("length", t + " needs length " + t.lengthField()
                    + (t == XdpType.PROPERTIES_RESPONSE || allowTrailing ? " or more" : "") + ", got "
                    + p.length());
        }
        XdpHeader h = p.header();
        return switch (t) {
            case UUID_REQUEST_OLD -> new UuidRequestOld(h);
            case UUID_REQUEST -> new UuidRequest(h);
            case UUID_RESPONSE -> new UuidResponse(h, uuid(p, 8),
                    ((long) p.word(12) & 0xFFFF_FFFFL) << 32 | (p.word(13) & 0xFFFF_FFFFL));
            case PROPERTIES_REQUEST -> new PropertiesRequest(h, uuid(p, 8), uuid(p, 12), p.word(16) & 0xFFFF);
            case PROPERTIES_RESPONSE -> {
                int[] all = p.words();
                yield new PropertiesResponse(h, uuid(p, 8), uuid(p, 12), p.word(16) & 0xFFFF, p.word(16) >>> 16,
                        p.word(17), Arrays.copyOfRange(all, 18, all.length));
            }
            case PROPERTIES_CHANGED_REQUEST -> new PropertiesChangedRequest(h, uuid(p, 8));
            case PROPERTIES_CHANGED_RESPONSE -> new PropertiesChangedResponse(h);
            case ERROR_RESPONSE -> new ErrorResponse(h, p.word(BODY));
            case LINK_STATE_STATUS_REQUEST -> new LinkStateStatusRequest(h);
            case LINK_STATE_STATUS_RESPONSE -> {
                int v = p.word(9);
                yield new LinkStateStatusResponse(h, p.word(8), v & 0xFF, (v >>> 8) & 0xFF, (v >>> 16) & 0xFF,
                        v >>> 24);
            }
            case LINK_STATE_CHANGE_REQUEST -> new LinkStateChangeRequest(h, p.word(BODY) & 0xFF,
                    (p.word(BODY) >>> 8) & 0xFF);
            case LINK_STATE_CHANGE_RESPONSE -> new LinkStateChangeResponse(h, p.word(BODY));
        };
    }

    private static UUID uuid(XdomainPacket p, int at) {
        return UuidWords.fromWords(new int[] {p.word(at), p.word(at + 1), p.word(at + 2), p.word(at + 3)}, 0);
    }
}
