package io.xdlink.cluster;

import io.xdlink.ccl.CclException;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;

/**
 * One host's part in one collective: its streams of steps run in order over its pipes, as the GPU's kernel and
 * the proxy thread would between them. A step runs when its message has arrived, its FIFO slot is free and the
 * step it waits for has run; the reduction itself takes no virtual time (the device is not what we model).
 */
final class HostRun {
    private final int rank;
    private final List<List<Step>> streams;
    private final int[] next;
    private final MemorySegment input;
    private final MemorySegment output;
    private final DataType type;
    private final RedOp op;
    private final Map<Integer, SendPipe> sends;
    private final Map<Integer, RecvPipe> recvs;
    /** Parts each message goes in, taken by one grouped receive. */
    private final int group;
    private String error;
    private boolean done;
    private long doneAt = -1;

    HostRun(int rank, List<List<Step>> streams, MemorySegment input, MemorySegment output, DataType type, RedOp op,
            Map<Integer, SendPipe> sends, Map<Integer, RecvPipe> recvs, int group) {
        this.group = group;
        this.rank = rank;
        this.streams = streams;
        this.next = new int[streams.size()];
        this.input = input;
        this.output = output;
        this.type = type;
        this.op = op;
        this.sends = sends;
        this.recvs = recvs;
        for (List<Step> s : streams) {
            for (Step st : s) {
                if (st.recvFrom() >= 0) {
                    pipe(recvs, st.recvFrom(), "receive from").expect(st.bytes(), group);
                }
                if (st.sendTo() >= 0) {
                    pipe(sends, st.sendTo(), "send to");
                }
            }
        }
    }

    private <T> T pipe(Map<Integer, T> pipes, int peer, String what) {
        T p = pipes.get(peer);
        if (p == null) {
            throw new IllegalStateException("host " + rank + " has no connection to " + what + " host " + peer);
        }
        return p;
    }

    int rank() {
        return rank;
    }

    boolean done() {
        return done;
    }

    /** The plugin's error this host saw, or null. */
    String error() {
        return error;
    }

    long doneAt() {
        return doneAt;
    }

    boolean finished() {
        return done || error != null;
    }

    /** Moves what can move; true when anything did. */
    boolean progress(long now) {
        if (finished()) {
            return false;
        }
        boolean moved = false;
        try {
            for (RecvPipe p : recvs.values()) {
                moved |= p.progress();
            }
            for (int s = 0; s < streams.size(); s++) {
                while (next[s] < streams.get(s).size() && step(s)) {
                    moved = true;
                }
            }
            for (SendPipe p : sends.values()) {
                moved |= p.progress();
            }
            if (allStepsRun() && sends.values().stream().allMatch(SendPipe::idle)
                    && recvs.values().stream().allMatch(RecvPipe::idle)) {
                done = true;
                doneAt = now;
            }
        } catch (CclException | RuntimeException e) {
            error = e.getMessage() == null ? e.toString() : e.getMessage();
        }
        return moved;
    }

    private boolean allStepsRun() {
        for (int s = 0; s < streams.size(); s++) {
            if (next[s] < streams.get(s).size()) {
                return false;
            }
        }
        return true;
    }

    /** Marks the host given up on: a peer failed and this one can no longer finish. */
    void abandon(String why) {
        if (!finished()) {
            error = why;
        }
    }

    private boolean step(int s) {
        Step st = streams.get(s).get(next[s]);
        if (st.afterStream() >= 0 && next[st.afterStream()] <= st.afterStep()) {
            return false;
        }
        RecvPipe from = null;
        MemorySegment in = null;
        if (st.recvFrom() >= 0) {
            from = recvs.get(st.recvFrom());
            in = from.ready();
            if (in == null) {
                return false;
            }
            if (in.byteSize() != st.bytes()) {
                throw new IllegalStateException("host " + rank + " received " + in.byteSize() + " bytes from host "
                        + st.recvFrom() + " where the step expects " + st.bytes());
            }
        }
        SendPipe to = null;
        if (st.sendTo() >= 0) {
            to = sends.get(st.sendTo());
            if (!to.hasRoom()) {
                return false;
            }
        }
        MemorySegment local = st.local() == null ? null : buffer(st.local()).asSlice(st.localOff(), st.bytes());
        MemorySegment dst = st.dst() == null ? null : buffer(st.dst()).asSlice(st.dstOff(), st.bytes());
        MemorySegment slot = to == null ? null : to.fill(st.bytes(), group);
        MemorySegment result;
        if (st.reduce()) {
            result = dst != null ? dst : slot;
            op.reduce(type, in, local, result, st.bytes() / type.bytes());
        } else {
            result = in != null ? in : local;
            if (dst != null) {
                copy(result, dst);
                result = dst;
            }
        }
        if (slot != null && result != slot) {
            copy(result, slot);
        }
        if (from != null) {
            from.consume();
        }
        next[s]++;
        return true;
    }

    private static void copy(MemorySegment from, MemorySegment to) {
        if (from.address() != to.address()) {
            MemorySegment.copy(from, 0, to, 0, from.byteSize());
        }
    }

    private MemorySegment buffer(Step.Buffer b) {
        return b == Step.Buffer.INPUT ? input : output;
    }
}
