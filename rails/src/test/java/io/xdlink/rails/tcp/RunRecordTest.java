package io.xdlink.rails.tcp;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Run records: heads in the batch, payload written by reference from its own memory, read back field by field, and
 * every malformed, truncated or hostile run header refused before anything behind it is read.
 */
class RunRecordTest {
    private static final RecordReader.RunLimits LIMITS = new RecordReader.RunLimits(8, 16, 4, 100);

    /** Run header bytes: prefix with the run flag and head length, count, payload length. */
    private static byte[] header(int head, int frames, long payload) {
        ByteBuffer b = ByteBuffer.allocate(RecordReader.RUN_HEADER_BYTES);
        b.putShort((short) (RecordReader.RUN_FLAG | head)).putShort((short) frames).putInt((int) payload);
        return b.array();
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        ByteBuffer b = ByteBuffer.allocate(n);
        for (byte[] p : parts) {
            b.put(p);
        }
        return b.array();
    }

    private static RecordReader reader() {
        return new RecordReader("rail t", 4096, 1, 1000, LIMITS);
    }

    @Test
    void aRunWrittenByReferenceArrivesAsItsHeadsThenItsPayloadThroughAnySplitOfTheWrites() throws IOException {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment payload = arena.allocate(300);
            for (int i = 0; i < 300; i++) {
                payload.set(ValueLayout.JAVA_BYTE, i, (byte) random.nextInt());
            }
            RecordWriter writer = new RecordWriter(256);
            assertThat(writer.append(MemorySegment.ofArray(new byte[] {1, 2, 3}))).isTrue();
            long at = writer.beginRun(10, 2);
            assertThat(at).isGreaterThanOrEqualTo(0);
            writer.segment().asSlice(at, 20).fill((byte) 0x5A);
            writer.commitRun(10, 2, payload, 40, 70);
            assertThat(writer.append(MemorySegment.ofArray(new byte[] {9}))).isTrue();
            assertThat(writer.pending()).isEqualTo(5 + 8 + 20 + 70 + 3);
            ChunkedChannel ch = new ChunkedChannel(1 + random.nextInt(17));
            while (writer.pending() > 0) {
                writer.writeTo(ch);
            }
            byte[] body = new byte[70];
            MemorySegment.copy(payload, ValueLayout.JAVA_BYTE, 40, body, 0, 70);
            byte[] heads = new byte[20];
            java.util.Arrays.fill(heads, (byte) 0x5A);
            assertThat(ch.bytes()).as("seed " + seed).isEqualTo(concat(new byte[] {0, 3, 1, 2, 3},
                    header(10, 2, 70), heads, body, new byte[] {0, 1, 9}));
        }
    }

    @Test
    void aPartlyWrittenPayloadKeepsItsPlaceWhenTheBufferMovesUp() throws IOException {
        MemorySegment payload = MemorySegment.ofArray(new byte[64]).fill((byte) 7);
        RecordWriter writer = new RecordWriter(64);
        long at = writer.beginRun(8, 1);
        writer.segment().asSlice(at, 8).fill((byte) 1);
        writer.commitRun(8, 1, payload, 0, 64);
        ChunkedChannel ch = new ChunkedChannel(20);
        writer.writeTo(ch); // the header, the head, 4 payload bytes
        assertThat(writer.pending()).isEqualTo(60);
        // A 40-byte record fits only once the written bytes are gone from the front of the buffer.
        assertThat(writer.append(MemorySegment.ofArray(new byte[40]).fill((byte) 3))).isTrue();
        while (writer.pending() > 0) {
            writer.writeTo(ch);
        }
        byte[] ones = new byte[8];
        java.util.Arrays.fill(ones, (byte) 1);
        byte[] threes = new byte[40];
        java.util.Arrays.fill(threes, (byte) 3);
        assertThat(ch.bytes()).isEqualTo(concat(header(8, 1, 64), ones, payload.toArray(ValueLayout.JAVA_BYTE),
                new byte[] {0, 40}, threes));
    }

    /**
     * The writer keeps its views of a payload's memory from one write to the next: runs from three memories (two
     * native, one on the heap) at random offsets, each slot of its references taking every memory in turn, with
     * plain records between them, must come out as the exact bytes, however the channel splits the writes.
     */
    @Test
    void runsFromChangingMemoriesThroughEverySlotArriveByteForByte() throws IOException {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment[] memories = {arena.allocate(5000), arena.allocate(3000),
                    MemorySegment.ofArray(new byte[4000])};
            for (MemorySegment m : memories) {
                for (long i = 0; i < m.byteSize(); i++) {
                    m.set(ValueLayout.JAVA_BYTE, i, (byte) random.nextInt());
                }
            }
            RecordWriter writer = new RecordWriter(4096);
            ChunkedChannel ch = new ChunkedChannel(1 + random.nextInt(600));
            java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
            for (int run = 0; run < 5 * RecordWriter.MAX_REFERENCES; run++) {
                MemorySegment m = memories[random.nextInt(memories.length)];
                int length = 1 + random.nextInt(900);
                long offset = random.nextLong(m.byteSize() - length + 1);
                long at = writer.beginRun(8, 1);
                while (at < 0) {
                    writer.writeTo(ch);
                    at = writer.beginRun(8, 1);
                }
                commitRun(writer, at, (byte) run, m, offset, length, expected);
                if (random.nextInt(3) == 0) {
                    byte[] plain = {(byte) run, 1, 2};
                    while (!writer.append(MemorySegment.ofArray(plain))) {
                        writer.writeTo(ch);
                    }
                    expected.write(new byte[] {0, 3});
                    expected.write(plain);
                }
                if (random.nextInt(4) == 0) {
                    writer.writeTo(ch);
                }
            }
            while (writer.pending() > 0) {
                writer.writeTo(ch);
            }
            assertThat(ch.bytes()).as("seed " + seed).isEqualTo(expected.toByteArray());
        }
    }

    @Test
    void noMoreThanTheMostReferencesAreHeldAtOnce() {
        RecordWriter writer = new RecordWriter(64 << 10);
        int length = RecordWriter.INLINE_PAYLOAD + 1;
        MemorySegment payload = MemorySegment.ofArray(new byte[length]);
        for (int i = 0; i < RecordWriter.MAX_REFERENCES; i++) {
            long at = writer.beginRun(8, 1);
            assertThat(at).isGreaterThanOrEqualTo(0);
            writer.commitRun(8, 1, payload, 0, length);
        }
        assertThat(writer.beginRun(8, 1)).isEqualTo(-1);
    }

    /**
     * A small payload goes into the batch behind its heads when the run is taken (the same bytes on the wire, in
     * one buffer); a larger one is read from its memory when the batch is written.
     */
    @Test
    void aSmallPayloadIsCopiedWhenTakenAndALargerOneIsWrittenFromItsMemory() throws IOException {
        for (int length : new int[] {1, RecordWriter.INLINE_PAYLOAD, RecordWriter.INLINE_PAYLOAD + 1}) {
            MemorySegment payload = MemorySegment.ofArray(new byte[length]).fill((byte) 4);
            RecordWriter writer = new RecordWriter(4096);
            long at = writer.beginRun(8, 1);
            writer.segment().asSlice(at, 8).fill((byte) 1);
            writer.commitRun(8, 1, payload, 0, length);
            assertThat(writer.pending()).isEqualTo(RecordReader.RUN_HEADER_BYTES + 8 + length);
            payload.fill((byte) 5); // after the run was taken
            ChunkedChannel ch = new ChunkedChannel(4096);
            while (writer.pending() > 0) {
                writer.writeTo(ch);
            }
            byte[] ones = new byte[8];
            java.util.Arrays.fill(ones, (byte) 1);
            byte[] body = new byte[length];
            java.util.Arrays.fill(body, (byte) (length <= RecordWriter.INLINE_PAYLOAD ? 4 : 5));
            assertThat(ch.bytes()).as("payload of %d bytes", length).isEqualTo(concat(header(8, 1, length), ones, body));
        }
    }

    /**
     * The first payload written by reference gives every slot its view of that memory, so a stream from one memory
     * makes no view later when it runs deeper than before (every slot holding a payload at once); a payload from
     * another memory makes one for its slot alone. The bytes go out right throughout.
     */
    @Test
    void aMemorysFirstPayloadMakesTheViewsOfEverySlotAtOnce() throws IOException {
        int length = RecordWriter.INLINE_PAYLOAD + 1;
        MemorySegment stream = MemorySegment.ofArray(new byte[4 * length]);
        for (int i = 0; i < stream.byteSize(); i++) {
            stream.set(ValueLayout.JAVA_BYTE, i, (byte) i);
        }
        MemorySegment other = MemorySegment.ofArray(new byte[length]).fill((byte) 7);
        RecordWriter writer = new RecordWriter(64 << 10);
        ChunkedChannel ch = new ChunkedChannel(64 << 10);
        java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
        // Shallow: each payload written before the next is taken, so only the first slot is used.
        for (int i = 0; i < 4; i++) {
            takeRun(writer, stream, i * (long) length, length, expected);
            drain(writer, ch);
        }
        assertThat(writer.viewsMade()).as("after a shallow stream").isEqualTo(RecordWriter.MAX_REFERENCES);
        // Deep: every slot holds a payload before any is written.
        for (int i = 0; i < RecordWriter.MAX_REFERENCES; i++) {
            takeRun(writer, stream, (i % 4) * (long) length, length, expected);
        }
        drain(writer, ch);
        assertThat(writer.viewsMade()).as("after every slot was used").isEqualTo(RecordWriter.MAX_REFERENCES);
        // Another memory takes the first slot's view; the stream's next payload there takes it back.
        takeRun(writer, other, 0, length, expected);
        drain(writer, ch);
        takeRun(writer, stream, 0, length, expected);
        drain(writer, ch);
        assertThat(writer.viewsMade()).isEqualTo(RecordWriter.MAX_REFERENCES + 2);
        assertThat(ch.bytes()).isEqualTo(expected.toByteArray());
    }

    /** Takes a run of one 8-byte head and a payload by reference, and appends its wire bytes to expected. */
    private static void takeRun(RecordWriter writer, MemorySegment payload, long offset, int length,
                                java.io.ByteArrayOutputStream expected) throws IOException {
        long at = writer.beginRun(8, 1);
        assertThat(at).isGreaterThanOrEqualTo(0);
        commitRun(writer, at, (byte) offset, payload, offset, length, expected);
    }

    /** Commits the run begun at {@code at}, its head filled with {@code fill}, and appends its wire bytes. */
    private static void commitRun(RecordWriter writer, long at, byte fill, MemorySegment payload, long offset,
                                  int length, java.io.ByteArrayOutputStream expected) throws IOException {
        byte[] head = new byte[8];
        java.util.Arrays.fill(head, fill);
        MemorySegment.copy(MemorySegment.ofArray(head), 0, writer.segment(), at, 8);
        writer.commitRun(8, 1, payload, offset, length);
        expected.write(header(8, 1, length));
        expected.write(head);
        expected.write(payload.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE));
    }

    private static void drain(RecordWriter writer, ChunkedChannel ch) throws IOException {
        while (writer.pending() > 0) {
            writer.writeTo(ch);
        }
    }

    /** A small payload that does not fit behind its heads in the batch is written from its memory instead. */
    @Test
    void aSmallPayloadWithNoRoomLeftInTheBatchGoesByReference() throws IOException {
        RecordWriter writer = new RecordWriter(64);
        long at = writer.beginRun(8, 6); // 8 + 48 of 64 bytes: 8 left
        writer.segment().asSlice(at, 48).fill((byte) 1);
        MemorySegment payload = MemorySegment.ofArray(new byte[40]).fill((byte) 4);
        writer.commitRun(8, 6, payload, 0, 40);
        ChunkedChannel ch = new ChunkedChannel(1000);
        while (writer.pending() > 0) {
            writer.writeTo(ch);
        }
        byte[] heads = new byte[48];
        java.util.Arrays.fill(heads, (byte) 1);
        assertThat(ch.bytes()).isEqualTo(concat(header(8, 6, 40), heads, payload.toArray(ValueLayout.JAVA_BYTE)));
    }

    @Test
    void aWholeRunIsTakenWithItsFieldsAndPlainRecordsAroundItStayPlain() throws IOException {
        byte[] heads = new byte[24];
        byte[] body = {10, 11, 12, 13, 14};
        RecordReader r = reader();
        r.fill(new RecordReaderTest.Chunks(concat(RecordReaderTest.record(2, 40), header(12, 2, 5), heads, body,
                RecordReaderTest.record(1, 50))));
        assertThat(r.nextRecord()).isEqualTo(2);
        assertThat(r.isRun()).isFalse();
        long at = r.nextRecord();
        assertThat(r.isRun()).isTrue();
        assertThat(r.runFrames()).isEqualTo(2);
        assertThat(r.runHead()).isEqualTo(12);
        assertThat(r.runPayload()).isEqualTo(5);
        assertThat(r.segment().asSlice(at + 24, 5).toArray(ValueLayout.JAVA_BYTE)).isEqualTo(body);
        r.nextRecord();
        assertThat(r.isRun()).isFalse();
        assertThat(r.recordLength()).isEqualTo(1);
    }

    @Test
    void aRunArrivingByteByByteIsTakenOnlyOnceWhole() throws IOException {
        byte[] whole = concat(header(8, 1, 3), new byte[8], new byte[] {1, 2, 3});
        byte[][] bytes = new byte[whole.length][];
        for (int i = 0; i < whole.length; i++) {
            bytes[i] = new byte[] {whole[i]};
        }
        RecordReader r = reader();
        RecordReaderTest.Chunks ch = new RecordReaderTest.Chunks(bytes);
        for (int i = 0; i < whole.length - 1; i++) {
            r.fill(ch);
            assertThat(r.nextRecord()).as("after %d bytes", i + 1).isEqualTo(-1);
        }
        r.fill(ch);
        assertThat(r.nextRecord()).isGreaterThanOrEqualTo(0);
        assertThat(r.isRun()).isTrue();
    }

    @Test
    void malformedRunHeadersAreRefusedNamingTheField() throws IOException {
        assertRefused(header(7, 1, 1), "head length 7 is outside 8..16");
        assertRefused(header(17, 1, 1), "head length 17 is outside 8..16");
        assertRefused(header(8, 0, 1), "run record of 0 frames; 1..4");
        assertRefused(header(8, 5, 1), "run record of 5 frames; 1..4");
        assertRefused(header(8, 1, 101), "run record with 101 payload bytes; at most 100");
        // Hostile: a length with the top bit set, read as unsigned, never as a negative size to allocate or await.
        assertRefused(header(8, 1, 0xFFFF_FFFFL), "run record with 4294967295 payload bytes; at most 100");
        assertRefused(header(8, 0xFFFF, 1), "run record of 65535 frames; 1..4");
    }

    @Test
    void aStreamCutInsideARunIsRefusedNotWaitedFor() throws IOException {
        assertRefused(new byte[] {(byte) 0x80, 8, 0, 1}, "the stream ended inside a run record's header (4 of 8");
        assertRefused(concat(header(8, 1, 10), new byte[12]), "the stream ended inside a run record of 26 bytes (20");
    }

    @Test
    void aReaderWithoutRunsTakesTheFlagAsALengthAndALimitThatCannotHoldARunsHeadsIsRefused() throws IOException {
        RecordReader plain = new RecordReader("control", 4096, 1, 1000);
        plain.fill(new RecordReaderTest.Chunks(header(8, 1, 1)));
        assertThatThrownBy(plain::nextRecord).isInstanceOf(StreamFormatException.class)
                .hasMessageContaining("record length 32776 is outside 1..1000");
        // The largest run's header and heads (8 + 4 x 16 bytes) must fit; its payload need not.
        assertThatThrownBy(() -> new RecordReader("x", 71, 1, 50, LIMITS))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new RecordReader("x", 72, 1, 50, LIMITS).segment().byteSize()).isEqualTo(72);
        assertThatThrownBy(() -> new RecordReader("x", 4096, 1, 1000, new RecordReader.RunLimits(8, 0x8000, 1, 1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRunLongerThanTheBufferStopsAtItsHeadsForItsPayloadToBeTakenElsewhere() throws IOException {
        // Room for the largest run's header and heads (72 bytes), not for this run whole (8 + 2 x 8 + 90).
        RecordReader r = new RecordReader("rail t", 80, 1, 50, LIMITS);
        byte[] heads = new byte[16];
        java.util.Arrays.fill(heads, (byte) 0x11);
        byte[] payload = new byte[90];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i + 1);
        }
        RecordReaderTest.Chunks stream = new RecordReaderTest.Chunks(concat(header(8, 2, 90), heads, payload));
        assertThat(r.fill(stream)).isEqualTo(80);
        assertThat(r.nextRecord()).isEqualTo(-1);
        long at = r.partialRun();
        assertThat(at).isEqualTo(RecordReader.RUN_HEADER_BYTES);
        assertThat(r.runFits()).as("it can never arrive whole in this buffer").isFalse();
        assertThat(r.missing()).isEqualTo(8 + 16 + 90 - 80);
        assertThat(r.segment().asSlice(at, 16).toArray(ValueLayout.JAVA_BYTE)).isEqualTo(heads);
        long payloadAt = r.takeHeads();
        assertThat(r.segment().asSlice(payloadAt, 80 - 24).toArray(ValueLayout.JAVA_BYTE))
                .isEqualTo(java.util.Arrays.copyOf(payload, 56));
        assertThat(r.buffered()).as("the rest is the caller's to read").isZero();
        ByteBuffer rest = ByteBuffer.allocate(34);
        assertThat(stream.read(rest)).isEqualTo(34);
        assertThat(rest.array()).isEqualTo(java.util.Arrays.copyOfRange(payload, 56, 90));
    }

    @Test
    void aRunThatFitsTheBufferIsWaitedForWhole() throws IOException {
        RecordReader r = reader();
        r.fill(new RecordReaderTest.Chunks(concat(header(8, 1, 50), new byte[8], new byte[20])));
        assertThat(r.nextRecord()).isEqualTo(-1);
        assertThat(r.partialRun()).isPositive();
        assertThat(r.runFits()).isTrue();
        assertThat(r.missing()).isEqualTo(30);
    }

    @Test
    void whatIsMissingOfARecordIsToldOnlyAsFarAsItsHeaderIsHere() throws IOException {
        RecordReader nothing = reader();
        assertThat(nothing.missing()).isZero();
        RecordReader half = reader();
        half.fill(new RecordReaderTest.Chunks(new byte[] {0}));
        assertThat(half.missing()).as("one byte of a length says nothing yet").isZero();
        RecordReader plain = reader();
        plain.fill(new RecordReaderTest.Chunks(new byte[] {0, 10, 1, 2, 3, 4}));
        assertThat(plain.missing()).isEqualTo(2 + 10 - 6);
        RecordReader runPrefix = reader();
        runPrefix.fill(new RecordReaderTest.Chunks(new byte[] {(byte) 0x80, 8, 0}));
        assertThat(runPrefix.missing()).as("the rest of a run's header").isEqualTo(5);
        // Hostile: a payload length of 4 GiB is refused by nextRecord; what is missing is never negative.
        RecordReader hostile = reader();
        hostile.fill(new RecordReaderTest.Chunks(header(8, 1, 0xFFFF_FFFFL)));
        assertThat(hostile.missing()).isEqualTo(Integer.MAX_VALUE);
        assertThatThrownBy(hostile::nextRecord).isInstanceOf(StreamFormatException.class);
    }

    @Test
    void aFillReadsNoMoreThanItIsAllowedAndAlwaysSomething() throws IOException {
        RecordReader r = reader();
        RecordReaderTest.Chunks stream = new RecordReaderTest.Chunks(new byte[50]);
        assertThat(r.fill(stream, 10)).isEqualTo(10);
        assertThat(r.drained()).as("it took all it was allowed: more may be there").isFalse();
        assertThat(r.fill(stream, 0)).isEqualTo(1);
        assertThat(r.fill(stream, Integer.MAX_VALUE)).isEqualTo(39);
        assertThat(r.drained()).isTrue();
        assertThat(r.buffered()).isEqualTo(50);
    }

    private static void assertRefused(byte[] stream, String message) throws IOException {
        RecordReader r = reader();
        r.fill(new RecordReaderTest.Chunks(stream));
        r.fill(new RecordReaderTest.Chunks());
        assertThatThrownBy(r::nextRecord).isInstanceOf(StreamFormatException.class).hasMessageContaining(message);
    }
}
