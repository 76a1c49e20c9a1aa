package io.xdlink.cluster;

import io.xdlink.ccl.CclException;
import io.xdlink.ccl.CclNet;
import io.xdlink.ccl.MemoryHandle;
import io.xdlink.ccl.RecvComm;
import io.xdlink.ccl.Request;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * The receive half of NCCL's net proxy for one connection: {@code depth} registered slots, an {@code irecv} posted
 * into each free one (tag: the sending host's rank) as far ahead as the collective expects messages, tested in
 * order; the host's steps take the arrived messages in order and free their slots. A message sent in parts is taken
 * by one grouped receive of that many buffers, consecutive in the slot, so the message lands whole.
 */
final class RecvPipe {
    private final CclNet net;
    private final RecvComm comm;
    private final MemoryHandle memory;
    private final MemorySegment slots;
    private final long slotBytes;
    private final int depth;
    private final int tag;
    private final Request[] requests;
    private final long[] got;
    private final int[] groups;
    private final long[] size = new long[CclNet.MAX_RECVS];
    /** Messages still to post: {bytes, parts}. */
    private final ArrayDeque<long[]> expected = new ArrayDeque<>();
    private long posted;
    private long arrived;
    private long consumed;

    RecvPipe(CclNet net, RecvComm comm, MemoryHandle memory, MemorySegment slots, long slotBytes, int depth, int tag) {
        this.net = net;
        this.comm = comm;
        this.memory = memory;
        this.slots = slots;
        this.slotBytes = slotBytes;
        this.depth = depth;
        this.tag = tag;
        this.requests = new Request[depth];
        this.got = new long[depth];
        this.groups = new int[depth];
    }

    RecvComm comm() {
        return comm;
    }

    /** One more message of {@code bytes}, sent in {@code group} parts, is coming in this collective. */
    void expect(long bytes, int group) {
        expected.add(new long[] {bytes, group});
    }

    /** Posts receives into free slots and tests those in flight, oldest first; true when anything moved. */
    boolean progress() throws CclException {
        boolean moved = false;
        while (!expected.isEmpty() && posted - consumed < depth) {
            int i = (int) (posted % depth);
            long[] next = expected.peek();
            int group = (int) next[1];
            MemorySegment slot = slots.asSlice(i * slotBytes, slotBytes);
            MemorySegment[] buffers = new MemorySegment[group];
            int[] tags = new int[group];
            MemoryHandle[] handles = new MemoryHandle[group];
            for (int g = 0; g < group; g++) {
                long from = SendPipe.partOffset(next[0], group, g);
                long to = g == group - 1 ? slotBytes : SendPipe.partOffset(next[0], group, g + 1);
                buffers[g] = slot.asSlice(from, to - from);
                tags[g] = SendPipe.tag(tag, g);
                handles[g] = memory;
            }
            Request r = net.irecv(comm, buffers, tags, handles);
            if (r == null) {
                break;
            }
            requests[i] = r;
            groups[i] = group;
            expected.poll();
            posted++;
            moved = true;
        }
        while (arrived < posted) {
            int i = (int) (arrived % depth);
            if (!net.test(requests[i], size)) {
                break;
            }
            requests[i] = null;
            long sum = 0;
            for (int g = 0; g < groups[i]; g++) {
                sum += size[g];
            }
            got[i] = sum;
            arrived++;
            moved = true;
        }
        return moved;
    }

    /** The oldest arrived message not yet taken, or null. */
    MemorySegment ready() {
        if (consumed == arrived) {
            return null;
        }
        int i = (int) (consumed % depth);
        return slots.asSlice(i * slotBytes, got[i]);
    }

    /** The step took the oldest message: its slot is free again. */
    void consume() {
        consumed++;
    }

    /** Nothing is expected, posted or waiting to be taken. */
    boolean idle() {
        return expected.isEmpty() && consumed == posted;
    }
}
