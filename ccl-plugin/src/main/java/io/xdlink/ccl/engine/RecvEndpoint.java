package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;
import io.xdlink.ccl.CclResult;
import io.xdlink.ccl.EngineTurn;
import io.xdlink.ccl.RecvComm;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.QueuePair;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The receiving end of a connection, over the rails queue pair of the listening side. A grouped receive takes one
 * of {@link Advertisement#SLOTS} slots, is advertised to the sender with a SEND, and completes when a
 * write-with-immediate has landed in each of its buffers. A slot is reused only after its request was released by
 * {@link #test} and its advertisement's send completed, so a late write can never land in a newer receive (the
 * immediate's sequence bits are checked as well).
 *
 * <p>Each write-with-immediate consumes one of the queue pair's receives, so the end keeps
 * {@link #IMMEDIATE_RECEIVES} empty ones posted and posts one again for each consumed. Only the receive queue's
 * completions are announced: the advertisements' sends complete on a quiet queue of their own, since such a
 * completion only frees a slot, which the next irecv polls for anyway, and a failed send leaves the queue pair in
 * error, which flushes the posted receives onto the announced queue.
 *
 * <p>Every public method takes this end's lock; progress happens inside the calls, like a host's proxy thread
 * polling its completion queue, and, where {@code ccl_drain_on_progress} allows, also where a completion is
 * produced, so a receive is finished before its host tests it. A request a native mirror reported done by itself
 * ({@link EngineRequest#reportableAt}) counts as released.
 */
public final class RecvEndpoint extends Endpoint implements RecvComm {
    /** Writes with immediate one receive end can have landing at once: every buffer of every slot. */
    public static final int IMMEDIATE_RECEIVES = Advertisement.SLOTS * Advertisement.MAX_ENTRIES;
    /** Work id of the empty receives for immediates, above any id a slot uses. */
    private static final long IMMEDIATE_RECEIVE_ID = Long.MIN_VALUE;

    private final IrecvRequest[] slots = new IrecvRequest[Advertisement.SLOTS];
    /** Receives for immediates consumed and not yet posted again because the queue pair refused at that moment. */
    private int immediateDeficit;
    private long nextSequence;

    /**
     * Posts the receives that writes with immediate consume; fails if the queue pair cannot take them.
     *
     * @param drainOnProgress whether a completion may be drained on the thread that produced it
     */
    public RecvEndpoint(int device, QueuePair qp, EngineTurn turn, boolean drainOnProgress) throws CclException {
        super(RECEIVING, device, qp, turn, drainOnProgress);
        // Held until the end is whole: a completion produced meanwhile (a flush) must not drain a half-built end.
        lock.lock();
        try {
            listenOn(qp.recvCq());
            for (int i = 0; i < IMMEDIATE_RECEIVES; i++) {
                if (!qp.postRecv(IMMEDIATE_RECEIVE_ID, null, 0, 0)) {
                    letGo(false);
                    throw new CclException(CclResult.SYSTEM_ERROR, "the queue pair took only " + i + " of "
                            + IMMEDIATE_RECEIVES + " receives for immediates");
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Posts a grouped receive; null when every slot is busy or the queue pair cannot take the advertisement now. */
    public IrecvRequest irecv(MemorySegment[] buffers, int[] tags, MemoryRegion[] memory) throws CclException {
        // Never waits: while the progress thread drains this end, the host is told to try again.
        if (!lock.tryLock()) {
            return null;
        }
        try {
            return irecvLocked(buffers, tags, memory);
        } finally {
            lock.unlock();
        }
    }

    private IrecvRequest irecvLocked(MemorySegment[] buffers, int[] tags, MemoryRegion[] memory)
            throws CclException {
        usable("closeRecv");
        if (buffers.length < 1 || buffers.length > Advertisement.MAX_ENTRIES || tags.length != buffers.length
                || memory.length != buffers.length) {
            throw CclException.internal("irecv of " + buffers.length + " buffers with " + tags.length + " tags and "
                    + memory.length + " memory handles; 1.." + Advertisement.MAX_ENTRIES + " of each, equal counts");
        }
        // What already completed first; only a receive that finds every slot taken reads the rails for the
        // completions that free one.
        progress(false, null);
        usable("closeRecv");
        int slot = freeSlot();
        if (slot < 0) {
            progress();
            usable("closeRecv");
            slot = freeSlot();
            if (slot < 0) {
                return null;
            }
        }
        // Made once per message: an array made into a list once, and the error label only on an error.
        Advertisement.Entry[] entries = new Advertisement.Entry[buffers.length];
        long[] capacity = new long[buffers.length];
        for (int i = 0; i < buffers.length; i++) {
            long offset = Regions.offsetIn(buffers[i], memory[i], "receive buffer", i);
            capacity[i] = buffers[i].byteSize();
            entries[i] = new Advertisement.Entry(Integer.toUnsignedLong(memory[i].rkey()), buffers[i].address(),
                    offset, buffers[i].byteSize(), tags[i]);
        }
        long sequence = nextSequence & 0xFFFF_FFFFL;
        Advertisement ad = new Advertisement(sequence, slot, List.of(entries));
        long at = messageAt(slot);
        int len = ad.encode(messages.asSlice(at, Advertisement.MAX_BYTES));
        // Acknowledged lazily: its completion only frees the slot, and there are many; a prompt acknowledgement cost
        // the sender a frame, and this end the taking in of one, in every answer of a ping-pong.
        if (!qp.postSendLazily(slot, messageMemory, at, len)) {
            return null;
        }
        nextSequence++;
        IrecvRequest request = new IrecvRequest(this, sequence, slot, capacity);
        request.advertised = true;
        slots[slot] = request;
        // The advertisement leaves with the host's next call when the host polls (most often the send it posts
        // next, in the same write), otherwise now.
        stepLater();
        return request;
    }

    @Override
    void closeLocked() {
        boolean quiet = failure == null && open() && nothingOutstanding();
        failAll("the receive comm was closed");
        if (quiet) {
            // Everything was received; the sender may still wait for the acknowledgement of the last write.
            stopAnnouncing();
            Linger.add(qp, messageMemory::deregister);
        } else {
            letGo(true);
        }
    }

    private boolean nothingOutstanding() {
        for (IrecvRequest r : slots) {
            if (r != null && !r.released && !r.done()) {
                return false;
            }
        }
        return true;
    }

    /** Frees the request's slot too, unless its advertisement's send has not completed yet. */
    @Override
    void release(EngineRequest r) {
        IrecvRequest request = (IrecvRequest) r;
        request.released = true;
        if (slots[request.slot] == request && !request.advertised) {
            slots[request.slot] = null;
        }
    }

    private int freeSlot() {
        for (int i = 0; i < slots.length; i++) {
            IrecvRequest r = slots[i];
            if (r == null) {
                return i;
            }
            if (!r.advertised && (r.released || r.reportedElsewhere())) {
                slots[i] = null;
                return i;
            }
        }
        return -1;
    }

    @Override
    void progress(boolean look, EngineRequest until) {
        long arrivals = attention.arrivals();
        if (failure == null) {
            drainCompletions(look, until);
            // A refused repost is tried again on the next look, so no receive is lost for good.
            while (failure == null && immediateDeficit > 0 && qp.postRecv(IMMEDIATE_RECEIVE_ID, null, 0, 0)) {
                immediateDeficit--;
            }
            if (failure == null && !open()) {
                fail("the connection closed");
            }
        }
        settle(arrivals, failure == null && immediateDeficit > 0);
    }

    /** An advertisement's send is done: its slot may be reused once its receive is released. */
    @Override
    void posted(Completion c) {
        if (!c.isSuccess()) {
            fail("advertisement send failed: " + describe(c));
            return;
        }
        long slot = c.wrId();
        if (slot < 0 || slot >= slots.length || slots[(int) slot] == null) {
            fail("completion for advertisement slot " + slot + " that holds no receive");
            return;
        }
        IrecvRequest r = slots[(int) slot];
        r.advertised = false;
        if (r.released || r.reportedElsewhere()) {
            slots[(int) slot] = null;
        }
    }

    /** A write-with-immediate from the peer placed its bytes, or was refused (the queue pair is in error then). */
    @Override
    void received(Completion c) {
        if (!c.isSuccess()) {
            fail("write with immediate failed: " + describe(c));
            return;
        }
        immediateDeficit++;
        int immediate = c.imm();
        int slot = Immediate.slot(immediate);
        int index = Immediate.index(immediate);
        IrecvRequest r = slots[slot];
        if (!c.hasImm() || !Immediate.wellFormed(immediate) || r == null || r.released
                || Immediate.sequenceBits(immediate) != (r.sequence & Immediate.SEQUENCE_MASK)
                || index >= r.capacity.length || r.arrived(index)) {
            fail(String.format("write with immediate 0x%08x names no waiting buffer", immediate));
            return;
        }
        long length = c.byteLen();
        if (length < 0 || length > r.capacity[index]) {
            r.error = "peer wrote " + length + " bytes into a " + r.capacity[index] + "-byte buffer";
            r.finish();
            return;
        }
        r.arrive(index, length);
        if (r.done()) {
            r.finish();
        }
    }

    @Override
    void failAll(String why) {
        for (IrecvRequest r : slots) {
            if (r != null && !r.released && !r.done() && r.error == null) {
                r.error = why;
                r.finish();
            }
        }
    }
}
