package io.xdlink.cluster;

import io.xdlink.ccl.CclException;
import io.xdlink.ccl.CclNet;
import io.xdlink.ccl.MemoryHandle;
import io.xdlink.ccl.Request;
import io.xdlink.ccl.SendComm;

import java.lang.foreign.MemorySegment;

/**
 * The send half of NCCL's net proxy for one connection: a FIFO of {@code depth} registered slots (NCCL_STEPS), which
 * the host fills step by step, each filled slot handed to {@code isend} with this host's rank as the tag (retried
 * while the plugin says the peer has not posted its receive), and released when {@code test} reports it done.
 */
final class SendPipe {
    private final CclNet net;
    private final SendComm comm;
    private final MemoryHandle memory;
    private final MemorySegment slots;
    private final long slotBytes;
    private final int depth;
    private final int tag;
    private final Request[] requests;
    private final long[] sizes;
    private long filled;
    private long posted;
    private long completed;
    /** Sends this pipe made, for the report. */
    long sends;

    SendPipe(CclNet net, SendComm comm, MemoryHandle memory, MemorySegment slots, long slotBytes, int depth, int tag) {
        this.net = net;
        this.comm = comm;
        this.memory = memory;
        this.slots = slots;
        this.slotBytes = slotBytes;
        this.depth = depth;
        this.tag = tag;
        this.requests = new Request[depth];
        this.sizes = new long[depth];
    }

    SendComm comm() {
        return comm;
    }

    /** A slot is free for the next step's result. */
    boolean hasRoom() {
        return filled - completed < depth;
    }

    /** The next slot, {@code bytes} long, for the step to write its result into; it is sent from there. */
    MemorySegment fill(long bytes) {
        if (!hasRoom() || bytes > slotBytes) {
            throw new IllegalStateException("no slot for " + bytes + " bytes");
        }
        int i = (int) (filled % depth);
        sizes[i] = bytes;
        filled++;
        return slots.asSlice(i * slotBytes, bytes);
    }

    /** Posts filled slots and tests those in flight, oldest first; true when anything moved. */
    boolean progress() throws CclException {
        boolean moved = false;
        while (posted < filled) {
            int i = (int) (posted % depth);
            Request r = net.isend(comm, slots.asSlice(i * slotBytes, sizes[i]), tag, memory);
            if (r == null) {
                break;
            }
            requests[i] = r;
            posted++;
            sends++;
            moved = true;
        }
        while (completed < posted) {
            int i = (int) (completed % depth);
            if (!net.test(requests[i], null)) {
                break;
            }
            requests[i] = null;
            completed++;
            moved = true;
        }
        return moved;
    }

    /** Everything filled has been sent and reported done. */
    boolean idle() {
        return completed == filled;
    }

    /** Forgets what is in flight (after the connection failed and is being replaced). */
    void reset() {
        filled = posted = completed = 0;
        java.util.Arrays.fill(requests, null);
    }
}
