package io.xdlink.rails.tcp;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordReaderTest {

    /** A channel that hands out scripted chunks, one per read, then the end of the stream. */
    static final class Chunks implements ReadableByteChannel {
        final Deque<byte[]> chunks = new ArrayDeque<>();

        Chunks(byte[]... parts) {
            for (byte[] p : parts) {
                chunks.add(p);
            }
        }

        @Override
        public int read(ByteBuffer dst) {
            byte[] next = chunks.poll();
            if (next == null) {
                return -1;
            }
            int n = Math.min(next.length, dst.remaining());
            dst.put(next, 0, n);
            if (n < next.length) {
                chunks.addFirst(java.util.Arrays.copyOfRange(next, n, next.length));
            }
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    static byte[] record(int length, int fill) {
        byte[] r = new byte[2 + length];
        r[0] = (byte) (length >>> 8);
        r[1] = (byte) length;
        for (int i = 0; i < length; i++) {
            r[2 + i] = (byte) (fill + i);
        }
        return r;
    }

    private static byte[] readAll(RecordReader reader, ReadableByteChannel ch) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int taken = 0; ; ) {
            // Alternately as a slice and in place, so both ways cut the same records.
            if (taken % 2 == 0) {
                MemorySegment r = reader.next();
                if (r != null) {
                    out.write(r.toArray(ValueLayout.JAVA_BYTE));
                    taken++;
                    continue;
                }
            } else {
                long at = reader.nextRecord();
                if (at >= 0) {
                    out.write(reader.segment().asSlice(at, reader.recordLength()).toArray(ValueLayout.JAVA_BYTE));
                    taken++;
                    continue;
                }
            }
            if (reader.fill(ch) < 0) {
                assertThat(reader.next()).isNull();
                return out.toByteArray();
            }
        }
    }

    @Test
    void recordsSplitAtEveryPossibleByteArriveWhole() throws IOException {
        long seed = Long.getLong("xdlink.test.seed", System.nanoTime());
        Random random = new Random(seed);
        java.io.ByteArrayOutputStream stream = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream bodies = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < 200; i++) {
            byte[] r = record(1 + random.nextInt(4096), random.nextInt());
            stream.writeBytes(r);
            bodies.write(r, 2, r.length - 2);
        }
        byte[] all = stream.toByteArray();
        Chunks chunks = new Chunks();
        for (int at = 0; at < all.length; ) {
            int n = Math.min(all.length - at, 1 + random.nextInt(5000));
            chunks.chunks.add(java.util.Arrays.copyOfRange(all, at, at + n));
            at += n;
        }
        RecordReader reader = new RecordReader("test", 4098, 1, 4096);
        assertThat(readAll(reader, chunks)).as("seed %d (rerun with -Dxdlink.test.seed=%d)", seed, seed)
                .isEqualTo(bodies.toByteArray());
        assertThat(reader.finished()).isTrue();
    }

    @Test
    void aReadThatTookLessThanItHadRoomForSaysTheSocketWasDrained() throws IOException {
        int capacity = 2 + 4096;
        RecordReader reader = new RecordReader("t", capacity, 1, 4096);
        byte[] full = new byte[capacity];
        System.arraycopy(record(10, 1), 0, full, 0, 12);
        System.arraycopy(record(capacity - 14, 2), 0, full, 12, capacity - 12);
        Chunks ch = new Chunks(full, record(3, 5));
        assertThat(reader.fill(ch)).isEqualTo(capacity);
        assertThat(reader.drained()).as("a read that filled the buffer may have left more behind").isFalse();
        assertThat(reader.next().byteSize()).isEqualTo(10);
        assertThat(reader.next().byteSize()).isEqualTo(capacity - 14);
        assertThat(reader.fill(ch)).isEqualTo(5);
        assertThat(reader.drained()).isTrue();
        assertThat(reader.next().toArray(ValueLayout.JAVA_BYTE)).containsExactly(5, 6, 7);
    }

    @Test
    void aStreamEndingInsideTheLengthPrefixIsRefused() throws IOException {
        RecordReader reader = new RecordReader("rail x", 8192, 1, 4096);
        Chunks ch = new Chunks(record(3, 0), new byte[] {0x00});
        assertThatThrownBy(() -> readAll(reader, ch)).isInstanceOf(StreamFormatException.class)
                .hasMessage("rail x: the stream ended inside a record's length prefix (1 of 2 bytes)");
    }

    @Test
    void aStreamEndingInsideARecordIsRefused() {
        RecordReader reader = new RecordReader("rail x", 8192, 1, 4096);
        byte[] cut = java.util.Arrays.copyOf(record(100, 0), 50);
        assertThatThrownBy(() -> readAll(reader, new Chunks(cut))).isInstanceOf(StreamFormatException.class)
                .hasMessage("rail x: the stream ended inside a record of 100 bytes (48 arrived)");
    }

    @Test
    void anOversizedLengthIsRefusedBeforeItsBytesAreAwaited() throws IOException {
        RecordReader reader = new RecordReader("rail x", 8192, 1, 4096);
        // Only the prefix arrives: the reader must not wait for 65535 bytes that would never fit a frame.
        reader.fill(new Chunks(new byte[] {(byte) 0xFF, (byte) 0xFF}));
        assertThatThrownBy(reader::next).isInstanceOf(StreamFormatException.class)
                .hasMessage("rail x: record length 65535 is outside 1..4096 at stream offset 0");
    }

    @Test
    void aZeroLengthIsRefused() throws IOException {
        RecordReader reader = new RecordReader("rail x", 8192, 1, 4096);
        reader.fill(new Chunks(new byte[] {0, 0, 1, 2}));
        assertThatThrownBy(reader::next).isInstanceOf(StreamFormatException.class)
                .hasMessageContaining("record length 0 is outside 1..4096");
    }

    @Test
    void garbageNeverLoopsAndEndsInAClearError() {
        long seed = Long.getLong("xdlink.test.seed", System.nanoTime());
        Random random = new Random(seed);
        for (int round = 0; round < 200; round++) {
            byte[] junk = new byte[random.nextInt(10_000)];
            random.nextBytes(junk);
            RecordReader reader = new RecordReader("junk", 8192, 1, 4096);
            try {
                readAll(reader, new Chunks(junk));
                // Garbage that happens to parse must have consumed every byte as whole records.
                assertThat(reader.finished()).as("seed %d", seed).isTrue();
            } catch (StreamFormatException expected) {
                assertThat(expected.getMessage()).as("seed %d", seed).startsWith("junk: ");
            } catch (IOException e) {
                throw new AssertionError("seed " + seed, e);
            }
        }
    }

    @Test
    void writerBatchesRecordsAndKeepsWhatTheChannelDidNotTake() throws IOException {
        RecordWriter writer = new RecordWriter(100);
        assertThat(writer.append(MemorySegment.ofArray(new byte[40]))).isTrue();
        assertThat(writer.append(MemorySegment.ofArray(new byte[40]))).isTrue();
        assertThat(writer.append(MemorySegment.ofArray(new byte[40]))).as("no room for a third").isFalse();
        ChunkedChannel half = new ChunkedChannel(50);
        assertThat(writer.writeTo(half)).isEqualTo(50);
        assertThat(writer.pending()).isEqualTo(34);
        assertThat(writer.append(MemorySegment.ofArray(new byte[40]))).as("room after moving the rest up").isTrue();
        while (writer.pending() > 0) {
            writer.writeTo(half);
        }
        assertThat(half.bytes()).hasSize(3 * 42);
        assertThat(half.writes()).isEqualTo(3);
    }

    @Test
    void aRecordWrittenInPlaceGetsItsPrefixAndARefusedOneIsNeverWritten() throws IOException {
        RecordWriter writer = new RecordWriter(10);
        assertThat(writer.append(3, (buf, at) -> buf.asSlice(at, 3).copyFrom(MemorySegment.ofArray(new byte[] {7, 8, 9}))))
                .isTrue();
        boolean[] called = {false};
        assertThat(writer.append(6, (buf, at) -> called[0] = true)).as("5 + 8 bytes do not fit in 10").isFalse();
        assertThat(called[0]).as("a refused record's writer is not called").isFalse();
        ChunkedChannel sink = new ChunkedChannel(100);
        writer.writeTo(sink);
        assertThat(sink.bytes()).containsExactly(0, 3, 7, 8, 9);
    }

    /**
     * A payload read into its place takes what follows it on the stream into the buffer in the same read, behind the
     * bytes waiting there and without moving them; nothing lands in the buffer before the place is full, and with no
     * room behind only the place is read.
     */
    @Test
    void aReadIntoPlaceTakesWhatFollowsIntoTheBufferBehindWhatWaitsThere() throws IOException {
        java.nio.channels.Pipe pipe = java.nio.channels.Pipe.open();
        try (var source = pipe.source(); var sink = pipe.sink()) {
            RecordReader reader = new RecordReader("p", 64, 1, 60);
            sink.write(ByteBuffer.wrap(record(10, 1)));
            assertThat(reader.fill(source)).isEqualTo(12);
            long waiting = reader.nextRecord();
            byte[] before = reader.segment().asSlice(waiting, 10).toArray(ValueLayout.JAVA_BYTE);

            byte[] payload = new byte[100];
            new Random(7).nextBytes(payload);
            ByteBuffer place = ByteBuffer.allocateDirect(100);
            // Only part of the payload is there: all of it goes to the place, none to the buffer.
            sink.write(ByteBuffer.wrap(payload, 0, 30));
            assertThat(reader.fillBehind(source, place, 40)).isEqualTo(30);
            assertThat(reader.buffered()).isZero();
            assertThat(reader.drained()).isTrue();
            // The rest, then two records: the place fills, then the buffer takes what follows, up to 40 bytes.
            sink.write(ByteBuffer.wrap(payload, 30, 70));
            sink.write(ByteBuffer.wrap(record(20, 50)));
            sink.write(ByteBuffer.wrap(record(30, 90)));
            assertThat(reader.fillBehind(source, place, 40)).isEqualTo(70 + 40);
            assertThat(place.flip()).isEqualTo(ByteBuffer.wrap(payload));
            assertThat(reader.drained()).isFalse();
            assertThat(reader.segment().asSlice(waiting, 10).toArray(ValueLayout.JAVA_BYTE))
                    .as("the bytes waiting in the buffer did not move").isEqualTo(before);
            assertThat(reader.next().toArray(ValueLayout.JAVA_BYTE))
                    .isEqualTo(java.util.Arrays.copyOfRange(record(20, 50), 2, 22));
            assertThat(reader.next()).as("the second record is not whole yet").isNull();
            assertThat(reader.fill(source)).isEqualTo(14);
            assertThat(reader.next().toArray(ValueLayout.JAVA_BYTE))
                    .isEqualTo(java.util.Arrays.copyOfRange(record(30, 90), 2, 32));

            // With no room behind what waits there, only the place is read.
            RecordReader full = new RecordReader("f", 64, 1, 62);
            sink.write(ByteBuffer.wrap(record(62, 3)));
            assertThat(full.fill(source)).isEqualTo(64);
            assertThat(full.nextRecord()).isEqualTo(2);
            ByteBuffer small = ByteBuffer.allocateDirect(5);
            sink.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7}));
            assertThat(full.fillBehind(source, small, 40)).isEqualTo(5);
            assertThat(full.buffered()).isZero();
            assertThat(full.fill(source)).isEqualTo(2);
        }
    }
}
