package io.xdlink.ccl;

import java.lang.foreign.MemorySegment;

/**
 * The collective-library network, version-neutral and shaped like {@code ncclNet}: the native tables of every ABI
 * version call it, and Java collective code can call it directly.
 *
 * <p>The contract is the host's. No call blocks. {@link #connect} and {@link #accept} return {@code null} until the
 * connection is up, and the caller calls again. {@link #isend} and {@link #irecv} return {@code null} for "cannot
 * post now, retry". Every comm carries {@link #MAX_REQUESTS} requests at once (a send comm that many times
 * {@code maxRecvs}). A request reported done by {@link #test} is released and must not be tested again. Calls may
 * come from many threads at once.
 */
public interface CclNet extends AutoCloseable {

    /** {@code NCCL_NET_HANDLE_MAXSIZE}. */
    int HANDLE_MAX_BYTES = 128;
    /** {@code NCCL_NET_MAX_REQUESTS}: requests in flight per comm. */
    int MAX_REQUESTS = 32;
    /** Buffers one grouped receive may carry. */
    int MAX_RECVS = 8;

    /** Starts a communicator's use of the plugin; older ABIs call it once per process with commId 0. */
    CclContext init(long commId, int trafficClass) throws CclException;

    /** How many devices there are (peers, or loopback devices); constant for the life of the plugin. */
    int devices() throws CclException;

    /** What device {@code dev} tells the host. */
    DeviceProperties properties(int dev) throws CclException;

    /** Listens on a device; the handle goes to the peer out of band. */
    ListenComm listen(CclContext ctx, int dev) throws CclException;

    /** Connects to the listener whose handle the peer gave; {@code null} until the connection is up. */
    SendComm connect(CclContext ctx, int dev, int trafficClass, byte[] handle) throws CclException;

    /** The next connection to arrive at a listener; {@code null} while none has. */
    RecvComm accept(ListenComm listen) throws CclException;

    /** Registers host memory for sends from it or receives into it. */
    MemoryHandle registerMemory(Comm comm, MemorySegment region, int ptrType) throws CclException;

    void deregisterMemory(Comm comm, MemoryHandle handle) throws CclException;

    /**
     * Sends {@code data} (inside {@code handle}'s region) to the peer's posted receive whose tag matches.
     *
     * @return the request, or {@code null} when the peer has not posted a matching receive yet, or the comm is
     *         busy this instant (its progress thread is taking completions in): call again
     */
    Request isend(SendComm comm, MemorySegment data, int tag, MemoryHandle handle) throws CclException;

    /**
     * Posts one grouped receive of {@code buffers.length} buffers (at most {@link #MAX_RECVS}); a send with tag
     * {@code tags[i]} lands in {@code buffers[i]}. One request completes when every buffer has received its send.
     *
     * @return the request, or {@code null} when it cannot be posted now (call again)
     */
    Request irecv(RecvComm comm, MemorySegment[] buffers, int[] tags, MemoryHandle[] handles) throws CclException;

    /**
     * Makes received data visible to the device that reads it. Host memory needs nothing, so this returns
     * {@code null}, which the host treats as done.
     */
    Request iflush(RecvComm comm, MemorySegment[] buffers, MemoryHandle[] handles) throws CclException;

    /**
     * Reports whether a request is done. When it is, {@code sizes} (if not null) receives the bytes moved, one per
     * buffer of a grouped receive, one for a send, and the request is released.
     */
    boolean test(Request request, long[] sizes) throws CclException;

    void closeSend(SendComm comm) throws CclException;

    void closeRecv(RecvComm comm) throws CclException;

    void closeListen(ListenComm comm) throws CclException;

    /** Ends a context from {@link #init}; its comms must be closed already. */
    void finalize(CclContext ctx) throws CclException;

    /** Closes every device, failing whatever is still in flight. */
    @Override
    void close();
}
