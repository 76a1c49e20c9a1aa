package io.xdlink.rails.engine;

import io.xdlink.rails.frame.FrameView;
import io.xdlink.rails.frame.NakReason;
import io.xdlink.rails.frame.Opcode;
import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.CompletionStatus;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.QpState;
import io.xdlink.rails.verbs.WorkOpcode;

import java.lang.foreign.MemorySegment;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.frame.FrameFlags;

/**
 * The receiving half of a queue pair, on the engine's thread. Each data frame is checked (message and packet
 * windows, duplicates by packet sequence, the remote key, its rights and the whole message's range, the posted
 * receive) before one byte is written, then placed straight into the target memory; a message completes when all
 * its bytes are in and every earlier message has completed, so completions come in message order. What this side
 * has (completed messages, contiguous packets) goes back in the next coalesced ACK.
 */
final class QpReceiver {
    private static final byte EMPTY = 0;
    private static final byte IN_PROGRESS = 1;
    private static final byte COMPLETE = 2;

    private final QpCore qp;
    private final DeviceEngine engine;

    final int psnWindow;
    private final long[] bits;
    private int expectedPsn;

    final int maxMessages;
    private final int tableMask;
    private final int[] mMsn;
    private final long[] mTotal;
    private final long[] mReceived;
    private final byte[] mState;
    private final Opcode[] mOp;
    private final int[] mImm;
    private final boolean[] mHasImm;
    /**
     * Where a WRITE in progress lands, as its first frame found it: the region its key named and the region's
     * offset for the message's first byte. Its other frames name the same key and address, so they are placed
     * after comparing the two and checking that the region is still registered, without looking the key up again.
     */
    private final MemoryRegion[] mRegion;
    private final int[] mRkey;
    private final long[] mRaddr;
    private final long[] mRel;
    private int completedMsn;

    private final RecvRequest[] rq;
    private final int rqMask;
    private int recvPosted;
    private int recvConsumed;

    boolean dirty;
    private int rnrNakMsn = -1;
    private long rnrNakAt;
    /**
     * The NAK that told the peer this queue pair failed, and when it last went. A NAK is a control frame, which a
     * lossy rail may lose like any other and nothing resends: the peer, hearing nothing, keeps resending its oldest
     * message, and each such frame arriving here after a retransmission timeout brings the NAK again.
     */
    private NakReason errorNak;
    private int errorNakMsn;
    private long errorNakAt;
    /**
     * A message found to be refused while an earlier one was still arriving (its frames on another rail, behind a
     * striped write's later block): as a reliable connection's responder takes packets in order, the earlier ones
     * complete first and the refusal follows them. Until then no frame of it or of a later message is taken.
     */
    private boolean refusalDue;
    private Opcode dueOp;
    private int dueMsn;
    private NakReason dueReason;
    private CompletionStatus dueStatus;

    QpReceiver(QpCore qp, DeviceEngine engine, int maxMessages, int psnWindow, int maxRecv) {
        this.qp = qp;
        this.engine = engine;
        this.psnWindow = psnWindow;
        this.bits = new long[Math.max(1, psnWindow / 64)];
        this.maxMessages = maxMessages;
        int table = Integer.highestOneBit(Math.max(2, maxMessages - 1)) << 1;
        this.tableMask = table - 1;
        this.mMsn = new int[table];
        this.mTotal = new long[table];
        this.mReceived = new long[table];
        this.mState = new byte[table];
        this.mOp = new Opcode[table];
        this.mImm = new int[table];
        this.mHasImm = new boolean[table];
        this.mRegion = new MemoryRegion[table];
        this.mRkey = new int[table];
        this.mRaddr = new long[table];
        this.mRel = new long[table];
        int r = Integer.highestOneBit(Math.max(2, maxRecv - 1)) << 1;
        this.rq = new RecvRequest[r];
        this.rqMask = r - 1;
    }

    int completedMsn() {
        return completedMsn;
    }

    int expectedPsn() {
        return expectedPsn;
    }

    /** A posted receive joins the queue, or fails at once if it cannot be used. */
    void post(RecvRequest r) {
        if (qp.state() == QpState.ERROR || qp.state() == QpState.CLOSED) {
            completeRecv(r, WorkOpcode.RECV, CompletionStatus.WR_FLUSH_ERROR, 0, 0, false);
            return;
        }
        if (r.mr != null && (!r.mr.isValid() || r.mr.pd() != qp.pd() || !r.mr.segment().scope().isAlive())) {
            completeRecv(r, WorkOpcode.RECV, CompletionStatus.LOCAL_PROTECTION_ERROR, 0, 0, false);
            qp.error(CompletionStatus.WR_FLUSH_ERROR, null);
            return;
        }
        rq[recvPosted & rqMask] = r;
        recvPosted++;
    }

    private boolean bit(int psn) {
        int i = psn & (psnWindow - 1);
        return (bits[i >>> 6] & (1L << i)) != 0;
    }

    private void setBit(int psn, boolean on) {
        int i = psn & (psnWindow - 1);
        if (on) {
            bits[i >>> 6] |= 1L << i;
        } else {
            bits[i >>> 6] &= ~(1L << i);
        }
    }

    /** One data frame for this queue pair. */
    void onData(FrameView v, PeerPool pool, long now) {
        QpState state = qp.state();
        if (state == QpState.ERROR || state == QpState.CLOSED) {
            if (errorNak == null) {
                errorNak(pool, v.msn(), NakReason.REMOTE_OPERATION, now);
            } else if (now - errorNakAt >= engine.settings.retransmitNanos()) {
                errorNak(pool, errorNakMsn, errorNak, now);
            }
            return;
        }
        int msn = v.msn();
        int dm = msn - completedMsn;
        int psn = v.psn();
        int dp = psn - expectedPsn;
        if (dm < 0 || dp < 0 || (dp < psnWindow && bit(psn))) {
            engine.counters.duplicateData++;
            markDirty(pool);
            return;
        }
        if (dm >= maxMessages || dp >= psnWindow) {
            engine.counters.malformedFrames++;
            return;
        }
        if (refusalDue && msn - dueMsn >= 0) {
            return; // refused once the messages before it are in; the sender resends until it hears so
        }
        int slot = msn & tableMask;
        Opcode op = v.opcode();
        if (mState[slot] == EMPTY) {
            mMsn[slot] = msn;
            mTotal[slot] = v.total();
            mReceived[slot] = 0;
            mOp[slot] = op;
            mImm[slot] = v.imm();
            mHasImm[slot] = op == Opcode.WRITE_WITH_IMM || v.hasFlag(FrameFlags.IMMEDIATE);
            mRegion[slot] = null;
            mState[slot] = IN_PROGRESS;
        } else if (mMsn[slot] != msn || mTotal[slot] != v.total() || mOp[slot] != op) {
            refuseInOrder(pool, op, msn, NakReason.INVALID_REQUEST, CompletionStatus.REMOTE_INVALID_REQUEST_ERROR,
                    now);
            return;
        }
        int len = v.payloadLength();
        MemorySegment target;
        long at;
        if (op == Opcode.SEND) {
            if (!recvPosted(v.recvIndex())) {
                receiverNotReady(pool, msn, now);
                return;
            }
            RecvRequest r = rq[v.recvIndex() & rqMask];
            if (v.total() > r.length) {
                refuseInOrder(pool, op, msn, NakReason.INVALID_REQUEST, CompletionStatus.LOCAL_LENGTH_ERROR, now);
                return;
            }
            target = r.mr == null ? null : r.mr.segment();
            at = r.offset + v.offset();
        } else {
            if (op == Opcode.WRITE_WITH_IMM && !recvPosted(v.recvIndex())) {
                receiverNotReady(pool, msn, now);
                return;
            }
            if (v.total() == 0) {
                // A zero-length write touches no memory; as in InfiniBand, its key and address are not checked.
                target = null;
                at = 0;
            } else {
                MemoryRegion mr = mRegion[slot];
                long rel;
                if (mr != null && mRkey[slot] == v.rkey() && mRaddr[slot] == v.raddr() && mr.isValid()) {
                    // Checked in full by an earlier frame of this message: same key, same address, same total.
                    rel = mRel[slot];
                } else {
                    mr = writable(v);
                    if (mr == null) {
                        refuseInOrder(pool, op, msn, NakReason.REMOTE_ACCESS, CompletionStatus.REMOTE_ACCESS_ERROR,
                                now);
                        return;
                    }
                    rel = v.raddr() - mr.address();
                    mRegion[slot] = mr;
                    mRkey[slot] = v.rkey();
                    mRaddr[slot] = v.raddr();
                    mRel[slot] = rel;
                }
                target = mr.segment();
                at = rel + v.offset();
            }
        }
        if (place(op, msn, slot, psn, v.payloadSegment(), v.payloadOffset(), target, at, len, pool, now) != REFUSED
                && op != Opcode.SEND && target != null) {
            // Its next frame on this rail may take the short way (ReceiveRun), in order or ahead of it: a striped
            // write's later block arrives on its own rail ahead of the packets still coming on the first. A
            // WRITE_WITH_IMM's too: a collective library's every message is one, and its receive stays posted until
            // its last frame completes it.
            engine.dispatch.runCandidate(this);
        }
    }

    /** What {@link #place} did with a frame. */
    private static final int REFUSED = 0;
    private static final int PLACED = 1;
    private static final int COMPLETED = 2;

    /**
     * Copies a data frame's payload to {@code at} of {@code target} and books it: its packet sequence, the
     * message's bytes, the message's completion when this was its last. What {@link #onData} and
     * {@link #onRunData} both do once a frame has passed their checks.
     *
     * @return {@link #REFUSED} when the target could not take the bytes (the message is refused), else
     *         {@link #COMPLETED} when the frame finished its message, {@link #PLACED} when more is to come
     */
    private int place(Opcode op, int msn, int slot, int psn, MemorySegment payload, long payloadOffset,
                      MemorySegment target, long at, int len, PeerPool pool, long now) {
        if (len > 0 && alreadyThere(payload, payloadOffset, target, at)) {
            engine.counters.payloadBytesInPlace += len;
        } else if (len > 0) {
            engine.counters.payloadBytesCopied += len;
            try {
                MemorySegment.copy(payload, payloadOffset, target, at, len);
            } catch (RuntimeException closed) {
                // The target memory was closed under a registered region: the bytes cannot be placed.
                refuseInOrder(pool, op, msn, NakReason.REMOTE_OPERATION, CompletionStatus.LOCAL_PROTECTION_ERROR,
                        now);
                return REFUSED;
            }
        }
        if (psn == expectedPsn) {
            // In order, as nearly every frame is: its bit would be set only to be cleared at once.
            expectedPsn++;
        } else {
            setBit(psn, true);
        }
        while (bit(expectedPsn)) {
            setBit(expectedPsn, false);
            expectedPsn++;
        }
        mReceived[slot] += len;
        int placed = PLACED;
        if (mReceived[slot] >= mTotal[slot]) {
            mState[slot] = COMPLETE;
            engine.counters.messagesReceived++;
            completeInOrder();
            placed = COMPLETED;
            if (refusalDue && completedMsn == dueMsn) {
                refusalDue = false;
                refuse(pool, dueOp, dueMsn, dueReason, dueStatus, now);
            }
        }
        markDirty(pool);
        return placed;
    }

    /**
     * Whether a payload is the very memory it is to be placed in: a transport read it straight there
     * ({@link RailTransport.FrameReceiver#placement}).
     */
    private static boolean alreadyThere(MemorySegment payload, long payloadOffset, MemorySegment target, long at) {
        return payload.isNative() && target.isNative()
                && payload.address() + payloadOffset == target.address() + at;
    }

    /**
     * The {@code length} bytes at {@code offset} of WRITE or WRITE_WITH_IMM {@code msn}'s message in its region, for a
     * message this side placed a frame of already ({@link #continues}); the caller checked the range lies within the
     * message.
     */
    MemorySegment regionSlice(int msn, long offset, int length) {
        int slot = msn & tableMask;
        return mRegion[slot].segment().asSlice(mRel[slot] + offset, length);
    }

    /**
     * Where the payload of the WRITE or WRITE_WITH_IMM frame {@code v} (a head, its payload still arriving) and of the
     * {@code bytes - v.payloadLength()} bytes of that message that follow it go: the slice of its region, when
     * {@link #onData} would place the frame as it comes (the queue pair works and belongs to {@code pool}, the frame is
     * new and within both windows, no refusal waits, its message is new or in progress as the frame says, a
     * WRITE_WITH_IMM finds its receive posted, and the key allows the whole message). A message's first frame has no
     * run to vouch for it ({@link #continues}), so it used to be read into the transport's buffer and copied from
     * there: a quarter of the bytes of a 64 KiB stream. Null for anything else, which then goes the full way; nothing
     * is booked or cached here, and the frame is checked in full again when it is handed over.
     */
    MemorySegment firstPlacement(FrameView v, PeerPool pool, long bytes) {
        QpState state = qp.state();
        Opcode op = v.opcode();
        if (state == QpState.ERROR || state == QpState.CLOSED || qp.pool != pool
                || (op != Opcode.WRITE && op != Opcode.WRITE_WITH_IMM)) {
            return null;
        }
        int msn = v.msn();
        int psn = v.psn();
        int dm = msn - completedMsn;
        int dp = psn - expectedPsn;
        if (dm < 0 || dm >= maxMessages || dp < 0 || dp >= psnWindow || bit(psn)
                || (refusalDue && msn - dueMsn >= 0)) {
            return null;
        }
        int slot = msn & tableMask;
        long total = v.total();
        if (mState[slot] != EMPTY && (mState[slot] != IN_PROGRESS || mMsn[slot] != msn || mTotal[slot] != total
                || mOp[slot] != op)) {
            return null;
        }
        if ((op == Opcode.WRITE_WITH_IMM && !recvPosted(v.recvIndex())) || total == 0 || bytes < 1
                || v.offset() + bytes > total) {
            return null;
        }
        MemoryRegion mr = writable(v);
        if (mr == null || !mr.segment().scope().isAlive()) {
            return null;
        }
        return mr.segment().asSlice(v.raddr() - mr.address() + v.offset(), bytes);
    }

    /**
     * The region the key of WRITE frame {@code v} names, when its whole message may land there: registered still, in
     * this queue pair's protection domain, open to remote writes, and holding the message's {@code total} bytes from
     * the frame's address on; null otherwise.
     */
    private MemoryRegion writable(FrameView v) {
        MemoryRegion mr = engine.keys().lookup(v.rkey());
        long rel = mr == null ? -1 : v.raddr() - mr.address();
        return mr == null || !mr.isValid() || mr.pd() != qp.pd() || !mr.allows(Access.REMOTE_WRITE) || rel < 0
                || v.total() > mr.length() - rel ? null : mr;
    }

    /**
     * Whether the data frame {@code psn} of WRITE or WRITE_WITH_IMM {@code msn} continues a message this side placed
     * its previous frame of on the same rail ({@link ReceiveRun}): the queue pair works and belongs to {@code pool},
     * the frame is new (the one expected next, or ahead of it within the window and not yet seen: the frames of a
     * striped write's later block, or of a later write on another rail), and the message is in progress with the
     * region its first frame looked up, still registered. The run's frame is then, but for the checks its predecessor
     * passed, what {@link #onData} takes.
     */
    boolean continues(int psn, int msn, PeerPool pool) {
        QpState state = qp.state();
        int dp = psn - expectedPsn;
        if (state == QpState.ERROR || state == QpState.CLOSED || qp.pool != pool || dp < 0 || dp >= psnWindow
                || (dp > 0 && bit(psn))) {
            return false;
        }
        if (refusalDue && msn - dueMsn >= 0) {
            return false;
        }
        int slot = msn & tableMask;
        MemoryRegion mr = mRegion[slot];
        return mState[slot] == IN_PROGRESS && mMsn[slot] == msn && mOp[slot] != Opcode.SEND && mr != null
                && mr.isValid();
    }

    /**
     * Places a frame that {@link #continues} its run, as {@link #onData} would.
     *
     * @return true while the run goes on: the message is not complete and nothing failed
     */
    boolean onRunData(int msn, int psn, long offset, MemorySegment payload, long payloadOffset, int len,
                      PeerPool pool, long now) {
        int slot = msn & tableMask;
        // continues() vouched that this frame is new and within the window.
        return place(mOp[slot], msn, slot, psn, payload, payloadOffset, mRegion[slot].segment(),
                mRel[slot] + offset, len, pool, now) == PLACED;
    }

    private boolean recvPosted(int index) {
        return index - recvConsumed >= 0 && index - recvPosted < 0;
    }

    private void completeInOrder() {
        while (true) {
            int slot = completedMsn & tableMask;
            if (mState[slot] != COMPLETE || mMsn[slot] != completedMsn) {
                return;
            }
            Opcode op = mOp[slot];
            if (op != Opcode.WRITE) {
                RecvRequest r = rq[recvConsumed & rqMask];
                rq[recvConsumed & rqMask] = null;
                recvConsumed++;
                completeRecv(r, op == Opcode.SEND ? WorkOpcode.RECV : WorkOpcode.RECV_WRITE_WITH_IMM,
                        CompletionStatus.SUCCESS, mTotal[slot], mImm[slot], mHasImm[slot]);
            }
            mState[slot] = EMPTY;
            mOp[slot] = null;
            mRegion[slot] = null;
            completedMsn++;
        }
    }

    private void receiverNotReady(PeerPool pool, int msn, long now) {
        engine.counters.rnrEvents++;
        if (msn != rnrNakMsn || now - rnrNakAt >= engine.settings.rnrTimerNanos()) {
            rnrNakMsn = msn;
            rnrNakAt = now;
            pool.nak(qp.peerQpn, msn, NakReason.RECEIVER_NOT_READY);
        }
    }

    /**
     * Refuses message {@code msn} now if every message before it is complete, else once they are ({@link
     * #refusalDue}); the earliest refused message is the one that counts.
     */
    private void refuseInOrder(PeerPool pool, Opcode op, int msn, NakReason reason, CompletionStatus local,
                               long now) {
        if (msn == completedMsn) {
            refusalDue = false;
            refuse(pool, op, msn, reason, local, now);
        } else if (!refusalDue || msn - dueMsn < 0) {
            refusalDue = true;
            dueOp = op;
            dueMsn = msn;
            dueReason = reason;
            dueStatus = local;
        }
    }

    /**
     * Refuses message {@code msn}: the peer is told why, and this queue pair reports {@code local} (on the receive
     * it would have consumed, else on a completion of its own) and moves to the error state. No byte was written.
     */
    private void refuse(PeerPool pool, Opcode op, int msn, NakReason reason, CompletionStatus local, long now) {
        errorNak(pool, msn, reason, now);
        WorkOpcode wop = switch (op) {
            case SEND -> WorkOpcode.RECV;
            case WRITE_WITH_IMM -> WorkOpcode.RECV_WRITE_WITH_IMM;
            default -> WorkOpcode.RECV_WRITE;
        };
        if (recvConsumed != recvPosted) {
            RecvRequest r = rq[recvConsumed & rqMask];
            rq[recvConsumed & rqMask] = null;
            recvConsumed++;
            completeRecv(r, wop, local, 0, 0, false);
        } else {
            qp.recvCq().push(new Completion(Completion.NO_WR_ID, wop, local, 0, 0, false, qp.qpn()));
        }
        qp.error(CompletionStatus.WR_FLUSH_ERROR, null);
    }

    private void errorNak(PeerPool pool, int msn, NakReason reason, long now) {
        errorNak = reason;
        errorNakMsn = msn;
        errorNakAt = now;
        pool.nak(qp.peerQpn, msn, reason);
    }

    private void markDirty(PeerPool pool) {
        if (!dirty) {
            dirty = true;
            pool.dirty(this);
        }
    }

    QpCore qp() {
        return qp;
    }

    private void completeRecv(RecvRequest r, WorkOpcode op, CompletionStatus status, long len, int imm,
                              boolean hasImm) {
        qp.recvDone();
        qp.recvCq().push(new Completion(r.wrId, op, status, len, imm, hasImm, qp.qpn()));
    }

    /** Flushes every posted receive. */
    void flush() {
        while (recvConsumed != recvPosted) {
            RecvRequest r = rq[recvConsumed & rqMask];
            rq[recvConsumed & rqMask] = null;
            recvConsumed++;
            if (r != null) {
                completeRecv(r, WorkOpcode.RECV, CompletionStatus.WR_FLUSH_ERROR, 0, 0, false);
            }
        }
    }
}
