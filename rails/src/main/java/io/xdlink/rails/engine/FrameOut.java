package io.xdlink.rails.engine;

import io.xdlink.rails.RailTransport;
import io.xdlink.rails.frame.FrameEncoder;
import io.xdlink.rails.frame.FrameFlags;
import io.xdlink.rails.frame.FrameLayout;
import io.xdlink.rails.frame.NakReason;
import io.xdlink.rails.frame.Opcode;
import io.xdlink.rails.frame.RejectReason;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.UUID;

/**
 * The one reusable frame the engine is building: its fields are set, then the transport calls {@link #write} to
 * lay the frame down in place (copying the payload straight from the sender's memory region). Writing has no side
 * effect beyond the bytes, so a transport may write and still refuse. A payload that cannot be read (its memory
 * closed under the request) poisons the frame's version byte, so the peer drops it, and is reported in
 * {@link #sourceFailed}.
 */
final class FrameOut implements RailTransport.FrameRun {
    private final FrameEncoder encoder = new FrameEncoder();

    Opcode op;
    int flags;
    int epoch;
    int seq;
    int credit;
    int echo;
    int payloadLength;

    /** The local queue pair the data frame belongs to (the frame itself names the peer's). */
    int localQpn;
    int qpn;
    int msn;
    int psn;
    long offset;
    long total;
    int rkey;
    long raddr;
    int imm;
    int recvIndex;
    MemorySegment source;
    long sourceOffset;
    boolean sourceFailed;
    /** Write only the head (header and trailer): the payload travels apart, as the transport takes it. */
    boolean split;
    /** The run offered is this one frame as it stands ({@link #beginOne}). */
    private boolean one;

    /** The run being offered ({@link #beginRun}): frame 0's sequence, packet sequence, offset and flags. */
    private int runSeq;
    private int runPsn;
    private long runOffset;
    private long runSource;
    private int runFlags;
    /** Payload bytes per frame of the run, and the frame that asks for an ACK (-1: none). */
    private int runStride;
    private int runAckAt;

    int nextSeq;
    int nakQpn;
    int nakMsn;
    NakReason nakReason;
    UUID helloDevice;
    int helloRail;
    int helloFrameBytes;
    int helloWindow;
    long connId;
    int connA;
    int connSrc;
    int connMaxMessages;
    int connPsnWindow;
    RejectReason rejectReason;
    int discDst;
    int discSrc;

    int ackRails;
    int ackQps;
    final int[] arRail = new int[FrameLayout.MAX_ACK_RAILS];
    final int[] arEpoch = new int[FrameLayout.MAX_ACK_RAILS];
    final int[] arPosition = new int[FrameLayout.MAX_ACK_RAILS];
    final int[] arCredit = new int[FrameLayout.MAX_ACK_RAILS];
    final long[] arMap = new long[FrameLayout.MAX_ACK_RAILS];
    final int[] aqQpn = new int[FrameLayout.ackQpCapacity(FrameLayout.MAX_FRAME_BYTES, 0)];
    final int[] aqMsn = new int[aqQpn.length];
    final int[] aqPsn = new int[aqQpn.length];

    /** Starts a frame of {@code op} with {@code payloadLength} bytes after its header. */
    FrameOut begin(Opcode op, int flags, int payloadLength) {
        this.op = op;
        this.flags = flags;
        this.payloadLength = payloadLength;
        this.sourceFailed = false;
        this.source = null;
        this.split = false;
        this.one = false;
        return this;
    }

    /**
     * Turns the data frame just sent into the next frame of the same request: another packet sequence, offset and
     * length, and flags (ACK_REQUEST or none; the immediate flag of a SEND stays as its first frame had it, and so
     * does ACK_LAZY, which never asks).
     * Everything else (opcode, queue pairs, message, total, key, address, immediate, source) is the request's and
     * stays as {@code PeerPool.fill} set it.
     */
    void nextFrame(int ackRequest, int psn, long offset, int payloadLength, long requestOffset) {
        this.flags = (flags & FrameFlags.ACK_LAZY) != 0 ? flags & (FrameFlags.IMMEDIATE | FrameFlags.ACK_LAZY)
                : ackRequest | (flags & FrameFlags.IMMEDIATE);
        this.payloadLength = payloadLength;
        this.psn = psn;
        this.offset = offset;
        this.sourceOffset = requestOffset + offset;
        this.split = false;
        this.one = false;
    }

    /** Makes the data frame described so far, its sequence set, a run of one, its payload sent apart. */
    void beginOne() {
        one = true;
        split = true;
    }

    /**
     * Makes the data frame described so far, its sequence set, frame 0 of a run: the frames after it are
     * {@code stride} payload bytes apart, the request's last one possibly shorter, and frame {@code ackAt} alone
     * asks for an acknowledgement (none does in a lazily acknowledged run). Its payload travels apart from its head.
     */
    void beginRun(int stride, int ackAt) {
        runStride = stride;
        runAckAt = ackAt;
        runSeq = seq;
        runPsn = psn;
        runOffset = offset;
        runSource = sourceOffset - offset;
        runFlags = flags & ~FrameFlags.ACK_REQUEST;
        split = true;
        one = false;
    }

    @Override
    public boolean frame(int i) {
        if (one) {
            return i == 0;
        }
        long at = runOffset + (long) i * runStride;
        seq = runSeq + i;
        psn = runPsn + i;
        offset = at;
        payloadLength = (int) Math.min(runStride, total - at);
        sourceOffset = runSource + at;
        flags = i == runAckAt && (runFlags & FrameFlags.ACK_LAZY) == 0 ? runFlags | FrameFlags.ACK_REQUEST : runFlags;
        return !sourceFailed;
    }

    @Override
    public long payloadOffset() {
        return sourceOffset;
    }

    @Override
    public int payloadLength() {
        return payloadLength;
    }

    /** Bytes of the head of a frame sent in two parts: its header and its trailer. */
    int headLength() {
        return op.headerBytes() + FrameLayout.TRAILER_BYTES;
    }

    /** Bytes of the frame being built. */
    int length() {
        return FrameEncoder.frameBytes(op, payloadLength);
    }

    @Override
    public void write(MemorySegment b, long o) {
        if (split && (op == Opcode.WRITE || op == Opcode.WRITE_WITH_IMM)) {
            // The head of a WRITE whose payload travels by reference: nearly every frame of a bulk transfer, and of
            // every message a collective library sends (each one WRITE_WITH_IMM). Kept apart from the general case
            // so that this method stays small enough for the compiler to inline where the transport calls it, once
            // per frame.
            FrameEncoder.common(b, o, op, flags, epoch, seq, credit, echo, payloadLength);
            FrameEncoder.dataAndTarget(b, o, qpn, msn, psn, offset, total, rkey, raddr);
            if (op == Opcode.WRITE_WITH_IMM) {
                FrameEncoder.writeImm(b, o, imm, recvIndex);
            }
            sealHead(b, o);
            return;
        }
        writeWhole(b, o);
    }

    private void writeWhole(MemorySegment b, long o) {
        FrameEncoder.common(b, o, op, flags, epoch, seq, credit, echo, payloadLength);
        switch (op) {
            case WRITE -> {
                FrameEncoder.dataAndTarget(b, o, qpn, msn, psn, offset, total, rkey, raddr);
                payload(b, o);
            }
            case WRITE_WITH_IMM -> {
                FrameEncoder.dataAndTarget(b, o, qpn, msn, psn, offset, total, rkey, raddr);
                FrameEncoder.writeImm(b, o, imm, recvIndex);
                payload(b, o);
            }
            case SEND -> {
                FrameEncoder.data(b, o, qpn, msn, psn, offset, total);
                FrameEncoder.send(b, o, recvIndex, imm);
                payload(b, o);
            }
            case ACK -> {
                FrameEncoder.ackCounts(b, o, ackRails, ackQps);
                for (int i = 0; i < ackRails; i++) {
                    FrameEncoder.ackRail(b, o, i, arRail[i], arEpoch[i], arPosition[i], arCredit[i], arMap[i]);
                }
                for (int j = 0; j < ackQps; j++) {
                    FrameEncoder.ackQp(b, o, ackRails, j, aqQpn[j], aqMsn[j], aqPsn[j]);
                }
            }
            case CREDIT -> FrameEncoder.credit(b, o, nextSeq);
            case NAK -> FrameEncoder.nak(b, o, nakQpn, nakMsn, nakReason);
            case HELLO -> FrameEncoder.hello(b, o, helloDevice, helloRail, helloFrameBytes, helloWindow);
            case CONNECT_REQUEST, CONNECT_REPLY -> FrameEncoder.connect(b, o, connId, connA, connSrc,
                    connMaxMessages, connPsnWindow);
            case CONNECT_REJECT -> FrameEncoder.reject(b, o, connId, rejectReason);
            case DISCONNECT -> FrameEncoder.disconnect(b, o, discDst, discSrc);
        }
        if (split) {
            sealHead(b, o);
            return;
        }
        encoder.seal(b, o, length());
        if (sourceFailed) {
            b.set(ValueLayout.JAVA_BYTE, o + FrameLayout.OFF_VERSION, (byte) 0);
        }
    }

    private void sealHead(MemorySegment b, long o) {
        try {
            encoder.sealHead(b, o, op, flags, source, sourceOffset, payloadLength);
        } catch (RuntimeException closedOrForeign) {
            sourceFailed = true;
        }
        if (sourceFailed) {
            b.set(ValueLayout.JAVA_BYTE, o + FrameLayout.OFF_VERSION, (byte) 0);
        }
    }

    private void payload(MemorySegment b, long o) {
        if (payloadLength == 0 || split) {
            return;
        }
        try {
            MemorySegment.copy(source, sourceOffset, b, o + op.headerBytes(), payloadLength);
        } catch (RuntimeException closedOrForeign) {
            // The region's memory was closed or belongs to another thread: the frame must not carry garbage.
            sourceFailed = true;
        }
    }
}
