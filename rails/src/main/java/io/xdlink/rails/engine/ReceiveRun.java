package io.xdlink.rails.engine;

import io.xdlink.rails.frame.FrameFlags;
import io.xdlink.rails.frame.FrameLayout;
import io.xdlink.rails.frame.Opcode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The short way in for a WRITE's frames that follow each other in order on one rail, as a bulk
 * transfer's do, and for a WRITE_WITH_IMM's (a collective library's every message): a frame that is, word for word,
 * what its predecessor announces (the same opcode, flags, epoch, queue pair, message, total, key and address, and a
 * WRITE_WITH_IMM's immediate and receive; the next packet sequence and offset, and the rail sequence the rail
 * expects next, which a control frame between two of the run's frames may have taken) needs none of the
 * checks its predecessor passed again. Its header is read and compared, its credit, echo and length taken, and it is
 * booked and placed as the full path would; anything else (another rail, another message, a frame out of its rail's
 * order, one already seen, a queue pair or region no longer usable) goes the full way. A run may be ahead of the
 * packets its queue pair still waits for on other rails, as a striped write's second block is: placing a WRITE's
 * bytes needs only its own header, so that rail's frames take the short way too. Only frames whose CRC is not
 * checked take it (a transport that delivers intact). A run belongs to its rail and goes on from one poll to the
 * next, its frames booked at the end of each ({@link #book}); whatever commands and timers did between polls is seen
 * because every frame and placement checks the queue pair, its window, the message and region, and the rail's state
 * and sequence again, and only the header words the run predicts are taken on trust.
 */
final class ReceiveRun {
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final long LOW = 0xFFFF_FFFFL;
    /** The flags byte within the common header's first word. */
    private static final long FLAGS = 0xFFL << 40;
    /** Where the opcode byte sits within the common header's first word. */
    private static final int OPCODE_SHIFT = 48;

    private final EngineCounters counters;
    /** The queue pair the run places into; null when there is no run. */
    private QpReceiver receiver;
    private Rail rail;
    private int headLength;
    /** The next frame's header words as the run expects them. */
    private long first;
    private long qpnMsn;
    private long psnOffset;
    private long totalKey;
    private long raddr;
    /**
     * Whether the run's frames are a WRITE_WITH_IMM's, whose header goes on with a word that must match too: the
     * immediate and the posted receive the message consumes (its first frame found that receive posted, and it stays
     * posted until the message completes).
     */
    private boolean withImm;
    private long immRecv;
    /**
     * Frames the run placed whose booking on their rail, pool and engine (sequence, counts, acknowledgement due)
     * waits for {@link #end}: nothing reads those between two frames of a run, and once per run is cheaper.
     */
    private int unbooked;
    private boolean ackRequested;
    /** Every frame booked next said its acknowledgement may wait ({@link FrameFlags#ACK_LAZY}). */
    private boolean lazyOnly = true;
    private long lastNow;

    ReceiveRun(EngineCounters counters) {
        this.counters = counters;
    }

    /** Ends the run, booking the frames it placed. */
    void end() {
        book();
        receiver = null;
        rail = null;
    }

    /**
     * Books the frames the run placed so far and keeps it going: the next frame or placement may continue it, its
     * queue pair, region and rail checked again then.
     */
    void book() {
        if (unbooked == 0) {
            return;
        }
        int n = unbooked;
        unbooked = 0;
        Rail r = rail;
        r.acceptRun(n, lastNow);
        r.dataFramesReceived += n;
        counters.dataFramesReceived += n;
        counters.runFrames += n;
        r.pool.onDataReceived(n, ackRequested, lazyOnly, lastNow);
        ackRequested = false;
        lazyOnly = true;
    }

    /**
     * The full path just placed the frame at {@code o} of {@code head}, a WRITE's frame in order that did not finish
     * its message: the frame after it may continue the run.
     */
    void begin(Rail rail, QpReceiver receiver, MemorySegment head, long o, int headLength, int payloadLength) {
        long w0 = head.get(WORD, o + FrameLayout.OFF_VERSION);
        this.first = next(w0);
        this.qpnMsn = head.get(WORD, o + FrameLayout.OFF_QPN);
        this.psnOffset = nextPsnOffset(head.get(WORD, o + FrameLayout.OFF_PSN), payloadLength);
        this.totalKey = head.get(WORD, o + FrameLayout.OFF_TOTAL);
        this.raddr = head.get(WORD, o + FrameLayout.OFF_RADDR);
        this.withImm = (int) (w0 >>> OPCODE_SHIFT & 0xFF) == Opcode.WRITE_WITH_IMM.code()
                && headLength >= FrameLayout.WRITE_IMM_HEADER;
        this.immRecv = withImm ? head.get(WORD, o + FrameLayout.OFF_WRITE_IMM) : 0;
        this.headLength = headLength;
        this.rail = rail;
        this.receiver = receiver;
    }

    /** The common header's first word with the rail sequence in its low half one further. */
    private static long next(long first) {
        return (first & ~LOW) | ((first + 1) & LOW);
    }

    private static long nextPsnOffset(long psnOffset, int length) {
        return ((psnOffset >>> 32) + 1) << 32 | ((psnOffset + length) & LOW);
    }

    /**
     * Where the payloads of {@code frames} heads at {@code o} of {@code heads} go when every one of them is, word for
     * word, the frame this run expects next, one after the other, and their payloads add up to {@code payloadLength}:
     * the slice of the run's region they will be placed in (their frames are then taken as {@link #take} takes them,
     * finding the payload already in its place). Null when any differs, or the run has none to offer. Nothing is
     * booked here.
     */
    MemorySegment placement(Rail rail, MemorySegment heads, long o, int headLength, int frames, int payloadLength) {
        QpReceiver r = receiver;
        if (r == null || rail != this.rail || headLength != this.headLength || frames < 1 || o < 0
                || o > heads.byteSize() - (long) headLength * frames) {
            return null;
        }
        // The rail sequence is the one the rail expects next, whatever came between (a control frame takes one).
        long w0 = (first & ~LOW) | (heads.get(WORD, o + FrameLayout.OFF_VERSION) & LOW);
        int seq = (int) w0;
        long firstOffset = psnOffset & LOW;
        long bytes = follow(heads, o, headLength, 0, frames, w0, qpnMsn, psnOffset, totalKey, raddr, withImm,
                immRecv);
        if (bytes < 0) {
            return null;
        }
        int psn = (int) (psnOffset >>> 32);
        int msn = (int) qpnMsn;
        if (bytes != payloadLength || firstOffset + bytes > totalKey >>> 32 || rail.state != Rail.State.UP
                || rail.pool == null || !rail.expectsNext(seq - unbooked) || !r.continues(psn, msn, rail.pool)) {
            return null;
        }
        return r.regionSlice(msn, firstOffset, payloadLength);
    }

    /**
     * The payload bytes of {@code frames} heads at {@code o} of {@code heads} when heads 1 on each continue the one
     * before them word for word, as a run's frames continue each other (head 0 itself is not checked here: a
     * message's first frame, which no run vouches for, is checked in full instead); -1 when any does not.
     */
    static long followOn(MemorySegment heads, long o, int headLength, int frames) {
        if (frames < 1 || o < 0 || o > heads.byteSize() - (long) headLength * frames
                || headLength < FrameLayout.WRITE_HEADER) {
            return -1;
        }
        long w0 = heads.get(WORD, o + FrameLayout.OFF_VERSION);
        long wp = heads.get(WORD, o + FrameLayout.OFF_PSN);
        int length = (int) heads.get(WORD, o + FrameLayout.OFF_CREDIT) & 0xFFFF;
        boolean imm = (int) (w0 >>> OPCODE_SHIFT & 0xFF) == Opcode.WRITE_WITH_IMM.code()
                && headLength >= FrameLayout.WRITE_IMM_HEADER;
        long rest = follow(heads, o, headLength, 1, frames, next(w0), heads.get(WORD, o + FrameLayout.OFF_QPN),
                nextPsnOffset(wp, length), heads.get(WORD, o + FrameLayout.OFF_TOTAL),
                heads.get(WORD, o + FrameLayout.OFF_RADDR), imm,
                imm ? heads.get(WORD, o + FrameLayout.OFF_WRITE_IMM) : 0);
        return rest < 0 || length < 1 ? -1 : rest + length;
    }

    /**
     * The payload bytes of heads {@code from} to {@code frames - 1} at {@code o} of {@code heads} when each is, word
     * for word, the frame expected next (head {@code from} the one {@code w0} to {@code immRecv} describe); -1 when
     * any is not.
     */
    private static long follow(MemorySegment heads, long o, int headLength, int from, int frames, long w0,
                               long qpnMsn, long wpExpected, long totalKey, long raddr, boolean withImm,
                               long immRecv) {
        long bytes = 0;
        for (int i = from; i < frames; i++) {
            long at = o + (long) i * headLength;
            long wp = heads.get(WORD, at + FrameLayout.OFF_PSN);
            int length = (int) heads.get(WORD, at + FrameLayout.OFF_CREDIT) & 0xFFFF;
            // Flags may differ (the last frame asks for an ACK): compare the first word without them.
            if ((heads.get(WORD, at + FrameLayout.OFF_VERSION) & ~FLAGS) != (w0 & ~FLAGS)
                    || heads.get(WORD, at + FrameLayout.OFF_QPN) != qpnMsn || wp != wpExpected
                    || heads.get(WORD, at + FrameLayout.OFF_TOTAL) != totalKey
                    || heads.get(WORD, at + FrameLayout.OFF_RADDR) != raddr || length < 1
                    || (withImm && heads.get(WORD, at + FrameLayout.OFF_WRITE_IMM) != immRecv)) {
                return -1;
            }
            bytes += length;
            w0 = next(w0);
            wpExpected = nextPsnOffset(wp, length);
        }
        return bytes;
    }

    /**
     * Takes the frame in two parts if it continues the run.
     *
     * @return false when it does not: nothing was done, and the frame goes the full way
     */
    boolean take(Rail rail, MemorySegment head, long o, int headLength, MemorySegment payload, long payloadOffset,
                 int payloadLength, long now) {
        QpReceiver r = receiver;
        if (r == null || rail != this.rail || headLength != this.headLength || o < 0
                || o > head.byteSize() - headLength || payloadLength <= 0 || payloadOffset < 0
                || payloadOffset > payload.byteSize() - payloadLength) {
            return false;
        }
        long w0 = head.get(WORD, o + FrameLayout.OFF_VERSION);
        long w1 = head.get(WORD, o + FrameLayout.OFF_CREDIT);
        long wq = head.get(WORD, o + FrameLayout.OFF_QPN);
        long wp = head.get(WORD, o + FrameLayout.OFF_PSN);
        long wt = head.get(WORD, o + FrameLayout.OFF_TOTAL);
        long wr = head.get(WORD, o + FrameLayout.OFF_RADDR);
        long offset = wp & LOW;
        if ((w0 & ~LOW) != (first & ~LOW) || wq != qpnMsn || wp != psnOffset || wt != totalKey || wr != raddr
                || ((int) w1 & 0xFFFF) != payloadLength || offset + payloadLength > wt >>> 32
                || (withImm && head.get(WORD, o + FrameLayout.OFF_WRITE_IMM) != immRecv)) {
            return false;
        }
        int seq = (int) w0;
        int psn = (int) (wp >>> 32);
        int msn = (int) wq;
        PeerPool pool = rail.pool;
        if (rail.state != Rail.State.UP || pool == null || !rail.expectsNext(seq - unbooked)
                || !r.continues(psn, msn, pool)) {
            return false;
        }
        // From here on the frame is booked as FrameDispatch.dispatch and QpReceiver.onData book it: its header's
        // credit and echo and its bytes now, its sequence and counts with the run's other frames at the end.
        first = next(w0);
        psnOffset = nextPsnOffset(wp, payloadLength);
        rail.onHeader((int) (w1 >>> 32), (int) (w1 >>> 16) & 0xFFFF, now);
        unbooked++;
        int flags = (int) (w0 >>> 40) & 0xFF;
        ackRequested |= FrameFlags.has(flags, FrameFlags.ACK_REQUEST);
        lazyOnly &= FrameFlags.has(flags, FrameFlags.ACK_LAZY);
        lastNow = now;
        if (!r.onRunData(msn, psn, offset, payload, payloadOffset, payloadLength, pool, now)) {
            end();
        }
        return true;
    }
}
