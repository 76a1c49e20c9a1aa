package io.xdlink.rails.tcp;

import io.xdlink.rails.RailTransport.FrameReceiver;
import io.xdlink.rails.frame.FrameLayout;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.ScatteringByteChannel;

/**
 * The receiving half of a TCP rail's run records ({@link TcpRailTransport#offerRun}): it checks a run's heads against
 * its record, hands its frames over one by one (across polls when a poll's limit ends first), and reads a run whose
 * payload is still arriving straight into the memory the receiver says it belongs in
 * ({@link FrameReceiver#placement}), so a bulk transfer's payload is copied by nobody but the kernel. A run longer
 * than the reader's buffer that has no such place is read into scratch memory and handed over from there. Belongs to
 * the thread that polls the rail.
 */
final class RunsIn {
    private final RecordReader reader;
    private final String name;
    /** The run being handed over: frames left, where the next head and the next payload are. */
    private int left;
    private long headAt;
    private int headLength;
    /** Where the run's payloads are: the receive buffer, or the memory they were read straight into. */
    private MemorySegment payload;
    private long payloadAt;
    /** A run whose payload is being read straight into its place: the memory, bytes there so far, its heads. */
    private MemorySegment direct;
    private ByteBuffer directBuffer;
    private long directDone;
    private long directHeadAt;
    private int directHead;
    private int directFrames;

    /**
     * Reads left that should go no further than the next run's heads: a few after a run was read into its place,
     * enough to finish a record begun and take the heads of the run after it, not so many that a stream of small
     * frames after a bulk transfer reads in small pieces for long.
     */
    private int shortReads;
    static final int SHORT_READS = 3;
    /**
     * The least payload a run that fits the reader's buffer is read straight into its place for. A stream of 4 KiB
     * writes, each a run of one frame, placed one by one read twice per message (its heads, then its payload) where
     * the buffer takes dozens in one read: `xdlink bench write_bw -s 4K` in the two-host lab moved 4.4-6.1 Gb/s so
     * against 14.0-15.9 without. A 64 KiB message saves a 64 KiB copy for its one more read.
     */
    static final int PLACE_AT_LEAST = 32 * 1024;
    /** Whether the run being read goes to the scratch memory rather than its place. */
    private boolean toScratch;
    /** Memory for a long run's payload that is not read into its place ({@link #place}); made at first need. */
    private MemorySegment scratch;

    /** @param reader a reader that takes run records ({@link RecordReader#runLimits}) */
    RunsIn(RecordReader reader, String name) {
        this.reader = reader;
        this.name = name;
    }

    /** Whether a run's frames wait to be handed over. */
    boolean handing() {
        return left > 0;
    }

    /** Whether a run's payload is being read into its place. */
    boolean placing() {
        return direct != null;
    }

    /**
     * Reads what the channel has now into the reader ({@link RecordReader#fill}). Soon after a run was read into its
     * place, with at most runs of one frame (the first frame of another WRITE) since, a bulk transfer's next run most
     * likely follows: the read then goes no further than the rest of a record begun and the next run's header and
     * heads ({@link TcpRailTransport#HEADS_AHEAD}), or, when a run's header is here and its heads are not all, than the
     * end of its heads, so that run's payload can go straight to its place too rather than into the buffer and be
     * copied out again. A read that finds nothing does not count as one of those.
     */
    int fill(ReadableByteChannel channel) throws IOException {
        if (shortReads == 0) {
            return reader.fill(channel);
        }
        int heads = reader.headsMissing();
        // In longs: a hostile header's length makes missing() as large as an int goes.
        int n = reader.fill(channel, heads > 0 ? heads : (long) reader.missing() + TcpRailTransport.HEADS_AHEAD);
        if (n > 0) {
            shortReads--;
        }
        return n;
    }

    /**
     * Takes {@code n} bytes another thread read where the last {@link #fill}, which found nothing, asked for them, as
     * that fill would have taken them ({@link RecordReader#took}).
     */
    void took(int n) {
        reader.took(n);
        if (shortReads > 0) {
            shortReads--;
        }
    }

    /**
     * Takes the run record the reader just took whole at {@code at}: every head's payload length is checked against
     * the run's total before any frame is handed over, so a record whose heads and payload disagree ends the rail
     * and hands nothing.
     */
    void start(long at) throws StreamFormatException {
        check(at);
        // A run of one frame from the buffer is most likely the first frame of the next long WRITE: its next run can
        // still be placed.
        if (reader.runFrames() != 1) {
            shortReads = 0;
        }
        headAt = at;
        headLength = reader.runHead();
        payload = reader.segment();
        payloadAt = at + (long) reader.runFrames() * reader.runHead();
        left = reader.runFrames();
    }

    /**
     * The run the reader stopped at, whose heads are here and whose payload is still arriving: when the receiver
     * knows where the payload goes (the next part of a WRITE it is placing) and {@code intoPlace} allows it, the part
     * already read is copied there and the rest will be read from the socket straight into it
     * ({@link #readIntoPlace}). A run the receiver does not place waits to arrive whole in the reader's buffer, or,
     * when it is longer than that buffer, is read into this stream's scratch memory instead and handed over from
     * there, as from the buffer.
     *
     * @return true when the run is now being read into its place or the scratch memory
     */
    boolean place(FrameReceiver receiver, boolean intoPlace) throws StreamFormatException {
        long at = reader.partialRun();
        check(at);
        int frames = reader.runFrames();
        int head = reader.runHead();
        int bytes = reader.runPayload();
        // A short payload that fits the buffer waits to arrive there: reading it into its place would cost a read of
        // its own, more than copying it out of the buffer, and would turn the reads after it short.
        boolean worth = intoPlace && (bytes >= PLACE_AT_LEAST || !reader.runFits());
        MemorySegment target = worth ? receiver.placement(reader.segment(), at, head, frames, bytes) : null;
        if (target == null || target.byteSize() != bytes) {
            if (reader.runFits()) {
                return false;
            }
            target = scratch(bytes);
            toScratch = true;
        } else {
            toScratch = false;
        }
        long here = reader.buffered() - RecordReader.RUN_HEADER_BYTES - (long) head * frames;
        long hereAt = reader.takeHeads();
        MemorySegment.copy(reader.segment(), hereAt, target, 0, here);
        direct = target;
        directBuffer = null;
        directDone = here;
        directHeadAt = at;
        directHead = head;
        directFrames = frames;
        return true;
    }

    /**
     * Reads more of the payload being placed, once; true when it is whole and the run's frames are ready to be
     * handed over (their heads still in the reader's buffer, which is only added to behind them before then: from a
     * socket the read takes the next run's header and heads too, {@link RecordReader#fillBehind}).
     *
     * @throws StreamFormatException when the stream ends inside the payload
     */
    boolean readIntoPlace(ReadableByteChannel channel) throws IOException {
        if (directDone < direct.byteSize()) {
            if (directBuffer == null) {
                directBuffer = direct.asByteBuffer();
            }
            directBuffer.position((int) directDone);
            long n = channel instanceof ScatteringByteChannel scattering
                    ? reader.fillBehind(scattering, directBuffer, TcpRailTransport.HEADS_AHEAD)
                    : channel.read(directBuffer);
            if (n < 0) {
                throw new StreamFormatException(name + ": the stream ended inside a run's payload (" + directDone
                        + " of " + direct.byteSize() + " bytes)");
            }
            directDone = directBuffer.position();
            if (directDone < direct.byteSize()) {
                return false;
            }
        }
        shortReads = toScratch ? 0 : SHORT_READS;
        headAt = directHeadAt;
        headLength = directHead;
        payload = direct;
        payloadAt = 0;
        left = directFrames;
        direct = null;
        directBuffer = null;
        return true;
    }

    /**
     * {@code bytes} of memory for a run's payload that has no place to go and does not fit the reader's buffer; made
     * at first need, as long as the longest run's payload, and used again for each such run.
     */
    private MemorySegment scratch(int bytes) {
        if (scratch == null) {
            scratch = MemorySegment.ofBuffer(ByteBuffer.allocateDirect(reader.runLimits().maxPayload()));
        }
        return scratch.asSlice(0, bytes);
    }

    /** Checks a run's heads against its record before anything of it is handed over or placed. */
    private void check(long at) throws StreamFormatException {
        int frames = reader.runFrames();
        int head = reader.runHead();
        int most = FrameLayout.MAX_STREAM_FRAME_BYTES - head;
        long sum = 0;
        for (int i = 0; i < frames; i++) {
            int length = Short.toUnsignedInt(reader.segment().get(RecordReader.LENGTH,
                    at + (long) i * head + FrameLayout.OFF_LENGTH));
            if (length < 1 || length > most) {
                throw new StreamFormatException(name + ": frame " + i + " of a run says " + length
                        + " payload bytes; 1.." + most);
            }
            sum += length;
        }
        if (sum != reader.runPayload()) {
            throw new StreamFormatException(name + ": a run's heads add up to " + sum + " payload bytes, its record "
                    + "says " + reader.runPayload());
        }
    }

    /** Hands over up to {@code limit} frames of the current run, each as its head and its payload. */
    int hand(FrameReceiver receiver, int limit) {
        MemorySegment heads = reader.segment();
        int n = Math.min(limit, left);
        for (int i = 0; i < n; i++) {
            int length = Short.toUnsignedInt(heads.get(RecordReader.LENGTH, headAt + FrameLayout.OFF_LENGTH));
            long head = headAt;
            long at = payloadAt;
            headAt += headLength;
            payloadAt += length;
            left--;
            receiver.onFrame(heads, head, headLength, payload, at, length);
        }
        return n;
    }
}
