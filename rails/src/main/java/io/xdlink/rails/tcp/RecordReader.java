package io.xdlink.rails.tcp;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.ScatteringByteChannel;

/**
 * Cuts a byte stream into records, each a 2-byte big-endian length followed by that many bytes, straight out of one
 * direct buffer: a record is handed out as a slice of the buffer, or by its offset for a consumer that reads in
 * place, so nothing is copied between the socket and the consumer. A length outside {@code [min, max]} is refused
 * before anything is read behind it, so an untrusted length never decides how much is allocated or awaited.
 *
 * <p>A reader made with {@link RunLimits} also takes run records: a prefix with its top bit set
 * ({@link #RUN_FLAG}) and the low bits giving the length of each head, then a u16 count of heads and a u32 payload
 * length, then the heads, then the payload. Every field is checked against the limits before anything behind it is
 * read, and {@link #isRun()} tells the consumer which kind {@link #nextRecord} took. A run record need not fit the
 * buffer: its header and heads always do, and a run longer than the buffer can be taken only by a consumer that
 * takes its payload elsewhere ({@link #takeHeads}).
 */
final class RecordReader {
    static final int PREFIX_BYTES = 2;
    static final ValueLayout.OfShort LENGTH = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    /** The prefix bit that marks a run record. */
    static final int RUN_FLAG = 0x8000;
    /** A run record's prefix, count and payload length. */
    static final int RUN_HEADER_BYTES = 8;

    /**
     * What a run record may hold: heads of {@code minHead..maxHead} bytes, at most {@code maxFrames} of them and
     * {@code maxPayload} payload bytes.
     */
    record RunLimits(int minHead, int maxHead, int maxFrames, int maxPayload) {
        /** The longest run record these limits allow. */
        int maxRecord() {
            return RUN_HEADER_BYTES + maxHead * maxFrames + maxPayload;
        }

        /** The longest a run record's header and heads can be: what a buffer must hold of any run. */
        int maxHeads() {
            return RUN_HEADER_BYTES + maxHead * maxFrames;
        }
    }

    private String name;
    private final int minRecord;
    private final int maxRecord;
    private final ByteBuffer buffer;
    private final MemorySegment segment;
    private int start;
    private int end;
    private boolean endOfStream;
    private int recordLength;
    /** The last read took less than it had room for: the socket had nothing more at that moment. */
    private boolean drained;
    /** The room the last {@link #fill} asked for. */
    private int lastRoom;
    private final RunLimits runs;
    /**
     * The longest plain record, or run header with its heads: a fill makes sure one fits behind the unread bytes.
     */
    private final int longest;
    private boolean run;
    private int runFrames;
    private int runHead;
    private int runPayload;
    private long partialAt = -1;
    /** The two buffers of a {@link #fillBehind}: the payload's place, then this reader's buffer. */
    private final ByteBuffer[] gather = new ByteBuffer[2];

    /**
     * @param name     the stream in error messages ({@code rail thunderbolt0/0})
     * @param capacity buffer size; at least one largest record with its prefix
     */
    RecordReader(String name, int capacity, int minRecord, int maxRecord) {
        this(name, capacity, minRecord, maxRecord, null);
    }

    /** As above, taking run records within {@code runs} too (null: none). */
    RecordReader(String name, int capacity, int minRecord, int maxRecord, RunLimits runs) {
        int maxPlain = runs == null ? 0xFFFF : RUN_FLAG - 1;
        this.longest = leastCapacity(maxRecord, runs);
        if (minRecord < 0 || maxRecord < minRecord || maxRecord > maxPlain || capacity < longest
                || (runs != null && (runs.minHead() < 1 || runs.maxHead() < runs.minHead()
                || runs.maxHead() >= RUN_FLAG || runs.maxFrames() < 1 || runs.maxFrames() > 0xFFFF
                || runs.maxPayload() < 0 || runs.maxRecord() < 0))) {
            throw new IllegalArgumentException("bad record bounds " + minRecord + ".." + maxRecord + ", runs " + runs
                    + " for capacity " + capacity);
        }
        this.runs = runs;
        this.name = name;
        this.minRecord = minRecord;
        this.maxRecord = maxRecord;
        this.buffer = ByteBuffer.allocateDirect(capacity);
        this.segment = MemorySegment.ofBuffer(buffer);
    }

    /**
     * The smallest buffer a reader of plain records up to {@code maxRecord} bytes and of runs within {@code runs}
     * (null: none) can have: it must hold the longest plain record whole, and a run's header and heads (a run's
     * payload may go elsewhere).
     */
    static int leastCapacity(int maxRecord, RunLimits runs) {
        return Math.max(PREFIX_BYTES + maxRecord, runs == null ? 0 : runs.maxHeads());
    }

    /** The run records this reader takes, or null when it takes none. */
    RunLimits runLimits() {
        return runs;
    }

    /**
     * Reads what the channel has now, once; makes room first by moving an unfinished record to the front.
     *
     * @return bytes read, 0 when nothing was there, -1 once the stream has ended
     */
    int fill(ReadableByteChannel channel) throws IOException {
        return fill(channel, Integer.MAX_VALUE);
    }

    /**
     * As {@link #fill(ReadableByteChannel)}, reading at most {@code most} bytes (at least one): a consumer about to
     * read a payload straight into its place reads only what comes before it into the buffer, so little of the
     * payload has to be copied out again.
     */
    int fill(ReadableByteChannel channel, long most) throws IOException {
        if (endOfStream) {
            return -1;
        }
        if (start == end) {
            start = 0;
            end = 0;
        } else if (buffer.capacity() - end < longest) {
            MemorySegment.copy(segment, start, segment, 0, end - start);
            end -= start;
            start = 0;
        }
        int room = (int) Math.min(buffer.capacity() - end, Math.max(1L, most));
        buffer.limit(end + room).position(end);
        lastRoom = room;
        int n = channel.read(buffer);
        if (n < 0) {
            endOfStream = true;
            return -1;
        }
        end += n;
        drained = n < room;
        return n;
    }

    /**
     * Where the last {@link #fill} put, or would have put, its bytes: after one that found nothing, the next asks
     * for the same place and room as long as nothing else touches the reader, so another thread's read may go there
     * instead ({@link #took}).
     */
    long fillAddress() {
        return segment.address() + end;
    }

    /** The most bytes the last {@link #fill} asked for. */
    int fillRoom() {
        return lastRoom;
    }

    /**
     * Takes {@code n} bytes (1 to {@link #fillRoom()}) that another thread read into {@link #fillAddress()} for the
     * next {@link #fill}, as that fill would have.
     */
    void took(int n) {
        if (n <= 0 || n > lastRoom) {
            throw new IllegalArgumentException(n + " bytes read for a fill of at most " + lastRoom);
        }
        end += n;
        drained = n < lastRoom;
    }

    /**
     * Reads the rest of a payload being read into its place, {@code place} (its position where the rest goes), and in
     * the same read up to {@code ahead} bytes of what follows it on the stream into this buffer, behind the bytes
     * already here and without moving them (a run's heads wait there while its payload arrives). A stream of
     * messages read into place then costs one read a message, the next run's header and heads arriving with the
     * payload before them, instead of two. Bytes land in the buffer only once {@code place} is full; with no room
     * behind, only {@code place} is read.
     *
     * @return bytes read in all, or -1 when the stream has ended
     */
    long fillBehind(ScatteringByteChannel channel, ByteBuffer place, int ahead) throws IOException {
        int room = Math.min(buffer.capacity() - end, Math.max(0, ahead));
        if (room == 0) {
            return channel.read(place);
        }
        buffer.limit(end + room).position(end);
        int want = place.remaining() + room;
        gather[0] = place;
        gather[1] = buffer;
        long n;
        try {
            n = channel.read(gather);
        } finally {
            gather[0] = null;
        }
        if (n < 0) {
            return -1;
        }
        end = buffer.position();
        drained = n < want;
        return n;
    }

    /**
     * The next whole record as a slice of the buffer, valid until the next {@link #fill}, or null when more bytes are
     * needed.
     *
     * @throws StreamFormatException when the length is out of range, or the stream ended inside a record
     */
    MemorySegment next() throws StreamFormatException {
        long at = nextRecord();
        return at < 0 ? null : segment.asSlice(at, recordLength);
    }

    /**
     * Takes the next whole record without making a slice: its offset in {@link #segment()} (its length in
     * {@link #recordLength()}), valid until the next {@link #fill}, or -1 when more bytes are needed.
     *
     * @throws StreamFormatException when the length is out of range, or the stream ended inside a record
     */
    long nextRecord() throws StreamFormatException {
        partialAt = -1;
        int available = end - start;
        if (available < PREFIX_BYTES) {
            if (endOfStream && available > 0) {
                throw new StreamFormatException(name + ": the stream ended inside a record's length prefix ("
                        + available + " of " + PREFIX_BYTES + " bytes)");
            }
            return -1;
        }
        int length = Short.toUnsignedInt(segment.get(LENGTH, start));
        if ((length & RUN_FLAG) != 0 && runs != null) {
            return nextRun(available, length & ~RUN_FLAG);
        }
        run = false;
        if (length < minRecord || length > maxRecord) {
            throw new StreamFormatException(name + ": record length " + length + " is outside " + minRecord + ".."
                    + maxRecord + " at stream offset " + start);
        }
        if (available < PREFIX_BYTES + length) {
            if (endOfStream) {
                throw new StreamFormatException(name + ": the stream ended inside a record of " + length + " bytes ("
                        + (available - PREFIX_BYTES) + " arrived)");
            }
            return -1;
        }
        long at = start + PREFIX_BYTES;
        recordLength = length;
        start += PREFIX_BYTES + length;
        return at;
    }

    /** A run record: its header checked field by field, then taken whole once every byte of it is here. */
    private long nextRun(int available, int head) throws StreamFormatException {
        if (head < runs.minHead() || head > runs.maxHead()) {
            throw new StreamFormatException(name + ": run record's head length " + head + " is outside "
                    + runs.minHead() + ".." + runs.maxHead() + " at stream offset " + start);
        }
        if (available < RUN_HEADER_BYTES) {
            if (endOfStream) {
                throw new StreamFormatException(name + ": the stream ended inside a run record's header ("
                        + available + " of " + RUN_HEADER_BYTES + " bytes)");
            }
            return -1;
        }
        int frames = Short.toUnsignedInt(segment.get(LENGTH, start + 2));
        if (frames < 1 || frames > runs.maxFrames()) {
            throw new StreamFormatException(name + ": run record of " + frames + " frames; 1.." + runs.maxFrames()
                    + " at stream offset " + start);
        }
        long payload = Integer.toUnsignedLong(segment.get(U32, start + 4));
        if (payload > runs.maxPayload()) {
            throw new StreamFormatException(name + ": run record with " + payload + " payload bytes; at most "
                    + runs.maxPayload() + " at stream offset " + start);
        }
        int length = head * frames + (int) payload;
        if (available < RUN_HEADER_BYTES + length) {
            if (endOfStream) {
                throw new StreamFormatException(name + ": the stream ended inside a run record of "
                        + (RUN_HEADER_BYTES + length) + " bytes (" + available + " arrived)");
            }
            if (available >= RUN_HEADER_BYTES + head * frames) {
                // Its heads are here, its payload not all: a consumer may take the payload elsewhere (takeHeads).
                run = true;
                runFrames = frames;
                runHead = head;
                runPayload = (int) payload;
                partialAt = start + RUN_HEADER_BYTES;
            }
            return -1;
        }
        long at = start + RUN_HEADER_BYTES;
        run = true;
        runFrames = frames;
        runHead = head;
        runPayload = (int) payload;
        recordLength = length;
        start += RUN_HEADER_BYTES + length;
        return at;
    }

    /**
     * Where the heads of the run record {@link #nextRecord} stopped at are, when it stopped because only part of that
     * run's payload has arrived (its fields then read as {@link #runFrames} etc.); -1 otherwise.
     */
    long partialRun() {
        return partialAt;
    }

    /**
     * Takes the run {@link #partialRun} found, heads and all, leaving its payload to the caller: the payload bytes
     * already here start at the returned offset and run to the end of what was read ({@link #buffered} before the
     * call, less the header and heads); the rest is still in the channel. The heads stay where they are until the
     * next {@link #fill}.
     */
    long takeHeads() {
        long payloadAt = partialAt + (long) runHead * runFrames;
        partialAt = -1;
        start = end;
        return payloadAt;
    }

    /** Whether the record {@link #nextRecord} took last is a run: its heads at the offset, then its payload. */
    boolean isRun() {
        return run;
    }

    /** Heads in the run {@link #nextRecord} took last. */
    int runFrames() {
        return runFrames;
    }

    /** Bytes of each head of that run. */
    int runHead() {
        return runHead;
    }

    /** Payload bytes of that run, right after its heads. */
    int runPayload() {
        return runPayload;
    }

    /**
     * Bytes still to come of the record the unread bytes begin, as far as its header tells (0 when they begin none,
     * or its length is not here yet): what a read must take at least to finish it.
     */
    int missing() {
        int available = end - start;
        if (available < PREFIX_BYTES) {
            return 0;
        }
        int length = Short.toUnsignedInt(segment.get(LENGTH, start));
        if ((length & RUN_FLAG) == 0 || runs == null) {
            return Math.max(0, PREFIX_BYTES + length - available);
        }
        if (available < RUN_HEADER_BYTES) {
            return RUN_HEADER_BYTES - available;
        }
        long heads = (long) (length & ~RUN_FLAG) * Short.toUnsignedInt(segment.get(LENGTH, start + 2));
        long whole = RUN_HEADER_BYTES + heads + Integer.toUnsignedLong(segment.get(U32, start + 4));
        return (int) Math.min(Integer.MAX_VALUE, Math.max(0, whole - available));
    }

    /**
     * Bytes still to come of the heads of the run record the unread bytes begin, once its header is here; -1 when
     * they begin no run, or not its whole header yet, or its heads are all here.
     */
    int headsMissing() {
        int available = end - start;
        if (runs == null || available < RUN_HEADER_BYTES) {
            return -1;
        }
        int length = Short.toUnsignedInt(segment.get(LENGTH, start));
        if ((length & RUN_FLAG) == 0) {
            return -1;
        }
        long heads = (long) (length & ~RUN_FLAG) * Short.toUnsignedInt(segment.get(LENGTH, start + 2));
        long missing = RUN_HEADER_BYTES + heads - available;
        return missing > 0 ? (int) missing : -1;
    }

    /** Whether the run {@link #partialRun} found could arrive whole in the buffer, or must be taken in parts. */
    boolean runFits() {
        return RUN_HEADER_BYTES + (long) runHead * runFrames + runPayload <= buffer.capacity();
    }

    /**
     * True when the last {@link #fill} read less than it had room for, so the socket held nothing more then: reading
     * again at once would most likely find nothing, a system call spent for no bytes.
     */
    boolean drained() {
        return drained;
    }

    /** The buffer records are handed out of. */
    MemorySegment segment() {
        return segment;
    }

    /** Length of the record {@link #nextRecord} took last. */
    int recordLength() {
        return recordLength;
    }

    /** Renames the stream in later errors (a rail's connection gets its rail's name once set up). */
    void rename(String name) {
        this.name = name;
    }

    /** True once the peer closed its side and every byte it sent has been handed out. */
    boolean finished() {
        return endOfStream && start == end;
    }

    /** Bytes received and not yet handed out. */
    int buffered() {
        return end - start;
    }
}
