package io.xdlink.rails.tcp;

import io.xdlink.rails.RailTransport.FrameWriter;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.GatheringByteChannel;
import java.util.Arrays;

/**
 * Gathers length-prefixed records in one direct buffer and writes them out together, so a burst of frames costs one
 * {@code write} instead of one per frame. Appending never touches the socket; {@link #writeTo} does, without
 * blocking, and keeps whatever the socket did not take.
 *
 * <p>A run record ({@link #beginRun}, {@link #commitRun}) keeps only its heads in the buffer: its payload stays in the
 * memory it was registered in and joins the write by reference, as one more buffer of a gathering {@code write}, so
 * a bulk transfer's bytes go from the application's memory to the socket with no copy of ours between.
 */
final class RecordWriter {
    /** Payloads held by reference at once; a gathering write then has at most twice as many buffers and one. */
    static final int MAX_REFERENCES = 64;
    /**
     * Payloads up to this size are copied into the batch behind their run's heads instead of joining the write by
     * reference: each buffer of a gathering write costs the kernel more than copying this much costs us. An 8-byte
     * message's answer (acknowledgement, advertisement, data) left in one buffer instead of four, and two hosts
     * driven by one thread over TCP rails on {@code lo} ({@code OneThreadPingPong} in bench/) took 16.1 us a round trip
     * against 16.8.
     */
    static final int INLINE_PAYLOAD = 512;
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private final ByteBuffer buffer;
    private final MemorySegment segment;
    private int start;
    private int end;
    /** Payloads by reference, oldest first: each goes on the wire right before the buffer byte at its cut. */
    private final int[] cut = new int[MAX_REFERENCES];
    private final MemorySegment[] ref = new MemorySegment[MAX_REFERENCES];
    private final long[] refOffset = new long[MAX_REFERENCES];
    private final long[] refLength = new long[MAX_REFERENCES];
    private int refFirst;
    private int refCount;
    private long refBytes;
    private final ByteBuffer[] gather = new ByteBuffer[2 * MAX_REFERENCES + 1];
    /**
     * Views a gathering write reuses rather than making new ones each time (a 64 KiB message is four runs, so nine
     * buffers a write): of the batch buffer, one per stretch between payloads; and of each payload's memory, one per
     * slot, kept while that slot's payloads come from the same memory, as a stream's do.
     */
    private final ByteBuffer[] batchViews = new ByteBuffer[MAX_REFERENCES + 1];
    private final ByteBuffer[] refViews = new ByteBuffer[MAX_REFERENCES];
    private final MemorySegment[] refViewOf = new MemorySegment[MAX_REFERENCES];
    private int viewsMade;

    RecordWriter(int capacity) {
        this.buffer = ByteBuffer.allocateDirect(capacity);
        this.segment = MemorySegment.ofBuffer(buffer);
        for (int i = 0; i < batchViews.length; i++) {
            batchViews[i] = buffer.duplicate();
        }
    }

    /**
     * Makes room for a record of {@code length} bytes (moving unwritten bytes to the front when that helps).
     *
     * @return the buffer offset where the record's bytes go, or -1 when there is no room now
     */
    private long room(int length) {
        int need = RecordReader.PREFIX_BYTES + length;
        if (segment.byteSize() - end < need) {
            if (start == 0 || segment.byteSize() - (end - start) < need) {
                return -1;
            }
            MemorySegment.copy(segment, start, segment, 0, end - start);
            for (int i = 0; i < refCount; i++) {
                cut[(refFirst + i) % MAX_REFERENCES] -= start;
            }
            end -= start;
            start = 0;
        }
        return end + RecordReader.PREFIX_BYTES;
    }

    /** Takes the record whose bytes were just written after {@link #room}: its prefix goes in front of them. */
    private void commit(int length) {
        segment.set(RecordReader.LENGTH, end, (short) length);
        end += RecordReader.PREFIX_BYTES + length;
    }

    /** Appends one record with {@code bytes} as its body; false when there is no room now. */
    boolean append(MemorySegment bytes) {
        int length = (int) bytes.byteSize();
        long at = room(length);
        if (at < 0) {
            return false;
        }
        MemorySegment.copy(bytes, 0, segment, at, length);
        commit(length);
        return true;
    }

    /**
     * Appends one record of {@code length} bytes that {@code writer} writes straight into the buffer; false, with
     * the writer not called, when there is no room now. Nothing is taken until the writer returns.
     */
    boolean append(int length, FrameWriter writer) {
        long at = room(length);
        if (at < 0) {
            return false;
        }
        writer.write(segment, at);
        commit(length);
        return true;
    }

    /** Appends one record of a kind byte, a channel byte and a body; false when there is no room now. */
    boolean append(byte kind, byte channel, byte[] body) {
        long at = room(2 + body.length);
        if (at < 0) {
            return false;
        }
        segment.set(ValueLayout.JAVA_BYTE, at, kind);
        segment.set(ValueLayout.JAVA_BYTE, at + 1, channel);
        MemorySegment.copy(MemorySegment.ofArray(body), 0, segment, at + 2, body.length);
        commit(2 + body.length);
        return true;
    }

    /**
     * Makes room for a run record of up to {@code frames} heads of {@code headLength} bytes each.
     *
     * @return the buffer offset where head 0 goes (head i at {@code headLength * i} after it), or -1 when there is
     *         no room now (in the buffer, or for one more payload by reference)
     */
    long beginRun(int headLength, int frames) {
        if (refCount == MAX_REFERENCES) {
            return -1;
        }
        long at = room(RecordReader.RUN_HEADER_BYTES - RecordReader.PREFIX_BYTES + headLength * frames);
        return at < 0 ? -1 : at + RecordReader.RUN_HEADER_BYTES - RecordReader.PREFIX_BYTES;
    }

    /**
     * Takes the run whose {@code frames} heads were just written after {@link #beginRun}: its header goes in front of
     * them, and its {@code payloadLength} bytes of {@code payload} from {@code payloadOffset} follow them on the wire,
     * read from there when the run is written. The memory must stay readable until then.
     */
    void commitRun(int headLength, int frames, MemorySegment payload, long payloadOffset, int payloadLength) {
        segment.set(RecordReader.LENGTH, end, (short) (RecordReader.RUN_FLAG | headLength));
        segment.set(RecordReader.LENGTH, end + 2, (short) frames);
        segment.set(U32, end + 4, payloadLength);
        end += RecordReader.RUN_HEADER_BYTES + headLength * frames;
        if (payloadLength <= INLINE_PAYLOAD && segment.byteSize() - end >= payloadLength) {
            // The same bytes on the wire, from the batch: one buffer fewer in the gathering write.
            MemorySegment.copy(payload, payloadOffset, segment, end, payloadLength);
            end += payloadLength;
            return;
        }
        int k = (refFirst + refCount) % MAX_REFERENCES;
        cut[k] = end;
        ref[k] = payload;
        refOffset[k] = payloadOffset;
        refLength[k] = payloadLength;
        refCount++;
        refBytes += payloadLength;
    }

    /**
     * Writes what the channel takes now, without blocking: buffered bytes and payloads by reference in their order,
     * in one gathering write.
     *
     * @return bytes written
     * @throws IllegalStateException when a payload's memory was closed before it could be written
     */
    int writeTo(GatheringByteChannel channel) throws IOException {
        if (start == end && refCount == 0) {
            return 0;
        }
        if (refCount == 0) {
            buffer.limit(end).position(start);
            int n = channel.write(buffer);
            start += n;
            if (start == end) {
                start = 0;
                end = 0;
            }
            return n;
        }
        int buffers = 0;
        int stretches = 0;
        int at = start;
        for (int i = 0; i < refCount; i++) {
            int k = (refFirst + i) % MAX_REFERENCES;
            if (cut[k] > at) {
                gather[buffers++] = batchViews[stretches++].limit(cut[k]).position(at);
                at = cut[k];
            }
            gather[buffers++] = refView(k);
        }
        if (end > at) {
            gather[buffers++] = batchViews[stretches].limit(end).position(at);
        }
        long n = channel.write(gather, 0, buffers);
        Arrays.fill(gather, 0, buffers, null);
        consume(n);
        return (int) n;
    }

    /**
     * Slot {@code k}'s payload as a buffer: its slot's view of the payload's memory, made again only when the memory
     * changed; memory too large for one buffer is sliced each time.
     */
    private ByteBuffer refView(int k) {
        MemorySegment memory = ref[k];
        long from = refOffset[k];
        long to = from + refLength[k];
        if (refViewOf[k] != memory) {
            if (memory.byteSize() > Integer.MAX_VALUE) {
                return memory.asSlice(from, refLength[k]).asByteBuffer();
            }
            makeViews(k, memory);
        }
        return refViews[k].limit((int) to).position((int) from);
    }

    /**
     * Makes slot {@code k}'s view of {@code memory}, and one for every slot that has none yet. A stream's payloads
     * come from one memory, and a slot first used late, when more payloads are in flight than before (8 MiB messages
     * after 1 MiB ones), made its view inside a compiled send path that had never seen that branch taken: between
     * two plugin processes, the sending end's write path met an uncommon trap there and ran interpreted until it was
     * compiled again, 90-145 ms into the 8 MiB stream.
     */
    private void makeViews(int k, MemorySegment memory) {
        ByteBuffer view = memory.asByteBuffer();
        refViews[k] = view;
        refViewOf[k] = memory;
        viewsMade++;
        for (int i = 0; i < MAX_REFERENCES; i++) {
            if (refViewOf[i] == null) {
                refViews[i] = view.duplicate();
                refViewOf[i] = memory;
                viewsMade++;
            }
        }
    }

    /** Views of payload memory made so far, for tests. */
    int viewsMade() {
        return viewsMade;
    }

    /** Drops the first {@code n} bytes of what is pending, buffered and by reference alike, in wire order. */
    private void consume(long n) {
        while (n > 0) {
            int k = refFirst;
            int upTo = refCount > 0 ? cut[k] : end;
            if (start < upTo) {
                int take = (int) Math.min(n, upTo - start);
                start += take;
                n -= take;
                continue;
            }
            long take = Math.min(n, refLength[k]);
            refOffset[k] += take;
            refLength[k] -= take;
            refBytes -= take;
            n -= take;
            if (refLength[k] == 0) {
                ref[k] = null;
                refFirst = (refFirst + 1) % MAX_REFERENCES;
                refCount--;
            }
        }
        if (start == end && refCount == 0) {
            start = 0;
            end = 0;
            refFirst = 0;
        }
    }

    /** The buffer records are written into (a run's heads go at the offset {@link #beginRun} gave). */
    MemorySegment segment() {
        return segment;
    }

    /** Bytes appended and not yet written, payloads by reference included. */
    long pending() {
        return end - start + refBytes;
    }
}
