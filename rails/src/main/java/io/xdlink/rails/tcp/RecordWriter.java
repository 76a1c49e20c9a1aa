package io.xdlink.rails.tcp;

import io.xdlink.rails.RailTransport.FrameWriter;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * Gathers length-prefixed records in one direct buffer and writes them out together, so a burst of frames costs one
 * {@code write} instead of one per frame. Appending never touches the socket; {@link #writeTo} does, without
 * blocking, and keeps whatever the socket did not take.
 */
final class RecordWriter {
    private final ByteBuffer buffer;
    private final MemorySegment segment;
    private int start;
    private int end;

    RecordWriter(int capacity) {
        this.buffer = ByteBuffer.allocateDirect(capacity);
        this.segment = MemorySegment.ofBuffer(buffer);
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
        segment.set(java.lang.foreign.ValueLayout.JAVA_BYTE, at, kind);
        segment.set(java.lang.foreign.ValueLayout.JAVA_BYTE, at + 1, channel);
        MemorySegment.copy(MemorySegment.ofArray(body), 0, segment, at + 2, body.length);
        commit(2 + body.length);
        return true;
    }

    /**
     * Writes what the channel takes now, without blocking.
     *
     * @return bytes written
     */
    int writeTo(WritableByteChannel channel) throws IOException {
        if (start == end) {
            return 0;
        }
        buffer.limit(end).position(start);
        int n = channel.write(buffer);
        start += n;
        if (start == end) {
            start = 0;
            end = 0;
        }
        return n;
    }

    /** Bytes appended and not yet written. */
    int pending() {
        return end - start;
    }
}
