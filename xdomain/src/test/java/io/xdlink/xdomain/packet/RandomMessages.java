package io.xdlink.xdomain.packet;

import java.util.SplittableRandom;
import java.util.UUID;

/** Random valid XDP messages of every type, for round trips and as seeds for mutation. */
final class RandomMessages {
    private RandomMessages() {
    }

    static XdpMessage next(SplittableRandom r) {
        XdpHeader h = new XdpHeader(r.nextLong() >>> 1, r.nextBoolean(), r.nextInt(4));
        return switch (r.nextInt(12)) {
            case 0 -> new XdpMessage.UuidRequestOld(h);
            case 1 -> new XdpMessage.UuidRequest(h);
            case 2 -> new XdpMessage.UuidResponse(h, uuid(r), r.nextLong());
            case 3 -> new XdpMessage.PropertiesRequest(h, uuid(r), uuid(r), r.nextInt(1 << 16));
            case 4 -> {
                int[] data = new int[r.nextInt(XdpMessage.PropertiesResponse.MAX_DATA + 1)];
                for (int i = 0; i < data.length; i++) {
                    data[i] = r.nextInt();
                }
                yield new XdpMessage.PropertiesResponse(h, uuid(r), uuid(r), r.nextInt(1 << 16), r.nextInt(1 << 16),
                        r.nextInt(), data);
            }
            case 5 -> new XdpMessage.PropertiesChangedRequest(h, uuid(r));
            case 6 -> new XdpMessage.PropertiesChangedResponse(h);
            case 7 -> new XdpMessage.ErrorResponse(h, r.nextInt(6));
            case 8 -> new XdpMessage.LinkStateStatusRequest(h);
            case 9 -> new XdpMessage.LinkStateStatusResponse(h, r.nextInt(2), r.nextInt(256), r.nextInt(256),
                    r.nextInt(256), r.nextInt(256));
            case 10 -> new XdpMessage.LinkStateChangeRequest(h, r.nextInt(256), r.nextInt(256));
            default -> new XdpMessage.LinkStateChangeResponse(h, r.nextInt(3));
        };
    }

    static UUID uuid(SplittableRandom r) {
        return new UUID(r.nextLong(), r.nextLong());
    }

    /** A mutation of {@code wire}: bit flips, truncation, extension, a rewritten field; the CRC fixed up or not. */
    static byte[] mutate(byte[] wire, SplittableRandom r) {
        byte[] out = wire.clone();
        switch (r.nextInt(6)) {
            case 0 -> {
                for (int n = 1 + r.nextInt(4); n > 0; n--) {
                    int bit = r.nextInt(out.length * 8);
                    out[bit / 8] ^= (byte) (1 << (bit % 8));
                }
            }
            case 1 -> out = java.util.Arrays.copyOf(out, r.nextInt(out.length + 1));
            case 2 -> {
                out = java.util.Arrays.copyOf(out, out.length + r.nextInt(1, 64));
                for (int i = wire.length; i < out.length; i++) {
                    out[i] = (byte) r.nextInt();
                }
            }
            case 3 -> out[8 + r.nextInt(4)] = (byte) r.nextInt(); // length_sn
            case 4 -> out[28 + r.nextInt(4)] = (byte) r.nextInt(); // type
            default -> {
                int word = r.nextInt(out.length / 4) * 4;
                out[word + r.nextInt(4)] = (byte) r.nextInt();
            }
        }
        if (out.length >= 8 && out.length % 4 == 0 && r.nextInt(4) != 0) {
            int[] words = new int[out.length / 4 - 1];
            for (int i = 0; i < words.length; i++) {
                words[i] = ControlFrame.readWord(out, i * 4);
            }
            ControlFrame.writeWord(out, out.length - 4, ControlFrame.crc(words));
        }
        return out;
    }
}
