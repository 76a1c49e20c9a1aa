package io.xdlink.rails.engine;

import io.xdlink.rails.frame.FrameFlags;
import io.xdlink.rails.frame.Opcode;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.CompletionStatus;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.WorkOpcode;

/**
 * A posted WRITE, WRITE_WITH_IMM or SEND: what the caller asked for, then what the engine made of it (its message
 * and packet sequence numbers, how many frames, what is still to send). Handed to the engine as its own command.
 */
public final class SendRequest extends Command {
    final QpCore qp;
    final long wrId;
    final WorkOpcode opcode;
    final Opcode frameOpcode;
    final MemoryRegion local;
    final long offset;
    final long length;
    final long raddr;
    final int rkey;
    final int imm;
    final boolean hasImm;
    final boolean signaled;
    /**
     * {@link FrameFlags#ACK_LAZY} when its frames say the peer may acknowledge them lazily,
     * else 0.
     */
    final int lazyFlag;

    int msn;
    int psnStart;
    int frames;
    int payload;
    int recvIndex;
    /** Frames not yet sent even once. */
    int framesUnsent;
    boolean done;
    int rnrRetries;
    /** When a receiver-not-ready resend is due, 0 when none is. */
    long rnrAt;

    public SendRequest(QpCore qp, long wrId, WorkOpcode opcode, MemoryRegion local, long offset, long length,
                       long raddr, int rkey, int imm, boolean hasImm, boolean signaled) {
        this(qp, wrId, opcode, local, offset, length, raddr, rkey, imm, hasImm, signaled, false);
    }

    /** As above; with {@code lazyAck}, its frames tell the peer that their acknowledgement may wait. */
    public SendRequest(QpCore qp, long wrId, WorkOpcode opcode, MemoryRegion local, long offset, long length,
                       long raddr, int rkey, int imm, boolean hasImm, boolean signaled, boolean lazyAck) {
        this.lazyFlag = lazyAck ? FrameFlags.ACK_LAZY : 0;
        this.qp = qp;
        this.wrId = wrId;
        this.opcode = opcode;
        this.frameOpcode = switch (opcode) {
            case WRITE -> Opcode.WRITE;
            case WRITE_WITH_IMM -> Opcode.WRITE_WITH_IMM;
            default -> Opcode.SEND;
        };
        this.local = local;
        this.offset = offset;
        this.length = length;
        this.raddr = raddr;
        this.rkey = rkey;
        this.imm = imm;
        this.hasImm = hasImm;
        this.signaled = signaled;
    }

    /** The caller's id of the request. */
    public long wrId() {
        return wrId;
    }

    /** What the caller asked for. */
    public WorkOpcode opcode() {
        return opcode;
    }

    /** True when the message consumes one of the peer's posted receives. */
    boolean consumesRecv() {
        return frameOpcode != Opcode.WRITE;
    }

    /** Bytes frame {@code k} of the message carries. */
    int frameLength(int k) {
        long start = (long) k * payload;
        return (int) Math.min(payload, length - start);
    }

    @Override
    protected void run(DeviceEngine engine) {
        engine.onPostSend(this);
    }

    @Override
    protected void flush() {
        qp.sendDone();
        qp.sendCq().push(new Completion(wrId, opcode, CompletionStatus.WR_FLUSH_ERROR, 0, 0, false, qp.qpn()));
    }
}
