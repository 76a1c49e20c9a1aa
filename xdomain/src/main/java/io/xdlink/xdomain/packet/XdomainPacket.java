package io.xdlink.xdomain.packet;

import java.util.UUID;

/**
 * The header every XDomain protocol shares (the discovery protocol, ThunderboltIP, xdlink's own): route_hi,
 * route_lo, length_sn, then the protocol UUID. Parsing it is the first step for every packet that arrives on a
 * control channel; the UUID decides who gets the packet.
 *
 * @param header   route and sequence number
 * @param length   length_sn bits 5:0: dwords after the first 12 bytes
 * @param protocol the protocol UUID (words 3 to 6)
 * @param words    all packet words, CRC excluded
 */
public record XdomainPacket(XdpHeader header, int length, UUID protocol, int[] words) {

    /** Words before any protocol's own fields: route_hi, route_lo, length_sn, UUID. */
    public static final int COMMON_WORDS = 7;
    /** The smallest packet Linux accepts: an XDP header, 32 bytes (length 5). */
    public static final int MIN_LENGTH = 5;

    public XdomainPacket {
        words = words.clone();
    }

    @Override
    public int[] words() {
        return words.clone();
    }

    /** Word {@code i} of the packet, without copying. */
    public int word(int i) {
        return words[i];
    }

    /**
     * Applies Linux's acceptance rule for received XDomain packets: {@code length == size/4 - 3} and
     * {@code length >= 5}, then reads route, sequence number and protocol UUID.
     */
    public static XdomainPacket parse(int[] words) {
        if (words.length < 3) {
            throw new PacketFormatException("size", words.length + " words: no XDomain header");
        }
        if (words.length > ControlFrame.MAX_PACKET_WORDS) {
            throw new PacketFormatException("size", words.length + " words exceed " + ControlFrame.MAX_PACKET_WORDS);
        }
        int lengthSn = words[2];
        int length = lengthSn & 0x3F;
        if (length != words.length - 3) {
            throw new PacketFormatException("length", "length field " + length + " but the packet has "
                    + (words.length - 3) + " dwords after the first 12 bytes");
        }
        if (length < MIN_LENGTH) {
            throw new PacketFormatException("length", "length field " + length + " is below the minimum "
                    + MIN_LENGTH);
        }
        long route = ((long) (words[0] & 0x7FFF_FFFF) << 32) | (words[1] & 0xFFFF_FFFFL);
        boolean inbound = words[0] < 0;
        int sequence = (lengthSn >>> 27) & 0x3;
        return new XdomainPacket(new XdpHeader(route, inbound, sequence), length, UuidWords.fromWords(words, 3),
                words);
    }

    /** Writes route_hi, route_lo and length_sn for a packet of {@code totalWords} words into {@code words}. */
    static void writeCommon(int[] words, XdpHeader header, UUID protocol) {
        words[0] = (int) (header.route() >>> 32) | (header.inbound() ? 0x8000_0000 : 0);
        words[1] = (int) header.route();
        words[2] = (words.length - 3) | header.sequence() << 27;
        UuidWords.put(words, 3, protocol);
    }
}
