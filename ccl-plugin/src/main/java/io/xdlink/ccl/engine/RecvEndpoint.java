package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;
import io.xdlink.ccl.CclResult;
import io.xdlink.ccl.RecvComm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The receiving end of a connection. A grouped receive takes one of {@link Advertisement#SLOTS} slots, is
 * advertised to the sender, and completes when a write-with-immediate has landed in each of its buffers. A slot is
 * reused only after its request was released by {@link #test} and its advertisement's send completed, so a late
 * write can never land in a newer receive (the immediate's sequence bits are checked as well).
 *
 * <p>Every public method takes this end's lock; progress happens inside the calls, like a host's proxy thread
 * polling its completion queue, and, on a connection that allows it ({@link Connection#pollFromListener}), also
 * where a completion is produced, so a receive is finished before its host tests it. A request a native mirror
 * reported done by itself ({@link EngineRequest#reportableAt}) counts as released.
 */
public final class RecvEndpoint implements RecvComm, Connection.CompletionHandler {
    private static final int POLL_BATCH = 64;

    private final int device;
    private final Connection connection;
    /** This end's lock; a producing thread only tries it, so it never waits on a host's call. */
    private final ReentrantLock lock = new ReentrantLock();
    private final boolean drainOnArrival;
    final Attention attention;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment[] advertBuffers = new MemorySegment[Advertisement.SLOTS];
    private final RegisteredMemory advertMemory;
    private final RecvRequest[] slots = new RecvRequest[Advertisement.SLOTS];
    private long nextSequence;
    private String failure;
    private boolean closed;
    private final BooleanSupplier isClosed = () -> closed;
    private final Runnable drain = this::progress;

    public RecvEndpoint(int device, Connection connection) {
        this.device = device;
        this.connection = connection;
        this.drainOnArrival = connection.pollFromListener();
        MemorySegment block = arena.allocate((long) Advertisement.MAX_BYTES * advertBuffers.length, 64);
        for (int i = 0; i < advertBuffers.length; i++) {
            advertBuffers[i] = block.asSlice((long) i * Advertisement.MAX_BYTES, Advertisement.MAX_BYTES);
        }
        this.advertMemory = connection.register(block);
        // Held until the end is whole: a completion produced meanwhile (a flush) must not drain a half-built end.
        lock.lock();
        try {
            this.attention = new Attention(connection.onCompletion(this::arrived));
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

    /** Posts a grouped receive; null when every slot is busy or the connection cannot take the advertisement now. */
    public RecvRequest irecv(MemorySegment[] buffers, int[] tags, RegisteredMemory[] memory) throws CclException {
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

    private RecvRequest irecvLocked(MemorySegment[] buffers, int[] tags, RegisteredMemory[] memory)
            throws CclException {
        usable();
        if (buffers.length < 1 || buffers.length > Advertisement.MAX_ENTRIES || tags.length != buffers.length
                || memory.length != buffers.length) {
            throw CclException.internal("irecv of " + buffers.length + " buffers with " + tags.length + " tags and "
                    + memory.length + " memory handles; 1.." + Advertisement.MAX_ENTRIES + " of each, equal counts");
        }
        progress();
        usable();
        int slot = freeSlot();
        if (slot < 0) {
            return null;
        }
        List<Advertisement.Entry> entries = new ArrayList<>(buffers.length);
        long[] capacity = new long[buffers.length];
        for (int i = 0; i < buffers.length; i++) {
            long offset = Bounds.offsetIn(buffers[i], memory[i], "receive buffer " + i);
            capacity[i] = buffers[i].byteSize();
            entries.add(new Advertisement.Entry(memory[i].remoteKey(), buffers[i].address(), offset,
                    buffers[i].byteSize(), tags[i]));
        }
        long sequence = nextSequence & 0xFFFF_FFFFL;
        Advertisement ad = new Advertisement(sequence, slot, entries);
        int len = ad.encode(advertBuffers[slot]);
        if (!connection.postSend(slot, advertMemory, advertBuffers[slot].asSlice(0, len))) {
            return null;
        }
        nextSequence++;
        RecvRequest request = new RecvRequest(this, sequence, slot, capacity);
        request.advertised = true;
        slots[slot] = request;
        return request;
    }

    boolean test(RecvRequest request, long[] sizes) throws CclException {
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

    private boolean testLocked(RecvRequest request, long[] sizes) throws CclException {
        if (request.released || request.reportedElsewhere()) {
            throw CclException.internal("receive request tested again after it was reported done");
        }
        if (!closed) {
            progress();
        }
        if (request.error != null) {
            release(request);
            throw new CclException(CclResult.SYSTEM_ERROR, "receive failed: " + request.error);
        }
        if (!request.done()) {
            return false;
        }
        if (sizes != null) {
            System.arraycopy(request.received, 0, sizes, 0, Math.min(sizes.length, request.received.length));
        }
        release(request);
        return true;
    }

    /** Closes the connection; receives still in flight fail. */
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
        boolean quiet = failure == null && connection.isOpen() && nothingOutstanding();
        failAll("the receive comm was closed");
        connection.onCompletion(null);
        attention.release();
        if (quiet) {
            // Everything was received; the sender may still wait for the acknowledgement of the last write.
            Linger.add(connection, advertMemory, arena);
        } else {
            connection.close();
            advertMemory.close();
            arena.close();
        }
    }

    private boolean nothingOutstanding() {
        for (RecvRequest r : slots) {
            if (r != null && !r.released && !r.done()) {
                return false;
            }
        }
        return true;
    }

    private void release(RecvRequest request) {
        request.released = true;
        if (slots[request.slot] == request && !request.advertised) {
            slots[request.slot] = null;
        }
    }

    private int freeSlot() {
        for (int i = 0; i < slots.length; i++) {
            RecvRequest r = slots[i];
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

    private void usable() throws CclException {
        if (closed) {
            throw CclException.internal("receive comm used after closeRecv");
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
                // keep draining until the connection has nothing more for us
            }
            if (failure == null && !connection.isOpen()) {
                fail("the connection closed");
            }
        }
        attention.settle(arrivals, failure == null && connection.wantsPoll());
    }

    @Override
    public void onPostComplete(long workId, String error) {
        if (error != null) {
            fail("advertisement send failed: " + error);
            return;
        }
        int slot = (int) workId;
        if (slot < 0 || slot >= slots.length || slots[slot] == null) {
            fail("completion for advertisement slot " + workId + " that holds no receive");
            return;
        }
        RecvRequest r = slots[slot];
        r.advertised = false;
        if (r.released || r.reportedElsewhere()) {
            slots[slot] = null;
        }
    }

    @Override
    public void onReceive(long workId, MemorySegment message, String error) {
        fail("unexpected message on a receive comm" + (error == null ? "" : ": " + error));
    }

    @Override
    public void onImmediate(int immediate, long length, String error) {
        int slot = Immediate.slot(immediate);
        int index = Immediate.index(immediate);
        RecvRequest r = slots[slot];
        if (r == null || r.released || Immediate.sequenceBits(immediate) != (r.sequence & Immediate.SEQUENCE_MASK)
                || index >= r.capacity.length || r.arrived[index]) {
            fail(String.format("write with immediate 0x%08x names no waiting buffer", immediate));
            return;
        }
        if (error != null) {
            r.error = error;
            r.finish();
            return;
        }
        long total = Immediate.totalLength(immediate, length);
        if (length < 0 || length > Immediate.CHUNK_BYTES || total > r.capacity[index]) {
            r.error = "peer wrote " + total + " bytes into a " + r.capacity[index] + "-byte buffer";
            r.finish();
            return;
        }
        r.arrived[index] = true;
        r.received[index] = total;
        r.arrivals++;
        if (r.done()) {
            r.finish();
        }
    }

    private void fail(String why) {
        if (failure == null) {
            failure = why;
        }
        failAll(why);
    }

    private void failAll(String why) {
        for (RecvRequest r : slots) {
            if (r != null && !r.released && !r.done() && r.error == null) {
                r.error = why;
                r.finish();
            }
        }
    }
}
