package io.xdlink.cluster;

import io.xdlink.ccl.CclException;
import io.xdlink.ccl.CclNet;
import io.xdlink.ccl.MemoryHandle;
import io.xdlink.ccl.Request;
import io.xdlink.ccl.SendComm;

import java.lang.foreign.MemorySegment;

/**
 * The send half of NCCL's net proxy for one connection: a FIFO of {@code depth} registered slots (NCCL_STEPS), which
 * the host fills step by step, each filled slot handed to {@code isend} (retried while the plugin says the peer has
 * not posted its receive) and released when {@code test} reports it done. A slot filled for a group of {@code g}
 * goes as {@code g} sends of consecutive parts, tagged {@link #tag(int, int)}, which the peer takes in one grouped
 * receive, as NCCL's channels sharing one connection do.
 */
final class SendPipe {
    private final CclNet net;
    private final SendComm comm;
    private final MemoryHandle memory;
    private final MemorySegment slots;
    private final long slotBytes;
    private final int depth;
    private final int rank;
    private final Request[][] requests;
    private final long[] sizes;
    private final int[] groups;
    /** Parts of the slot at {@link #posted} already handed to isend, and of the one at {@link #completed} done. */
    private int partsPosted;
    private int partsDone;
    private long filled;
    private long posted;
    private long completed;

    SendPipe(CclNet net, SendComm comm, MemoryHandle memory, MemorySegment slots, long slotBytes, int depth,
             int rank) {
        this.net = net;
        this.comm = comm;
        this.memory = memory;
        this.slots = slots;
        this.slotBytes = slotBytes;
        this.depth = depth;
        this.rank = rank;
        this.requests = new Request[depth][CclNet.MAX_RECVS];
        this.sizes = new long[depth];
        this.groups = new int[depth];
    }

    /** The tag of part {@code part} of a message from host {@code rank}: the rank, as NCCL tags, and the part. */
    static int tag(int rank, int part) {
        return part << 16 | rank;
    }

    /** Where part {@code part} of a {@code bytes}-byte message sent in {@code group} parts starts. */
    static long partOffset(long bytes, int group, int part) {
        long each = (bytes + group - 1) / group;
        return Math.min(bytes, part * each);
    }

    SendComm comm() {
        return comm;
    }

    /** A slot is free for the next step's result. */
    boolean hasRoom() {
        return filled - completed < depth;
    }

    /** The next slot, {@code bytes} long, for the step to write its result into; it goes in {@code group} parts. */
    MemorySegment fill(long bytes, int group) {
        if (!hasRoom() || bytes > slotBytes || group < 1 || group > CclNet.MAX_RECVS) {
            throw new IllegalStateException("no slot for " + bytes + " bytes in " + group + " parts");
        }
        int i = (int) (filled % depth);
        sizes[i] = bytes;
        groups[i] = group;
        filled++;
        return slots.asSlice(i * slotBytes, bytes);
    }

    /** Posts filled slots and tests those in flight, oldest first; true when anything moved. */
    boolean progress() throws CclException {
        boolean moved = false;
        while (posted < filled) {
            int i = (int) (posted % depth);
            MemorySegment slot = slots.asSlice(i * slotBytes, sizes[i]);
            while (partsPosted < groups[i]) {
                long from = partOffset(sizes[i], groups[i], partsPosted);
                long to = partOffset(sizes[i], groups[i], partsPosted + 1);
                Request r = net.isend(comm, slot.asSlice(from, to - from), tag(rank, partsPosted), memory);
                if (r == null) {
                    return moved;
                }
                requests[i][partsPosted++] = r;
                moved = true;
            }
            partsPosted = 0;
            posted++;
        }
        while (completed < posted) {
            int i = (int) (completed % depth);
            while (partsDone < groups[i] && net.test(requests[i][partsDone], null)) {
                requests[i][partsDone++] = null;
                moved = true;
            }
            if (partsDone < groups[i]) {
                break;
            }
            partsDone = 0;
            completed++;
        }
        return moved;
    }

    /** Everything filled has been sent and reported done. */
    boolean idle() {
        return completed == filled;
    }
}
