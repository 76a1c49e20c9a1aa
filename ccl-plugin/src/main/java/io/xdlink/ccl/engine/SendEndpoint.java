package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;
import io.xdlink.ccl.CclResult;
import io.xdlink.ccl.SendComm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The sending end of a connection. Advertisements arrive in posting order into buffers posted for them; a send
 * matches, by tag, a not yet used buffer of the oldest advertisement (tags route only within the first posted
 * grouped receive, as the host expects) and writes straight into it. No matching buffer yet means "retry".
 *
 * <p>Every public method takes this end's lock; progress happens inside the calls and, on a connection that allows
 * it ({@link Connection#pollFromListener}), also where a completion is produced, so a send is finished and an
 * advertisement taken in before the host calls again.
 */
public final class SendEndpoint implements SendComm, Connection.CompletionHandler {
    private static final int POLL_BATCH = 64;

    private final int device;
    private final Connection connection;
    /** This end's lock; a producing thread only tries it, so it never waits on a host's call. */
    private final ReentrantLock lock = new ReentrantLock();
    private final boolean drainOnArrival;
    final Attention attention;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment[] receiveBuffers = new MemorySegment[Advertisement.SLOTS];
    private final RegisteredMemory receiveMemory;
    private final ArrayDeque<Pending> advertised = new ArrayDeque<>(Advertisement.SLOTS);
    private final Map<Long, SendRequest> inFlight = new HashMap<>();
    private final ArrayDeque<SendRequest> backlog = new ArrayDeque<>();
    /** Advertisement buffers consumed and not yet posted again (the connection refused at that moment). */
    private final ArrayDeque<Integer> toRepost = new ArrayDeque<>();
    private long expectedSequence;
    private long nextWorkId;
    private String failure;
    private boolean closed;
    private final BooleanSupplier isClosed = () -> closed;
    private final Runnable drain = this::progress;

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

    /** Posts the buffers that advertisements arrive in; fails if the connection cannot take them. */
    public SendEndpoint(int device, Connection connection) throws CclException {
        this.device = device;
        this.connection = connection;
        this.drainOnArrival = connection.pollFromListener();
        MemorySegment block = arena.allocate((long) Advertisement.MAX_BYTES * receiveBuffers.length, 64);
        this.receiveMemory = connection.register(block);
        // Held while the buffers are posted: an advertisement may arrive after the first, and its drain must wait.
        lock.lock();
        try {
            this.attention = new Attention(connection.onCompletion(this::arrived));
            for (int i = 0; i < receiveBuffers.length; i++) {
                receiveBuffers[i] = block.asSlice((long) i * Advertisement.MAX_BYTES, Advertisement.MAX_BYTES);
                if (!connection.postReceive(i, receiveMemory, receiveBuffers[i])) {
                    connection.onCompletion(null);
                    attention.release();
                    receiveMemory.close();
                    arena.close();
                    throw new CclException(CclResult.SYSTEM_ERROR, "the connection refused receive buffer " + i
                            + " of " + receiveBuffers.length + " for advertisements");
                }
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int device() {
        return device;
    }

    /** Registers memory for use on this connection end. */
    public RegisteredMemory register(MemorySegment region) throws CclException {
        try {
            return connection.register(region);
        } catch (RuntimeException e) {
            throw CclException.system("cannot register " + region.byteSize() + " bytes: " + e.getMessage(), e);
        }
    }

    /**
     * The attention of this end, whose {@code starved} word says, while the end is quiet, that a send would be
     * told to retry: the plugin's C trampolines answer such an isend without entering Java.
     */
    public Attention attention() {
        return attention;
    }

    /** True when an isend now would surely be told to retry: the end is quiet and had no advertisement left. */
    public boolean surelyStarved() {
        return attention.surelyStarved();
    }

    /** Starts a send; null when the peer has not advertised a matching buffer yet. */
    public SendRequest isend(MemorySegment data, int tag, RegisteredMemory memory) throws CclException {
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

    private SendRequest isendLocked(MemorySegment data, int tag, RegisteredMemory memory) throws CclException {
        usable();
        Bounds.offsetIn(data, memory, "send buffer");
        if (data.byteSize() > Immediate.MAX_MESSAGE_BYTES) {
            throw CclException.usage("send of " + data.byteSize() + " bytes exceeds the largest message, "
                    + Immediate.MAX_MESSAGE_BYTES + " bytes");
        }
        progress();
        usable();
        Pending head = advertised.peekFirst();
        if (head == null) {
            return null;
        }
        int index = -1;
        for (int i = 0; i < head.used.length; i++) {
            if (!head.used[i] && head.ad.entries().get(i).tag() == tag) {
                index = i;
                break;
            }
        }
        if (index < 0) {
            return null;
        }
        Advertisement.Entry target = head.ad.entries().get(index);
        if (data.byteSize() > target.size()) {
            throw CclException.usage("send of " + data.byteSize() + " bytes with tag " + tag
                    + " is larger than the matching receive buffer of " + target.size() + " bytes");
        }
        Connection.RemoteBuffer remote = new Connection.RemoteBuffer(target.remoteKey(), target.address(),
                target.offset(), target.size());
        SendRequest request = new SendRequest(this, data, memory, remote, head.ad.immediate(index, data.byteSize()));
        if (backlog.isEmpty()) {
            long workId = nextWorkId;
            if (!request.postNext(connection, workId)) {
                return null;
            }
            nextWorkId++;
            inFlight.put(workId, request);
        }
        if (request.posted < request.chunks) {
            backlog.addLast(request);
        }
        head.used[index] = true;
        if (++head.usedCount == head.used.length) {
            advertised.pollFirst();
            // That was the last buffer the settled look found: until a completion arrives, sends must retry.
            attention.starved(advertised.isEmpty());
        }
        return request;
    }

    /** Posts the remaining writes of large sends, in order, as far as the connection takes them. */
    private void postBacklog() {
        SendRequest r;
        while ((r = backlog.peekFirst()) != null) {
            if (r.error != null) {
                backlog.pollFirst();
                continue;
            }
            long workId = nextWorkId;
            if (!r.postNext(connection, workId)) {
                return;
            }
            nextWorkId++;
            inFlight.put(workId, r);
            if (r.posted == r.chunks) {
                backlog.pollFirst();
            }
        }
    }

    boolean test(SendRequest request, long[] sizes) throws CclException {
        // Never waits: while the progress thread drains this end, the request is not reported done yet.
        if (!lock.tryLock()) {
            return false;
        }
        try {
            return testLocked(request, sizes);
        } finally {
            lock.unlock();
        }
    }

    private boolean testLocked(SendRequest request, long[] sizes) throws CclException {
        if (request.released || request.reportedElsewhere()) {
            throw CclException.internal("send request tested again after it was reported done");
        }
        if (!closed) {
            progress();
        }
        if (request.error != null) {
            request.released = true;
            throw new CclException(CclResult.SYSTEM_ERROR, "send failed: " + request.error);
        }
        if (!request.done()) {
            return false;
        }
        if (sizes != null && sizes.length > 0) {
            sizes[0] = request.data.byteSize();
        }
        request.released = true;
        return true;
    }

    /** Closes the connection; sends still in flight fail. */
    public void close() {
        lock.lock();
        try {
            closeLocked();
        } finally {
            lock.unlock();
        }
    }

    private void closeLocked() {
        if (closed) {
            return;
        }
        closed = true;
        failAll("the send comm was closed");
        connection.onCompletion(null);
        connection.close();
        attention.release();
        receiveMemory.close();
        arena.close();
    }

    private void usable() throws CclException {
        if (closed) {
            throw CclException.internal("send comm used after closeSend");
        }
        if (failure != null) {
            throw new CclException(CclResult.SYSTEM_ERROR, "connection failed: " + failure);
        }
    }

    /**
     * A completion became pollable: counted, and drained at once when the connection allows it and no call of
     * this end runs (the thread that produced it may be inside one of them, e.g. a post that flushed).
     */
    private void arrived() {
        ArrivalDrain.arrived(attention, lock, drainOnArrival, isClosed, drain);
    }

    private void progress() {
        long arrivals = attention.arrivals();
        if (failure == null) {
            while (connection.poll(this, POLL_BATCH) > 0) {
                // drain
            }
            Integer slot;
            while (failure == null && (slot = toRepost.peekFirst()) != null
                    && connection.postReceive(slot, receiveMemory, receiveBuffers[slot])) {
                toRepost.pollFirst();
            }
            postBacklog();
            if (failure == null && !connection.isOpen()) {
                fail("the connection closed");
            }
        }
        attention.starved(failure == null && advertised.isEmpty());
        // Writes waiting for queue room and buffers to post again move only when this end runs, whatever arrives.
        attention.settle(arrivals, failure == null
                && (!backlog.isEmpty() || !toRepost.isEmpty() || connection.wantsPoll()));
    }

    @Override
    public void onPostComplete(long workId, String error) {
        SendRequest r = inFlight.remove(workId);
        if (r == null) {
            fail("completion for send " + workId + " that is not in flight");
            return;
        }
        if (error != null) {
            r.error = error;
        } else {
            r.confirmed++;
        }
        if (r.error != null || r.done()) {
            r.finish();
        }
    }

    @Override
    public void onReceive(long workId, MemorySegment message, String error) {
        if (error != null) {
            fail("advertisement receive failed: " + error);
            return;
        }
        Advertisement ad;
        try {
            ad = Advertisement.decode(message);
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
        expectedSequence++;
        advertised.addLast(new Pending(ad));
        int slot = (int) workId;
        if (slot < 0 || slot >= receiveBuffers.length) {
            fail("advertisement arrived in buffer " + workId + ", which was never posted");
            return;
        }
        toRepost.addLast(slot);
    }

    @Override
    public void onImmediate(int immediate, long length, String error) {
        fail(String.format("unexpected write with immediate 0x%08x on a send comm", immediate));
    }

    private void fail(String why) {
        if (failure == null) {
            failure = why;
        }
        failAll(why);
    }

    private void failAll(String why) {
        for (SendRequest r : inFlight.values()) {
            if (r.error == null && !r.done()) {
                r.error = why;
                r.finish();
            }
        }
        for (SendRequest r : backlog) {
            if (r.error == null) {
                r.error = why;
                r.finish();
            }
        }
        inFlight.clear();
        backlog.clear();
    }
}
