package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;
import io.xdlink.ccl.CclResult;
import io.xdlink.ccl.EngineTurn;
import io.xdlink.ccl.SendComm;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.QueuePair;
import io.xdlink.rails.verbs.WorkOpcode;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * The sending end of a connection, over the rails queue pair of the connecting side. Advertisements arrive in
 * posting order into receives posted for them; a send matches, by tag, a not yet used buffer of the oldest
 * advertisement (tags route only within the first posted grouped receive, as the host expects) and writes straight
 * into it with one write-with-immediate. No matching buffer yet means "retry".
 *
 * <p>A send of up to {@link #COPIED_BYTES} is copied into memory of the end's own and reported done as it is posted,
 * as a socket transport's send is done once written: the host's next test() of it is answered by the native mirror,
 * and the write goes from the copy, which is kept until the write's completion. Those writes are acknowledged
 * lazily ({@link QueuePair#postWriteWithImmLazily}): nothing waits for their acknowledgement but the copy's memory.
 * When all {@link #COPIES} copies are in flight, a send waits for its write's completion as larger ones do. A write
 * reported done that then fails fails the connection; an end closed while such writes are on their way keeps its
 * queue pair up until they complete ({@link Linger}), since the host closes trusting they arrive.
 *
 * <p>While the host polls ({@link EngineTurn#sendHoldNanos}), a larger send posted while earlier ones are still in
 * flight may wait, up to {@code ccl_send_hold_us}, for the comm's next send: both then leave in one socket write.
 * In the two-host lab each 64 KiB message of a stream otherwise cost the sending end a gathering write of its own,
 * and on a 2-core guest a system call weighs about as much as the Java around it. A send that waits is in
 * flight like any other; the end's next call after the wait (a host tests its sends until they are done) posts it,
 * and a close posts it and fails it with the other sends it finds in flight. A send with nothing in flight before
 * it, as in a round trip, never waits.
 *
 * <p>Every public method takes this end's lock; progress happens inside the calls and, where
 * {@code ccl_drain_on_progress} allows, also where a completion is produced, so a send is finished and an
 * advertisement taken in before the host calls again. The queue pair's one completion queue is announced.
 */
public final class SendEndpoint extends Endpoint implements SendComm {
    private final ArrayDeque<Pending> advertised = new ArrayDeque<>(Advertisement.SLOTS);
    /** Sends posted and not yet completed, in posting order: the order rails completes them in. */
    private final ArrayDeque<IsendRequest> inFlight = new ArrayDeque<>();
    /** Advertisement buffers consumed and not yet posted again (the queue pair refused at that moment). */
    private final ArrayDeque<Integer> toRepost = new ArrayDeque<>();
    private long expectedSequence;
    private long nextWorkId;
    /**
     * The copies of small sends ({@link #COPIES} of {@link #COPIED_BYTES}), registered like the advertisement
     * buffers; their own arena for the reason {@link Endpoint#messages} has one.
     */
    private final MemorySegment copies = Arena.ofAuto().allocate(COPIES * COPIED_BYTES, 64);
    private final MemoryRegion copyMemory;
    /** Copies not in flight, a stack of their indexes. */
    private final int[] freeCopies = new int[COPIES];
    private int freeCopyCount;
    /** A send held back for the comm's next one, not yet posted; null when none. */
    private HeldWrite held;

    /** The write of a held send, as it will be posted, and since when it waits. */
    private record HeldWrite(IsendRequest request, MemoryRegion from, long at, long address, int key, int immediate,
                             long since) {
    }

    /** Why a close fails the sends it finds in flight. */
    private static final String CLOSED = "the send comm was closed";

    /** Largest send reported done as it is posted, from a copy. */
    public static final long COPIED_BYTES = 1024;
    /** Copies one end has in flight at most: one per advertisement slot. */
    static final int COPIES = Advertisement.SLOTS;

    /** An advertisement and which of its buffers sends have taken. */
    private static final class Pending {
        final Advertisement ad;
        final boolean[] used;
        int usedCount;

        Pending(Advertisement ad) {
            this.ad = ad;
            this.used = new boolean[ad.entries().size()];
        }
    }

    /**
     * Posts the receives that advertisements arrive in; fails if the queue pair cannot take them.
     *
     * @param drainOnProgress whether a completion may be drained on the thread that produced it
     */
    public SendEndpoint(int device, QueuePair qp, EngineTurn turn, boolean drainOnProgress) throws CclException {
        super(SENDING, device, qp, turn, drainOnProgress);
        try {
            copyMemory = register(copies);
        } catch (CclException e) {
            letGo(false);
            throw e;
        }
        for (int i = COPIES - 1; i >= 0; i--) {
            freeCopies[freeCopyCount++] = i;
        }
        // Held while the buffers are posted: an advertisement may arrive after the first, and its drain must wait.
        lock.lock();
        try {
            listenOn(qp.recvCq());
            if (qp.sendCq() != qp.recvCq()) {
                listenOn(qp.sendCq());
            }
            for (int i = 0; i < Advertisement.SLOTS; i++) {
                if (!postReceive(i)) {
                    letGo(false);
                    copyMemory.deregister();
                    throw new CclException(CclResult.SYSTEM_ERROR, "the queue pair refused receive buffer " + i
                            + " of " + Advertisement.SLOTS + " for advertisements");
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private boolean postReceive(int slot) {
        return qp.postRecv(slot, messageMemory, messageAt(slot), Advertisement.MAX_BYTES);
    }

    /** True when an isend now would surely be told to retry: the end is quiet and had no advertisement left. */
    public boolean surelyStarved() {
        return attention.surelyStarved();
    }

    /** Starts a send; null when the peer has not advertised a matching buffer yet. */
    public IsendRequest isend(MemorySegment data, int tag, MemoryRegion memory) throws CclException {
        // Never waits: while the progress thread drains this end, the host is told to try again.
        if (!lock.tryLock()) {
            return null;
        }
        try {
            return isendLocked(data, tag, memory);
        } finally {
            lock.unlock();
        }
    }

    private IsendRequest isendLocked(MemorySegment data, int tag, MemoryRegion memory) throws CclException {
        usable("closeSend");
        long offset = Regions.offsetIn(data, memory, "send buffer");
        if (data.byteSize() > Immediate.MAX_MESSAGE_BYTES) {
            throw CclException.usage("send of " + data.byteSize() + " bytes exceeds the largest message, "
                    + Immediate.MAX_MESSAGE_BYTES + " bytes");
        }
        // What already arrived first: the cycle this post runs after it posts then carries the write, and what
        // waits to leave (an advertisement the host posted before, an acknowledgement), in one socket write. Only a
        // send that finds no advertised buffer reads the rails for one now.
        progress(false, null);
        usable("closeSend");
        int index = matchingBuffer(tag);
        if (index < 0) {
            progress();
            usable("closeSend");
            index = matchingBuffer(tag);
            if (index < 0) {
                return null;
            }
        }
        Pending head = advertised.peekFirst();
        Advertisement.Entry target = head.ad.entries().get(index);
        if (data.byteSize() > target.size()) {
            throw CclException.usage("send of " + data.byteSize() + " bytes with tag " + tag
                    + " is larger than the matching receive buffer of " + target.size() + " bytes");
        }
        long workId = nextWorkId;
        int copy = data.byteSize() <= COPIED_BYTES && freeCopyCount > 0 ? freeCopies[freeCopyCount - 1] : -1;
        MemoryRegion from = memory;
        long at = offset;
        if (copy >= 0) {
            from = copyMemory;
            at = copy * COPIED_BYTES;
            MemorySegment.copy(data, 0, copies, at, data.byteSize());
        }
        // A send waiting for this one goes first, in posting order, and this one with it; with none waiting, this
        // one waits when it may.
        boolean hold = held == null && copy < 0 && !inFlight.isEmpty() && turn().sendHoldNanos() > 0;
        if (held != null && !postHeld()) {
            return null;
        }
        if (!hold && !qp.postWriteWithImm(workId, from, at, data.byteSize(), target.address(),
                (int) target.remoteKey(), head.ad.immediate(index), true, copy >= 0)) {
            return null;
        }
        nextWorkId++;
        IsendRequest request = new IsendRequest(this, data.byteSize(), workId, copy);
        if (hold) {
            held = new HeldWrite(request, from, at, target.address(), (int) target.remoteKey(),
                    head.ad.immediate(index), turn().nanoTime());
        }
        if (copy >= 0) {
            freeCopyCount--;
            request.confirmed = true;
            request.finish();
        }
        inFlight.addLast(request);
        head.used[index] = true;
        if (++head.usedCount == head.used.length) {
            advertised.pollFirst();
            // That was the last buffer the settled look found: until a completion arrives, sends must retry.
            attention.starved(advertised.isEmpty());
        }
        if (hold) {
            // Nothing to run now; the host's next look must come into Java to post it once the wait is over.
            attention.drive();
            return request;
        }
        // The write leaves now, on this thread, when it can take the engine's turn.
        step();
        return request;
    }

    /** Posts the held send's write; false, keeping it held, when the queue pair cannot take it now. */
    private boolean postHeld() {
        HeldWrite h = held;
        if (!qp.postWriteWithImm(h.request().workId, h.from(), h.at(), h.request().bytes, h.address(), h.key(),
                h.immediate(), true, false)) {
            return false;
        }
        held = null;
        return true;
    }

    /** The first unused buffer with {@code tag} of the oldest advertisement; -1 when there is none. */
    private int matchingBuffer(int tag) {
        Pending head = advertised.peekFirst();
        if (head == null) {
            return -1;
        }
        for (int i = 0; i < head.used.length; i++) {
            if (!head.used[i] && head.ad.entries().get(i).tag() == tag) {
                return i;
            }
        }
        return -1;
    }

    @Override
    void closeLocked() {
        if (held != null && !postHeld()) {
            // Never posted, so no completion will come for it: failed with the rest below, not waited for.
            inFlight.remove(held.request());
            held.request().error = CLOSED;
            held.request().finish();
            held = null;
        }
        int writing = inFlight.size();
        boolean reported = false;
        for (IsendRequest r : inFlight) {
            reported |= r.copy >= 0;
        }
        failAll(CLOSED);
        if (reported && open()) {
            // Small sends were reported done as they were posted, and the host closes trusting they arrive: closing
            // the queue pair now would flush those still on their way, and the peer's receives of them would fail
            // with "the connection closed" (a run between two threads over the loopback fabric did so, its last
            // small sends posted just before the close). The queue pair stays up, with the copies' memory and the
            // advertisements' buffers, until every write posted before the close completed.
            stopAnnouncing();
            Linger.addUntilWritten(qp, WorkOpcode.WRITE_WITH_IMM, writing, copyMemory::deregister,
                    messageMemory::deregister);
            return;
        }
        letGo(true);
        copyMemory.deregister();
    }

    @Override
    void progress(boolean look, EngineRequest until) {
        long arrivals = attention.arrivals();
        if (held != null && failure == null && turn().nanoTime() - held.since() >= turn().sendHoldNanos()) {
            // Its wait is over: posted here, it leaves with this call's cycle (or the post's own, which follows).
            postHeld();
        }
        if (failure == null) {
            drainCompletions(look, until);
            Integer slot;
            while (failure == null && (slot = toRepost.peekFirst()) != null && postReceive(slot)) {
                toRepost.pollFirst();
            }
            if (failure == null && !open()) {
                fail("the connection closed");
            }
        }
        attention.starved(failure == null && advertised.isEmpty());
        // Buffers to post again move only when this end runs, whatever arrives.
        settle(arrivals, failure == null && (!toRepost.isEmpty() || held != null));
    }

    /** A send's write is done (the peer has the bytes), or failed. */
    @Override
    void posted(Completion c) {
        IsendRequest r = inFlight.peekFirst();
        if (r != null && r.workId == c.wrId()) {
            inFlight.pollFirst();
        } else if (c.isSuccess() || (r = remove(c.wrId())) == null) {
            // Successes come in posting order; a flush may report the failed ones in another.
            fail("completion for send " + c.wrId() + " that is not in flight");
            return;
        }
        if (r.copy >= 0) {
            // Reported done when it was posted: only its copy waited for this.
            freeCopies[freeCopyCount++] = r.copy;
            if (!c.isSuccess()) {
                fail("a send of " + r.bytes + " bytes already reported done did not arrive: " + describe(c));
            }
            return;
        }
        if (c.isSuccess()) {
            r.confirmed = true;
        } else {
            r.error = describe(c);
        }
        r.finish();
    }

    private IsendRequest remove(long workId) {
        for (IsendRequest r : inFlight) {
            if (r.workId == workId) {
                inFlight.remove(r);
                return r;
            }
        }
        return null;
    }

    /** An advertisement arrived in one of the receives posted for them, or the receive failed. */
    @Override
    void received(Completion c) {
        if (!c.isSuccess()) {
            fail("advertisement receive failed: " + describe(c));
            return;
        }
        long slot = c.wrId();
        if (slot < 0 || slot >= Advertisement.SLOTS) {
            fail("advertisement arrived in buffer " + slot + ", which was never posted");
            return;
        }
        Advertisement ad;
        try {
            ad = Advertisement.decode(messages.asSlice(messageAt(slot), Math.min(c.byteLen(), Advertisement.MAX_BYTES)));
        } catch (MalformedMessageException e) {
            fail(e.getMessage());
            return;
        }
        if (ad.sequence() != (expectedSequence & 0xFFFF_FFFFL)) {
            fail("advertisement " + ad.sequence() + " arrived where " + (expectedSequence & 0xFFFF_FFFFL)
                    + " was due");
            return;
        }
        if (advertised.size() >= Advertisement.SLOTS) {
            fail("more than " + Advertisement.SLOTS + " receives advertised at once");
            return;
        }
        for (int i = 0; i < ad.entries().size(); i++) {
            long key = ad.entries().get(i).remoteKey();
            if (key < 0 || key > 0xFFFF_FFFFL) {
                fail(String.format("advertised buffer %d has remote key 0x%x, wider than a rails key", i, key));
                return;
            }
        }
        expectedSequence++;
        advertised.addLast(new Pending(ad));
        toRepost.addLast((int) slot);
    }

    @Override
    void failAll(String why) {
        held = null;
        for (IsendRequest r : inFlight) {
            if (r.error == null && !r.done()) {
                r.error = why;
                r.finish();
            }
        }
        inFlight.clear();
    }
}
