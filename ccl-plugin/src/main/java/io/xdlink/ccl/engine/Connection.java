package io.xdlink.ccl.engine;

import java.lang.foreign.MemorySegment;

/**
 * The verbs one connection end needs from a reliable connected queue pair. Posting never blocks: a post that
 * cannot be taken now returns false and nothing was posted. Completions come out of {@link #poll} in order.
 */
public interface Connection extends AutoCloseable {

    /** Largest single write this connection carries; at least {@link #MIN_WRITE_BYTES}. */
    long maxWriteBytes();

    /** The engine cuts sends into writes of this size, so every connection must carry at least that much. */
    long MIN_WRITE_BYTES = Immediate.CHUNK_BYTES;

    /** Writes {@code source} (inside {@code sourceMemory}) into the peer's registered memory at {@code target}. */
    boolean postWrite(long workId, MemorySegment source, RegisteredMemory sourceMemory, RemoteBuffer target);

    /**
     * Writes {@code source} (inside {@code sourceMemory}) into the peer's registered memory at {@code target}, then
     * raises {@code immediate} at the peer once these bytes and those of every earlier write on
     * this connection are in place.
     */
    boolean postWriteWithImmediate(long workId, MemorySegment source, RegisteredMemory sourceMemory,
                                   RemoteBuffer target, int immediate);

    /**
     * Registers memory on the device this end lives on, for local reads and writes and for the peer's writes: the
     * data a send reads or a receive gets, and this end's own message buffers. Closed by the caller.
     */
    RegisteredMemory register(MemorySegment region);

    /** Sends a small message (inside {@code memory}) into a buffer the peer posted with {@link #postReceive}. */
    boolean postSend(long workId, RegisteredMemory memory, MemorySegment message);

    /** Posts a buffer (inside {@code memory}) for one message from the peer's {@link #postSend}. */
    boolean postReceive(long workId, RegisteredMemory memory, MemorySegment buffer);

    /** Hands up to {@code max} completions to {@code handler}; returns how many. */
    int poll(CompletionHandler handler, int max);

    /** False once closed or failed. */
    boolean isOpen();

    /**
     * Asks for {@code listener} to run after each completion {@link #poll} will hand out has become available, on
     * whichever thread produced it, including the completions that flush outstanding work when the connection
     * fails or closes; null stops it. The listener must be quick and must not throw. One exception: a connection
     * of a receiving end may leave the successful completions of its {@link #postSend}s (the end's advertisements)
     * unannounced, since they only free a slot that the end's next irecv polls for anyway; a failed one must still
     * be announced, or be followed by an announced completion.
     *
     * @return false when this connection cannot tell, so its owner has to poll it to learn anything
     */
    default boolean onCompletion(Runnable listener) {
        return false;
    }

    /**
     * True when the owner may {@link #poll} from inside the {@link #onCompletion} listener, on the thread that
     * produced the completion, whenever that thread does not already hold the owner's lock: the connection is then
     * not in the middle of anything its owner's calls could disturb. The owner then finishes requests right where
     * they complete (a device's progress thread), so a host that tests them learns it without driving the end
     * itself.
     */
    default boolean pollFromListener() {
        return false;
    }

    /** True while the connection has work of its own that only {@link #poll} moves on (a post it must retry). */
    default boolean wantsPoll() {
        return false;
    }

    @Override
    void close();

    /** Where a write lands at the peer: a registered region's remote key, the address and the room there. */
    record RemoteBuffer(long remoteKey, long address, long offset, long size) {
    }

    /** Completions of one connection. A non-null {@code error} says the work failed and why. */
    interface CompletionHandler {

        /** A write or send posted here is done (the peer has the bytes), or failed. */
        void onPostComplete(long workId, String error);

        /** A message from the peer landed in the buffer posted under {@code workId}. */
        void onReceive(long workId, MemorySegment message, String error);

        /** A write-with-immediate from the peer placed {@code length} bytes. */
        void onImmediate(int immediate, long length, String error);
    }
}
