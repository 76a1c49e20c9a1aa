package io.xdlink.rails.frame;

import io.xdlink.rails.testing.Seeds;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * The frame codec against valid, truncated, bit-flipped and hostile frames: 140,000 seeded cases a run (round trips,
 * truncations, single-bit flips, and random or mangled bytes given a correct CRC so only the field checks remain).
 */
class FrameCodecTest {

    private static Frame.Header header(SplittableRandom r, int flags) {
        return new Frame.Header(flags, r.nextInt(256), r.nextInt(), r.nextInt(), r.nextInt(0x10000));
    }

    private static byte[] bytes(SplittableRandom r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    /** A random valid frame of any kind. */
    static Frame randomFrame(SplittableRandom r) {
        int kind = r.nextInt(11);
        int qpn = 1 + r.nextInt(Integer.MAX_VALUE - 1);
        switch (kind) {
            case 0, 1, 2 -> {
                Opcode op = kind == 0 ? Opcode.WRITE : kind == 1 ? Opcode.WRITE_WITH_IMM : Opcode.SEND;
                // Mostly short payloads: the fields under test are in the header; now and then a full frame.
                int len = r.nextInt(16) == 0 ? r.nextInt(op.maxPayload(FrameLayout.MAX_FRAME_BYTES) + 1)
                        : r.nextInt(65);
                long total = len + (long) r.nextInt(1 << 20);
                long offset = total - len == 0 ? 0 : r.nextLong(total - len + 1);
                int flags = (r.nextBoolean() ? FrameFlags.PAYLOAD_UNCHECKED : 0)
                        | (r.nextBoolean() ? FrameFlags.ACK_REQUEST : r.nextBoolean() ? FrameFlags.ACK_LAZY : 0);
                Frame.Header h;
                if (op == Opcode.WRITE) {
                    h = header(r, flags);
                    return new Frame.Write(h, qpn, r.nextInt(), r.nextInt(), offset, total, r.nextInt(), r.nextLong(),
                            bytes(r, len));
                }
                if (op == Opcode.WRITE_WITH_IMM) {
                    h = header(r, flags);
                    return new Frame.WriteWithImm(h, qpn, r.nextInt(), r.nextInt(), offset, total, r.nextInt(),
                            r.nextLong(), r.nextInt(), r.nextInt(), bytes(r, len));
                }
                boolean imm = r.nextBoolean();
                h = header(r, flags | (imm ? FrameFlags.IMMEDIATE : 0));
                return new Frame.Send(h, qpn, r.nextInt(), r.nextInt(), offset, total, r.nextInt(),
                        imm ? r.nextInt() : 0, bytes(r, len));
            }
            case 3 -> {
                int rails = r.nextInt(FrameLayout.MAX_ACK_RAILS + 1);
                List<Frame.RailAck> ra = new ArrayList<>();
                List<Integer> numbers = new ArrayList<>();
                for (int i = 0; i < FrameLayout.MAX_ACK_RAILS; i++) {
                    numbers.add(i);
                }
                java.util.Collections.shuffle(numbers, new java.util.Random(r.nextLong()));
                for (int i = 0; i < rails; i++) {
                    ra.add(new Frame.RailAck(numbers.get(i), r.nextInt(256), r.nextInt(), r.nextInt(), r.nextLong()));
                }
                int qps = r.nextInt(FrameLayout.ackQpCapacity(FrameLayout.MAX_FRAME_BYTES, rails) + 1);
                List<Frame.QpAck> qa = new ArrayList<>();
                for (int j = 0; j < qps; j++) {
                    qa.add(new Frame.QpAck(1 + r.nextInt(Integer.MAX_VALUE - 1), r.nextInt(), r.nextInt()));
                }
                return new Frame.Ack(header(r, 0), ra, qa);
            }
            case 4 -> {
                return new Frame.Credit(header(r, r.nextBoolean() ? FrameFlags.ACK_REQUEST : 0), r.nextInt());
            }
            case 5 -> {
                NakReason[] reasons = NakReason.values();
                return new Frame.Nak(header(r, 0), qpn, r.nextInt(), reasons[r.nextInt(reasons.length)]);
            }
            case 6 -> {
                return new Frame.Hello(header(r, r.nextBoolean() ? FrameFlags.REPLY : 0),
                        new UUID(r.nextLong(), r.nextLong()), r.nextInt(FrameLayout.MAX_ACK_RAILS),
                        FrameLayout.MIN_FRAME_BYTES + r.nextInt(FrameLayout.MAX_FRAME_BYTES
                                - FrameLayout.MIN_FRAME_BYTES + 1),
                        FrameLayout.MIN_WINDOW + r.nextInt(FrameLayout.MAX_WINDOW - FrameLayout.MIN_WINDOW + 1));
            }
            case 7 -> {
                return new Frame.ConnectRequest(header(r, 0), r.nextLong(), qpn, 1 + r.nextInt(1000),
                        1 + r.nextInt(FrameLayout.MAX_MESSAGES), 1 << (6 + r.nextInt(15)));
            }
            case 8 -> {
                return new Frame.ConnectReply(header(r, 0), r.nextLong(), qpn, 1 + r.nextInt(1000),
                        1 + r.nextInt(FrameLayout.MAX_MESSAGES), 1 << (6 + r.nextInt(15)));
            }
            case 9 -> {
                RejectReason[] reasons = RejectReason.values();
                return new Frame.ConnectReject(header(r, 0), r.nextLong(), reasons[r.nextInt(reasons.length)]);
            }
            default -> {
                return new Frame.Disconnect(header(r, 0), qpn, 1 + r.nextInt(1000));
            }
        }
    }

    @Test
    void everyKindOfFrameSurvivesARoundTrip() throws FrameException {
        long seed = Seeds.seed("FrameCodecTest.roundTrip");
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < 10_000; i++) {
            Frame f = randomFrame(r);
            byte[] wire = FrameCodec.encode(f);
            assertThat(wire.length).as("seed %d, case %d", seed, i).isLessThanOrEqualTo(FrameLayout.MAX_FRAME_BYTES);
            Frame back = FrameCodec.decode(MemorySegment.ofArray(wire));
            assertThat(back).as("seed %d, case %d", seed, i).isEqualTo(f);
        }
    }

    @Test
    void headerSizesAreWhatTheDocumentationSays() {
        assertThat(FrameLayout.COMMON_HEADER).isEqualTo(16);
        assertThat(Opcode.WRITE.headerBytes()).isEqualTo(48);
        assertThat(Opcode.WRITE_WITH_IMM.headerBytes()).isEqualTo(56);
        assertThat(Opcode.SEND.headerBytes()).isEqualTo(44);
        assertThat(Opcode.WRITE.maxPayload(4096)).isEqualTo(4044);
    }

    @Test
    void everyTruncationIsRejected() {
        long seed = Seeds.seed("FrameCodecTest.truncation");
        SplittableRandom r = new SplittableRandom(seed);
        int cases = 0;
        while (cases < 30_000) {
            byte[] wire = FrameCodec.encode(randomFrame(r));
            for (int cut = 0; cut < wire.length && cases < 30_000; cut += 1 + r.nextInt(64)) {
                MemorySegment prefix = MemorySegment.ofArray(java.util.Arrays.copyOf(wire, cut));
                assertRejected(prefix, seed, cases);
                cases++;
            }
        }
    }

    @Test
    void everySingleBitFlipInACheckedRangeIsRejected() throws FrameException {
        long seed = Seeds.seed("FrameCodecTest.bitFlips");
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < 40_000; i++) {
            Frame f = randomFrame(r);
            byte[] wire = FrameCodec.encode(f);
            int checked = FrameFlags.has(f.header().flags(), FrameFlags.PAYLOAD_UNCHECKED)
                    ? f.opcode().headerBytes() : wire.length - FrameLayout.TRAILER_BYTES;
            int bit = r.nextInt((checked + FrameLayout.TRAILER_BYTES) * 8);
            int at = bit / 8 < checked ? bit / 8 : wire.length - FrameLayout.TRAILER_BYTES + (bit / 8 - checked);
            wire[at] ^= (byte) (1 << (bit % 8));
            assertRejected(MemorySegment.ofArray(wire), seed, i);
        }
    }

    @Test
    void randomBytesWithAValidCrcAreDecodedConsistentlyOrRejectedByName() throws FrameException {
        long seed = Seeds.seed("FrameCodecTest.hostile");
        SplittableRandom r = new SplittableRandom(seed);
        int accepted = 0;
        for (int i = 0; i < 60_000; i++) {
            byte[] wire = hostile(r);
            MemorySegment seg = MemorySegment.ofArray(wire);
            Frame f;
            try {
                f = FrameCodec.decode(seg);
            } catch (FrameException e) {
                if (!e.getMessage().startsWith(e.field().wireName())) {
                    fail("seed " + seed + ", case " + i + ": message does not name the field: " + e.getMessage());
                }
                continue;
            } catch (RuntimeException e) {
                throw new AssertionError("seed " + seed + ", case " + i + ": unchecked " + e, e);
            }
            accepted++;
            // Whatever is accepted is a well-formed frame: it encodes back to the very same bytes.
            if (!java.util.Arrays.equals(FrameCodec.encode(f), wire)) {
                fail("seed " + seed + ", case " + i + ": " + f + " does not encode back to its bytes");
            }
        }
        assertThat(accepted).as("seed %d: some hostile frames should pass the structure checks", seed)
                .isGreaterThan(100);
    }

    /** Plausible-looking garbage: a real header's skeleton with random fields, sealed with a correct CRC. */
    private static byte[] hostile(SplittableRandom r) {
        byte[] wire;
        if (r.nextInt(4) == 0) {
            wire = bytes(r, r.nextInt(FrameLayout.MAX_FRAME_BYTES + 200));
        } else {
            Frame f = randomFrame(r);
            wire = FrameCodec.encode(f);
            int flips = 1 + r.nextInt(3);
            for (int k = 0; k < flips; k++) {
                int at = r.nextInt(Math.min(wire.length, 64));
                wire[at] = (byte) (r.nextInt(8) == 0 ? r.nextInt(256) : wire[at] ^ (1 << r.nextInt(8)));
            }
            if (r.nextInt(4) == 0) {
                wire = java.util.Arrays.copyOf(wire, Math.max(0, wire.length + r.nextInt(9) - 4));
            }
        }
        if (wire.length >= 4 && r.nextInt(8) != 0) {
            reseal(wire);
        }
        return wire;
    }

    /** Writes a correct CRC for whatever the bytes say their coverage is, so only field checks stand in the way. */
    private static void reseal(byte[] wire) {
        int covered = wire.length - 4;
        Opcode op = Opcode.ofCode(wire[1] & 0xFF);
        if (op != null && (wire[2] & FrameFlags.PAYLOAD_UNCHECKED) != 0 && op.headerBytes() <= covered) {
            covered = op.headerBytes();
        }
        CRC32C c = new CRC32C();
        c.update(wire, 0, covered);
        ByteBuffer.wrap(wire).order(ByteOrder.BIG_ENDIAN).putInt(wire.length - 4, (int) c.getValue());
    }

    private static void assertRejected(MemorySegment seg, long seed, int i) {
        try {
            Frame f = FrameCodec.decode(seg);
            fail("seed " + seed + ", case " + i + ": accepted " + f);
        } catch (FrameException expected) {
            if (!expected.getMessage().startsWith(expected.field().wireName())) {
                fail("seed " + seed + ", case " + i + ": message does not name the field: " + expected.getMessage());
            }
        } catch (RuntimeException e) {
            throw new AssertionError("seed " + seed + ", case " + i + ": unchecked " + e, e);
        }
    }

    private static byte[] valid(Frame f) {
        return FrameCodec.encode(f);
    }

    private static FrameException reject(byte[] wire) {
        reseal(wire);
        try {
            FrameCodec.decode(MemorySegment.ofArray(wire));
        } catch (FrameException e) {
            return e;
        }
        throw new AssertionError("accepted");
    }

    private static final Frame.Header H = new Frame.Header(0, 1, 2, 3, 4);

    @Test
    void eachMalformedFieldIsNamed() {
        byte[] write = valid(new Frame.Write(H, 7, 1, 1, 0, 10, 5, 99, new byte[10]));
        byte[] w = write.clone();
        w[0] = 2;
        assertThat(reject(w).field()).isEqualTo(FrameField.VERSION);
        w = write.clone();
        w[1] = 0x7F;
        assertThat(reject(w).field()).isEqualTo(FrameField.OPCODE);
        w = write.clone();
        w[2] = (byte) 0x80;
        assertThat(reject(w).field()).isEqualTo(FrameField.FLAGS);
        w = write.clone();
        w[2] = (byte) FrameFlags.REPLY;
        assertThat(reject(w).field()).as("a HELLO's flag on a WRITE").isEqualTo(FrameField.FLAGS);
        w = write.clone();
        w[15] = 11;
        assertThat(reject(w).field()).isEqualTo(FrameField.LENGTH);
        w = write.clone();
        MemorySegment.ofArray(w).set(FrameLayout.U32, FrameLayout.OFF_QPN, 0);
        assertThat(reject(w).field()).isEqualTo(FrameField.QPN);
        w = write.clone();
        MemorySegment.ofArray(w).set(FrameLayout.U32, FrameLayout.OFF_OFFSET, 1);
        assertThat(reject(w).field()).isEqualTo(FrameField.OFFSET);
        w = write.clone();
        w[w.length - 1] ^= 1;
        assertThat(assertThrowsFrame(w).field()).isEqualTo(FrameField.CRC);

        byte[] send = valid(new Frame.Send(H, 7, 1, 1, 0, 0, 3, 0, new byte[0]));
        MemorySegment.ofArray(send).set(FrameLayout.U32, FrameLayout.OFF_SEND_IMM, 42);
        assertThat(reject(send).field()).isEqualTo(FrameField.IMMEDIATE);

        byte[] nak = valid(new Frame.Nak(H, 7, 1, NakReason.RECEIVER_NOT_READY));
        nak[FrameLayout.OFF_NAK_REASON] = 9;
        assertThat(reject(nak).field()).isEqualTo(FrameField.NAK_REASON);
        nak[FrameLayout.OFF_NAK_REASON] = 1;
        nak[FrameLayout.OFF_NAK_RESERVED + 2] = 1;
        assertThat(reject(nak).field()).isEqualTo(FrameField.RESERVED);

        byte[] hello = valid(new Frame.Hello(H, UUID.randomUUID(), 0, 4096, 1024));
        MemorySegment.ofArray(hello).set(FrameLayout.U32, FrameLayout.OFF_HELLO_WINDOW, 1 << 20);
        assertThat(reject(hello).field()).isEqualTo(FrameField.WINDOW);
        hello = valid(new Frame.Hello(H, UUID.randomUUID(), 0, 4096, 1024));
        MemorySegment.ofArray(hello).set(FrameLayout.U16, FrameLayout.OFF_HELLO_FRAME_BYTES, (short) 100);
        assertThat(reject(hello).field()).isEqualTo(FrameField.FRAME_BYTES);
        MemorySegment.ofArray(hello).set(FrameLayout.U16, FrameLayout.OFF_HELLO_FRAME_BYTES, (short) 16385);
        assertThat(reject(hello).field()).isEqualTo(FrameField.FRAME_BYTES);

        byte[] req = valid(new Frame.ConnectRequest(H, 1, 5, 6, 64, 1024));
        MemorySegment.ofArray(req).set(FrameLayout.U32, FrameLayout.OFF_CONN_PSN_WINDOW, 1000);
        assertThat(reject(req).field()).isEqualTo(FrameField.PSN_WINDOW);
        req = valid(new Frame.ConnectRequest(H, 1, 5, 6, 64, 1024));
        MemorySegment.ofArray(req).set(FrameLayout.U32, FrameLayout.OFF_CONN_LISTENER, 0);
        assertThat(reject(req).field()).isEqualTo(FrameField.LISTENER_ID);

        byte[] ack = valid(new Frame.Ack(H, List.of(new Frame.RailAck(1, 0, 5, 6, 7)),
                List.of(new Frame.QpAck(3, 1, 1))));
        ack[FrameLayout.COMMON_HEADER] = 2;
        assertThat(reject(ack).field()).isEqualTo(FrameField.ACK_QP_COUNT);
        byte[] twice = valid(new Frame.Ack(H, List.of(new Frame.RailAck(1, 0, 5, 6, 7),
                new Frame.RailAck(2, 0, 5, 6, 7)), List.of()));
        twice[FrameLayout.COMMON_HEADER + FrameLayout.ACK_COUNTS + FrameLayout.ACK_RAIL_ENTRY] = 1;
        assertThat(reject(twice).field()).isEqualTo(FrameField.ACK_RAIL);
        byte[] lazyAck = valid(new Frame.Ack(H, List.of(new Frame.RailAck(1, 0, 5, 6, 7)), List.of()));
        lazyAck[2] = (byte) FrameFlags.ACK_LAZY;
        assertThat(reject(lazyAck).field()).as("ACK_LAZY is for data frames only").isEqualTo(FrameField.FLAGS);
        byte[] lazyCredit = valid(new Frame.Credit(H, 9));
        lazyCredit[2] = (byte) FrameFlags.ACK_LAZY;
        assertThat(reject(lazyCredit).field()).isEqualTo(FrameField.FLAGS);
    }

    private static FrameException assertThrowsFrame(byte[] wire) {
        try {
            FrameCodec.decode(MemorySegment.ofArray(wire));
        } catch (FrameException e) {
            return e;
        }
        throw new AssertionError("accepted");
    }

    @Test
    void framesLongerThanTheLimitAreRefusedBothWays() {
        byte[] big = new byte[FrameLayout.MAX_STREAM_FRAME_BYTES + 1];
        assertThat(assertThrowsFrame(big).field()).isEqualTo(FrameField.FRAME);
        Frame tooMuch = new Frame.Write(H, 1, 1, 1, 0, 16333, 1, 1, new byte[16333]);
        assertThatThrownBy(() -> FrameCodec.encode(tooMuch)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFrameOfTheStreamsLargestSizeMakesTheRoundTripAndAHelloMayAnnounceIt() throws FrameException {
        byte[] payload = new byte[16332];
        new java.util.SplittableRandom(16332).nextBytes(payload);
        Frame largest = new Frame.Write(H, 1, 2, 3, 0, 16332, 4, 5, payload);
        byte[] wire = valid(largest);
        assertThat(wire).hasSize(16384);
        assertThat(((Frame.Write) FrameCodec.decode(MemorySegment.ofArray(wire))).payload()).isEqualTo(payload);
        assertThat(((Frame.Hello) FrameCodec.decode(MemorySegment.ofArray(
                valid(new Frame.Hello(H, UUID.randomUUID(), 0, 16384, 1024))))).frameBytes()).isEqualTo(16384);
    }

    @Test
    void aPayloadUncheckedFrameIgnoresPayloadDamageButNotHeaderDamage() throws FrameException {
        byte[] wire = valid(new Frame.Write(new Frame.Header(FrameFlags.PAYLOAD_UNCHECKED, 0, 0, 0, 0), 1, 1, 1, 0,
                8, 1, 1, new byte[8]));
        wire[Opcode.WRITE.headerBytes() + 3] = 77;
        Frame f = FrameCodec.decode(MemorySegment.ofArray(wire));
        assertThat(((Frame.Write) f).payload()[3]).isEqualTo((byte) 77);
        wire[FrameLayout.OFF_PSN] ^= 1;
        assertThat(assertThrowsFrame(wire).field()).isEqualTo(FrameField.CRC);
    }

    @Test
    void aFrameInsideALargerBufferIsReadInPlaceAndItsBoundsAreChecked() throws FrameException {
        Frame f = new Frame.Write(H, 5, 6, 7, 0, 3, 8, 9, new byte[] {4, 5, 6});
        byte[] wire = valid(f);
        MemorySegment buffer = MemorySegment.ofArray(new byte[wire.length + 100]);
        MemorySegment.copy(wire, 0, buffer, ValueLayout.JAVA_BYTE, 37, wire.length);
        FrameView v = new FrameView().wrap(buffer, 37, wire.length);
        assertThat(FrameCodec.toFrame(v)).isEqualTo(f);
        assertThat(v.base()).isEqualTo(37);
        FrameException e = org.junit.jupiter.api.Assertions.assertThrows(FrameException.class,
                () -> new FrameView().wrap(buffer, 120, wire.length));
        assertThat(e.field()).isEqualTo(FrameField.FRAME);
    }

    /** A contiguous frame cut into the two parts a by-reference transport delivers: header+trailer, payload. */
    private static Frame decodeSplit(byte[] wire, Opcode op) throws FrameException {
        int h = op.headerBytes();
        byte[] head = new byte[h + 4];
        System.arraycopy(wire, 0, head, 0, h);
        System.arraycopy(wire, wire.length - 4, head, h, 4);
        MemorySegment payload = MemorySegment.ofArray(java.util.Arrays.copyOfRange(wire, h, wire.length - 4));
        return FrameCodec.toFrame(new FrameView().wrap(MemorySegment.ofArray(head), 0, head.length, payload, 0,
                (int) payload.byteSize()));
    }

    @Test
    void aDataFrameInTwoPartsDecodesLikeTheWholeFrame() throws FrameException {
        long seed = Seeds.seed("FrameCodecTest.split");
        SplittableRandom r = new SplittableRandom(seed);
        int checked = 0;
        while (checked < 2_000) {
            Frame f = randomFrame(r);
            if (!f.opcode().isData()) {
                continue;
            }
            byte[] wire = FrameCodec.encode(f);
            assertThat(decodeSplit(wire, f.opcode())).as("seed %d", seed).isEqualTo(f);
            // A payload bit flipped in the sender's memory is caught unless the frame says its payload is unchecked.
            if (wire.length > f.opcode().headerBytes() + 4) {
                wire[f.opcode().headerBytes()] ^= 1;
                if (FrameFlags.has(f.header().flags(), FrameFlags.PAYLOAD_UNCHECKED)) {
                    assertThat(decodeSplit(wire, f.opcode())).isNotEqualTo(f);
                } else {
                    try {
                        decodeSplit(wire, f.opcode());
                        fail("seed " + seed + ": a damaged payload passed its CRC");
                    } catch (FrameException e) {
                        assertThat(e.field()).isEqualTo(FrameField.CRC);
                    }
                }
            }
            checked++;
        }
    }

    @Test
    void onlyDataFramesComeInTwoPartsAndTheHeadMustBeExactlyHeaderAndTrailer() {
        byte[] credit = valid(new Frame.Credit(H, 5));
        byte[] head = java.util.Arrays.copyOf(credit, credit.length);
        FrameException e = org.junit.jupiter.api.Assertions.assertThrows(FrameException.class,
                () -> new FrameView().wrap(MemorySegment.ofArray(head), 0, head.length,
                        MemorySegment.ofArray(new byte[3]), 0, 3));
        assertThat(e.field()).isEqualTo(FrameField.OPCODE);
        byte[] write = valid(new Frame.Write(H, 1, 1, 1, 0, 4, 1, 1, new byte[4]));
        e = org.junit.jupiter.api.Assertions.assertThrows(FrameException.class,
                () -> new FrameView().wrap(MemorySegment.ofArray(write), 0, write.length,
                        MemorySegment.ofArray(new byte[4]), 0, 4));
        assertThat(e.field()).isEqualTo(FrameField.FRAME);
        e = org.junit.jupiter.api.Assertions.assertThrows(FrameException.class,
                () -> new FrameView().wrap(MemorySegment.ofArray(write), 0, 52,
                        MemorySegment.ofArray(new byte[4]), 2, 4));
        assertThat(e.field()).isEqualTo(FrameField.LENGTH);
    }

    @Test
    void aFrameInNativeMemoryDecodesLikeOneOnTheHeap() throws FrameException {
        Frame f = new Frame.Send(new Frame.Header(FrameFlags.IMMEDIATE, 3, 4, 5, 6), 9, 8, 7, 0, 3, 2, 1,
                new byte[] {1, 2, 3});
        byte[] wire = valid(f);
        try (var arena = java.lang.foreign.Arena.ofConfined()) {
            MemorySegment n = arena.allocate(wire.length);
            MemorySegment.copy(wire, 0, n, ValueLayout.JAVA_BYTE, 0, wire.length);
            assertThat(FrameCodec.decode(n)).isEqualTo(f);
        }
    }
}
