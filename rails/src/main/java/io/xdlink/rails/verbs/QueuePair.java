package io.xdlink.rails.verbs;

import io.xdlink.rails.engine.Command;
import io.xdlink.rails.engine.DeviceEngine;
import io.xdlink.rails.engine.QpCore;
import io.xdlink.rails.engine.RecvRequest;
import io.xdlink.rails.engine.SendRequest;

import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A reliable-connected queue pair: WRITE, WRITE_WITH_IMM and SEND to its one peer queue pair, RECV for that peer's
 * SENDs and WRITE_WITH_IMMs. Posting never blocks and may be done from any thread: a request is handed to the
 * device's progress engine and its completion appears on the queue pair's completion queue. A post returns false,
 * and nothing is posted, when the queue already holds its limit of outstanding requests.
 *
 * <p>Sends complete in the order they were posted, each once the peer holds all its bytes; receives complete in the
 * order the peer sent. After an error (a refused WRITE, a receiver that never got ready, no rail for the peer
 * timeout, {@link #close()}, the device closing) every outstanding request completes with an error status, and so
 * does every later post.
 */
public final class QueuePair implements AutoCloseable {
    private final Device device;
    private final DeviceEngine engine;
    private final int qpn;
    private final ProtectionDomain pd;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final int maxSendWr;
    private final int maxRecvWr;
    private final AtomicInteger sendOutstanding = new AtomicInteger();
    private final AtomicInteger recvOutstanding = new AtomicInteger();
    /** The engine's side: its state, its connection, its sending and receiving halves. */
    private final QpCore core;

    QueuePair(Device device, DeviceEngine engine, QpAttributes attrs) {
        this.device = device;
        this.engine = engine;
        this.pd = attrs.pd();
        this.sendCq = attrs.sendCq();
        this.recvCq = attrs.recvCq();
        this.maxSendWr = attrs.maxSendWr() == 0 ? device.settings().qpMaxSendWr() : attrs.maxSendWr();
        this.maxRecvWr = attrs.maxRecvWr() == 0 ? device.settings().qpMaxRecvWr() : attrs.maxRecvWr();
        this.core = engine.newQp(attrs, maxSendWr, maxRecvWr, sendOutstanding, recvOutstanding);
        this.qpn = core.qpn();
    }

    /** This queue pair's number on its device. */
    public int qpn() {
        return qpn;
    }

    public QpState state() {
        return core.state();
    }

    /** The peer device, once connected. */
    public UUID peerDevice() {
        return core.peerDevice();
    }

    public Device device() {
        return device;
    }

    public ProtectionDomain pd() {
        return pd;
    }

    public CompletionQueue sendCq() {
        return sendCq;
    }

    public CompletionQueue recvCq() {
        return recvCq;
    }

    /** Sends posted and not yet completed. */
    public int sendOutstanding() {
        return sendOutstanding.get();
    }

    /** Receives posted and not yet completed. */
    public int recvOutstanding() {
        return recvOutstanding.get();
    }

    /** WRITE {@code length} bytes from {@code local} at {@code offset} to the peer's {@code remoteAddress}. */
    public boolean postWrite(long wrId, MemoryRegion local, long offset, long length, long remoteAddress, int rkey) {
        return postWrite(wrId, local, offset, length, remoteAddress, rkey, true);
    }

    /** WRITE; an unsignaled request completes silently unless it fails. */
    public boolean postWrite(long wrId, MemoryRegion local, long offset, long length, long remoteAddress, int rkey,
                             boolean signaled) {
        checkLocal(local, offset, length);
        return post(new SendRequest(core, wrId, WorkOpcode.WRITE, local, offset, length, remoteAddress, rkey, 0,
                false, signaled));
    }

    /** WRITE that also consumes one of the peer's receives, which completes with {@code imm} and the length. */
    public boolean postWriteWithImm(long wrId, MemoryRegion local, long offset, long length, long remoteAddress,
                                    int rkey, int imm) {
        return postWriteWithImm(wrId, local, offset, length, remoteAddress, rkey, imm, true);
    }

    public boolean postWriteWithImm(long wrId, MemoryRegion local, long offset, long length, long remoteAddress,
                                    int rkey, int imm, boolean signaled) {
        return postWriteWithImm(wrId, local, offset, length, remoteAddress, rkey, imm, signaled, false);
    }

    /**
     * As {@link #postWriteWithImm(long, MemoryRegion, long, long, long, int, int)}, for a caller that waits for
     * nothing the completion brings soon (it told its own caller the work was done when it posted it, from memory it
     * keeps until the completion): the peer may hold the acknowledgement of its frames for {@code ack_every_frames}
     * frames, until another acknowledgement goes, or for a quarter of the retransmit timeout (see
     * {@link io.xdlink.rails.frame.FrameFlags#ACK_LAZY}), so it rides with the peer's own traffic instead of costing a
     * frame of its own each time. The completion comes as late.
     */
    public boolean postWriteWithImmLazily(long wrId, MemoryRegion local, long offset, long length,
                                          long remoteAddress, int rkey, int imm) {
        return postWriteWithImm(wrId, local, offset, length, remoteAddress, rkey, imm, true, true);
    }

    /** A signaled write with immediate, acknowledged lazily ({@link #postWriteWithImmLazily}) when {@code lazy}. */
    public boolean postWriteWithImm(long wrId, MemoryRegion local, long offset, long length, long remoteAddress,
                                    int rkey, int imm, boolean signaled, boolean lazy) {
        checkLocal(local, offset, length);
        return post(new SendRequest(core, wrId, WorkOpcode.WRITE_WITH_IMM, local, offset, length, remoteAddress,
                rkey, imm, true, signaled, lazy));
    }

    /** SEND {@code length} bytes into the peer's next posted receive. */
    public boolean postSend(long wrId, MemoryRegion local, long offset, long length) {
        checkLocal(local, offset, length);
        return post(new SendRequest(core, wrId, WorkOpcode.SEND, local, offset, length, 0, 0, 0, false, true));
    }

    /** SEND with an immediate the peer's receive completion reports. */
    public boolean postSendWithImm(long wrId, MemoryRegion local, long offset, long length, int imm) {
        checkLocal(local, offset, length);
        return post(new SendRequest(core, wrId, WorkOpcode.SEND, local, offset, length, 0, 0, imm, true, true));
    }

    /** As {@link #postSend(long, MemoryRegion, long, long)}, acknowledged lazily as {@link #postWriteWithImmLazily}. */
    public boolean postSendLazily(long wrId, MemoryRegion local, long offset, long length) {
        checkLocal(local, offset, length);
        return post(new SendRequest(core, wrId, WorkOpcode.SEND, local, offset, length, 0, 0, 0, false, true, true));
    }

    public boolean postSend(long wrId, MemoryRegion local, long offset, long length, boolean signaled) {
        checkLocal(local, offset, length);
        return post(new SendRequest(core, wrId, WorkOpcode.SEND, local, offset, length, 0, 0, 0, false, signaled));
    }

    /** Posts a receive of up to {@code length} bytes into {@code mr} at {@code offset}. */
    public boolean postRecv(long wrId, MemoryRegion mr, long offset, long length) {
        if (length > 0 || mr != null) {
            Objects.requireNonNull(mr, "mr");
            if (!mr.allows(Access.LOCAL_WRITE)) {
                throw new IllegalArgumentException("a receive needs a region with LOCAL_WRITE: " + mr);
            }
            checkRange(mr, offset, length);
        }
        if (recvOutstanding.incrementAndGet() > maxRecvWr) {
            recvOutstanding.decrementAndGet();
            return false;
        }
        RecvRequest r = new RecvRequest(core, wrId, mr, offset, length);
        if (device.isClosed()) {
            recvOutstanding.decrementAndGet();
            recvCq.push(new Completion(wrId, WorkOpcode.RECV, CompletionStatus.WR_FLUSH_ERROR, 0, 0, false, qpn));
            return true;
        }
        engine.submit(r);
        return true;
    }

    private void checkLocal(MemoryRegion local, long offset, long length) {
        if (length < 0 || length > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("length " + length + " is outside 0.." + 0xFFFF_FFFFL);
        }
        if (local == null) {
            if (length > 0) {
                throw new IllegalArgumentException("local region is null for " + length + " bytes");
            }
            return;
        }
        checkRange(local, offset, length);
    }

    private void checkRange(MemoryRegion mr, long offset, long length) {
        if (mr.pd().device() != device) {
            throw new IllegalArgumentException("region " + mr + " belongs to another device");
        }
        if (!mr.contains(offset, length)) {
            throw new IllegalArgumentException("offset " + offset + " and length " + length + " fall outside the "
                    + mr.length() + "-byte region");
        }
    }

    private boolean post(SendRequest w) {
        if (sendOutstanding.incrementAndGet() > maxSendWr) {
            sendOutstanding.decrementAndGet();
            return false;
        }
        if (device.isClosed()) {
            sendOutstanding.decrementAndGet();
            sendCq.push(new Completion(w.wrId(), w.opcode(), CompletionStatus.WR_FLUSH_ERROR, 0, 0, false, qpn));
            return true;
        }
        engine.submit(w);
        return true;
    }

    /**
     * Closes the queue pair: every outstanding request completes with {@link CompletionStatus#WR_FLUSH_ERROR} and the
     * peer's queue pair is told to move to the error state. Idempotent; never blocks.
     */
    @Override
    public void close() {
        if (core.state() != QpState.CLOSED) {
            engine.submit(new Command() {
                @Override
                protected void run(DeviceEngine e) {
                    e.closeQp(core);
                }
            });
        }
    }

    /** The engine's side of this queue pair. */
    QpCore core() {
        return core;
    }

    @Override
    public String toString() {
        UUID peerDevice = core.peerDevice();
        return "QueuePair[" + qpn + " " + core.state() + (peerDevice == null ? "" : " to " + peerDevice + ":"
                + core.peerQpn()) + "]";
    }
}
