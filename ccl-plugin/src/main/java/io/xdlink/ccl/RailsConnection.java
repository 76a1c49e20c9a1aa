package io.xdlink.ccl;

import io.xdlink.ccl.engine.Connection;
import io.xdlink.ccl.engine.RegisteredMemory;
import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.CompletionQueue;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.QpState;
import io.xdlink.rails.verbs.QueuePair;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;

/**
 * One connection end over a rails queue pair and its completion queue. A receiving end keeps
 * {@link #IMMEDIATE_RECEIVES} empty receives posted, because each write-with-immediate from the peer consumes one,
 * and posts a new one for every one consumed.
 */
final class RailsConnection implements Connection {
    /** Writes with immediate one receive comm can have landing at once: 32 receives of 8 buffers. */
    static final int IMMEDIATE_RECEIVES = CclNet.MAX_REQUESTS * CclNet.MAX_RECVS;
    /** Completion-queue and send-queue room for a send comm's writes (each up to one chunk) and messages. */
    static final int QUEUE_DEPTH = 2 * IMMEDIATE_RECEIVES + 2 * CclNet.MAX_REQUESTS;
    /** Work ids of the empty receives for immediates, above any id the comms use. */
    private static final long IMMEDIATE_RECEIVE_ID = Long.MIN_VALUE;

    private final QueuePair qp;
    /** Where receives complete: every completion here is announced to the end. */
    private final CompletionQueue cq;
    /** Where sends and writes complete: the same queue, or, for a receive end, a quiet queue of its own. */
    private final CompletionQueue sendCq;
    private final Completion[] batch = new Completion[64];
    private final Map<Long, MemorySegment> receiveBuffers = new HashMap<>();
    private final boolean receivesImmediates;
    /** Receives for immediates consumed and not yet posted again because the queue pair refused at that moment. */
    private int immediateDeficit;
    /** {@code ccl_drain_on_progress}: completions may be drained by the device thread that pushes them. */
    private final boolean drainOnProgress;
    /** Steps the rails engine on the calling thread when it can (a real host's device in invoker mode). */
    private final EngineTurn turn;


    RailsConnection(QueuePair qp, CompletionQueue sendCq, CompletionQueue cq, boolean receivesImmediates,
                    boolean drainOnProgress, EngineTurn turn) {
        this.turn = turn;
        this.drainOnProgress = drainOnProgress;
        this.qp = qp;
        this.cq = cq;
        this.sendCq = sendCq;
        this.receivesImmediates = receivesImmediates;

        if (receivesImmediates) {
            for (int i = 0; i < IMMEDIATE_RECEIVES; i++) {
                if (!qp.postRecv(IMMEDIATE_RECEIVE_ID, null, 0, 0)) {
                    throw new IllegalStateException("the queue pair took only " + i + " of " + IMMEDIATE_RECEIVES
                            + " receives for immediates");
                }
            }
        }
    }

    /** Memory registered on a rails protection domain. */
    private record RailsMemory(MemorySegment segment, MemoryRegion region) implements RegisteredMemory {
        @Override
        public long remoteKey() {
            return Integer.toUnsignedLong(region.rkey());
        }

        @Override
        public void close() {
            region.deregister();
        }
    }

    /** The engine's chunk: rails carries messages of 64 MiB and more, so a chunk always fits in one write. */
    @Override
    public long maxWriteBytes() {
        return Connection.MIN_WRITE_BYTES;
    }

    @Override
    public RegisteredMemory register(MemorySegment region) {
        return new RailsMemory(region, qp.pd().register(region, Access.LOCAL_WRITE, Access.REMOTE_WRITE));
    }

    private static MemoryRegion region(RegisteredMemory memory) {
        return ((RailsMemory) memory).region();
    }

    private static long offset(RegisteredMemory memory, MemorySegment part) {
        return part.address() - memory.segment().address();
    }

    @Override
    public boolean postWrite(long workId, MemorySegment source, RegisteredMemory sourceMemory, RemoteBuffer target) {
        return posted(qp.postWrite(workId, region(sourceMemory), offset(sourceMemory, source), source.byteSize(),
                target.address(), (int) target.remoteKey()));
    }

    /** A post that was taken leaves now, on this thread, when it can take the engine's turn. */
    private boolean posted(boolean taken) {
        if (taken) {
            turn.step();
        }
        return taken;
    }

    @Override
    public boolean postWriteWithImmediate(long workId, MemorySegment source, RegisteredMemory sourceMemory,
                                          RemoteBuffer target, int immediate) {
        return posted(qp.postWriteWithImm(workId, region(sourceMemory), offset(sourceMemory, source),
                source.byteSize(), target.address(), (int) target.remoteKey(), immediate));
    }

    @Override
    public boolean postSend(long workId, RegisteredMemory memory, MemorySegment message) {
        return posted(qp.postSend(workId, region(memory), offset(memory, message), message.byteSize()));
    }

    @Override
    public boolean postReceive(long workId, RegisteredMemory memory, MemorySegment buffer) {
        if (!qp.postRecv(workId, region(memory), offset(memory, buffer), buffer.byteSize())) {
            return false;
        }
        receiveBuffers.put(workId, buffer);
        return true;
    }

    @Override
    public int poll(CompletionHandler handler, int max) {
        // Sends first: a receive end learns its advertisement left before it looks at the writes that answer it.
        turn.step();
        Completion[] into = max >= batch.length ? batch : new Completion[Math.max(1, max)];
        int n = sendCq == cq ? 0 : sendCq.poll(into);
        if (n == 0) {
            n = cq.poll(into);
        }
        for (int i = 0; i < n; i++) {
            Completion c = into[i];
            String error = c.isSuccess() ? null : c.status() + " on " + c.opcode();
            switch (c.opcode()) {
                case WRITE, WRITE_WITH_IMM, SEND -> handler.onPostComplete(c.wrId(), error);
                case RECV -> {
                    MemorySegment buffer = receiveBuffers.remove(c.wrId());
                    if (buffer == null) {
                        handler.onReceive(c.wrId(), MemorySegment.NULL, "a message arrived in no posted buffer");
                    } else {
                        handler.onReceive(c.wrId(), buffer.asSlice(0, Math.min(buffer.byteSize(), c.byteLen())), error);
                    }
                }
                case RECV_WRITE_WITH_IMM -> {
                    handler.onImmediate(c.imm(), c.byteLen(), error);
                    if (error == null && receivesImmediates) {
                        immediateDeficit++;
                    }
                }
                default -> handler.onImmediate(-1, 0, error == null ? "unexpected " + c.opcode() : error);
            }
        }
        // A refused repost is tried again on the next poll, so no receive is lost for good.
        while (immediateDeficit > 0 && qp.postRecv(IMMEDIATE_RECEIVE_ID, null, 0, 0)) {
            immediateDeficit--;
        }
        return n;
    }

    /**
     * The completion queues are this connection's alone, so their pushes are its completions. A receive end's
     * sends (its advertisements) complete unannounced on a queue of their own: such a completion only frees a slot,
     * which the next irecv polls for anyway, and a failed send leaves the queue pair in error, which flushes the
     * receives posted for immediates onto the announced queue, so a failure is still announced.
     */
    @Override
    public boolean onCompletion(Runnable listener) {
        cq.onPush(listener);
        return true;
    }

    /**
     * Completions are pushed by the device's progress thread (or by a thread flushing a failed or closed queue
     * pair) onto lock-free queues, and posting only hands commands to the progress thread, so the end may drain
     * right there; it does when {@code ccl_drain_on_progress} asks for it.
     */
    @Override
    public boolean pollFromListener() {
        return drainOnProgress;
    }

    @Override
    public boolean wantsPoll() {
        return immediateDeficit > 0;
    }

    @Override
    public boolean isOpen() {
        QpState s = qp.state();
        return s != QpState.ERROR && s != QpState.CLOSED;
    }

    @Override
    public void close() {
        qp.close();
    }
}
