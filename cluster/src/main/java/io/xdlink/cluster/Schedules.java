package io.xdlink.cluster;

import io.xdlink.cluster.Step.Buffer;
import io.xdlink.sim.SimTopology.Shape;

import java.util.ArrayList;
import java.util.List;

/**
 * What each host does in a collective: its streams of {@link Step}s, as NCCL lays its algorithms out.
 *
 * <p>On a ring (one cable or two between neighbours): NCCL's ring algorithms. all_reduce is a reduce-scatter then
 * an all-gather around the ring, 2(n-1) messages per loop of n chunks; all_gather, reduce_scatter and broadcast are
 * their rings; sendrecv sends to the next host while receiving from the one before.
 *
 * <p>On a chain (a line, no cable from the last host back to the first) NCCL's tree: all_reduce reduces up the
 * line and broadcasts back down, both pipelined at once (the tree of a line is the line); broadcast pipelines out
 * from the root both ways. all_gather and reduce_scatter, which NCCL runs only on rings, use the line's two
 * directions at once: each host's data flows both ways, which loads the busiest cable with the same n-1 chunks a
 * ring's cables carry. sendrecv needs the ring's closing cable and is refused.
 *
 * <p>Byte offsets are within the host's input and output buffers; chunks are whole elements.
 */
final class Schedules {
    private Schedules() {
    }

    /**
     * @param size  the aligned size (nccl-tests' size column)
     * @param chunk bytes per message at most, a multiple of the element size
     */
    static List<List<Step>> of(Collective c, Shape shape, int n, int r, int root, long size, int elem, long chunk) {
        boolean ring = shape != Shape.CHAIN;
        if (size == 0) {
            return List.of();
        }
        return switch (c) {
            case ALL_REDUCE -> ring ? ringAllReduce(n, r, size, elem, chunk) : chainAllReduce(n, r, size, chunk);
            case ALL_GATHER -> ring ? ringAllGather(n, r, size / n, chunk) : chainAllGather(n, r, size / n, chunk);
            case REDUCE_SCATTER -> ring ? ringReduceScatter(n, r, size / n, chunk)
                    : chainReduceScatter(n, r, size / n, chunk);
            case BROADCAST -> ring ? ringBroadcast(n, r, root, size, chunk) : chainBroadcast(n, r, root, size, chunk);
            case SENDRECV -> {
                if (!ring) {
                    throw new IllegalArgumentException("sendrecv_perf sends from each host to the next and from the "
                            + "last back to the first: a chain has no cable for that; use a ring");
                }
                yield sendRecv(n, r, size, chunk);
            }
        };
    }

    private static int mod(int a, int n) {
        return ((a % n) + n) % n;
    }

    /** NCCL's ring all_reduce, loop by loop: n chunks per loop, each of at most {@code chunk} bytes. */
    static List<List<Step>> ringAllReduce(int n, int r, long size, int elem, long chunk) {
        int next = mod(r + 1, n);
        int prev = mod(r - 1, n);
        List<Step> s = new ArrayList<>();
        long elems = size / elem;
        long chunkElems = chunk / elem;
        for (long base = 0; base < elems; base += n * chunkElems) {
            long loop = Math.min(n * chunkElems, elems - base);
            long real = (loop + n - 1) / n;
            long[] off = new long[n];
            long[] len = new long[n];
            for (int k = 0; k < n; k++) {
                off[k] = (base + k * real) * elem;
                len[k] = Math.max(0, Math.min(real, loop - k * real)) * elem;
            }
            // Reduce-scatter: send chunk r-1; then take chunk r-1-s, add, pass on; chunk r ends complete here.
            int c = mod(r - 1, n);
            if (len[c] > 0) {
                s.add(Step.send(next, Buffer.INPUT, off[c], null, 0, len[c]));
            }
            for (int st = 1; st <= n - 2; st++) {
                c = mod(r - 1 - st, n);
                if (len[c] > 0) {
                    s.add(Step.recv(prev, next, true, Buffer.INPUT, off[c], null, 0, len[c]));
                }
            }
            c = r;
            if (len[c] > 0) {
                s.add(Step.recv(prev, next, true, Buffer.INPUT, off[c], Buffer.OUTPUT, off[c], len[c]));
            }
            // All-gather: take the complete chunk r-t, keep it, pass it on (the last one stops here).
            for (int t = 1; t <= n - 1; t++) {
                c = mod(r - t, n);
                if (len[c] > 0) {
                    s.add(Step.recv(prev, t < n - 1 ? next : -1, false, null, 0, Buffer.OUTPUT, off[c], len[c]));
                }
            }
        }
        return List.of(s);
    }

    /** Each block of {@code block} bytes, in pieces of at most {@code chunk}: {offset, length} pairs. */
    private static List<long[]> pieces(long block, long chunk) {
        List<long[]> p = new ArrayList<>();
        for (long off = 0; off < block; off += chunk) {
            p.add(new long[] {off, Math.min(chunk, block - off)});
        }
        return p;
    }

    static List<List<Step>> ringAllGather(int n, int r, long block, long chunk) {
        int next = mod(r + 1, n);
        int prev = mod(r - 1, n);
        List<Step> s = new ArrayList<>();
        for (long[] p : pieces(block, chunk)) {
            s.add(Step.send(next, Buffer.INPUT, p[0], Buffer.OUTPUT, r * block + p[0], p[1]));
            for (int t = 1; t <= n - 1; t++) {
                int b = mod(r - t, n);
                s.add(Step.recv(prev, t < n - 1 ? next : -1, false, null, 0, Buffer.OUTPUT, b * block + p[0], p[1]));
            }
        }
        return List.of(s);
    }

    static List<List<Step>> ringReduceScatter(int n, int r, long block, long chunk) {
        int next = mod(r + 1, n);
        int prev = mod(r - 1, n);
        List<Step> s = new ArrayList<>();
        for (long[] p : pieces(block, chunk)) {
            s.add(Step.send(next, Buffer.INPUT, mod(r - 1, n) * block + p[0], null, 0, p[1]));
            for (int st = 1; st <= n - 2; st++) {
                int b = mod(r - 1 - st, n);
                s.add(Step.recv(prev, next, true, Buffer.INPUT, b * block + p[0], null, 0, p[1]));
            }
            s.add(Step.recv(prev, -1, true, Buffer.INPUT, r * block + p[0], Buffer.OUTPUT, p[0], p[1]));
        }
        return List.of(s);
    }

    static List<List<Step>> ringBroadcast(int n, int r, int root, long size, long chunk) {
        int next = mod(r + 1, n);
        int prev = mod(r - 1, n);
        int position = mod(r - root, n);
        List<Step> s = new ArrayList<>();
        for (long[] p : pieces(size, chunk)) {
            if (position == 0) {
                s.add(Step.send(next, Buffer.INPUT, p[0], Buffer.OUTPUT, p[0], p[1]));
            } else {
                s.add(Step.recv(prev, position < n - 1 ? next : -1, false, null, 0, Buffer.OUTPUT, p[0], p[1]));
            }
        }
        return List.of(s);
    }

    /** Stream 0 sends to the next host, stream 1 receives from the one before. */
    static List<List<Step>> sendRecv(int n, int r, long size, long chunk) {
        int next = mod(r + 1, n);
        int prev = mod(r - 1, n);
        List<Step> send = new ArrayList<>();
        List<Step> recv = new ArrayList<>();
        for (long[] p : pieces(size, chunk)) {
            send.add(Step.send(next, Buffer.INPUT, p[0], null, 0, p[1]));
            // In place the receive overwrites what is being sent: it waits until that piece went into the FIFO.
            recv.add(Step.recv(prev, -1, false, null, 0, Buffer.OUTPUT, p[0], p[1]).after(0, send.size() - 1));
        }
        return List.of(send, recv);
    }

    /** The tree of a line: stream 0 reduces towards the last host, stream 1 brings the result back. */
    static List<List<Step>> chainAllReduce(int n, int r, long size, long chunk) {
        List<Step> up = new ArrayList<>();
        List<Step> down = new ArrayList<>();
        for (long[] p : pieces(size, chunk)) {
            if (r == 0) {
                up.add(Step.send(1, Buffer.INPUT, p[0], null, 0, p[1]));
                down.add(Step.recv(1, -1, false, null, 0, Buffer.OUTPUT, p[0], p[1]));
            } else if (r < n - 1) {
                up.add(Step.recv(r - 1, r + 1, true, Buffer.INPUT, p[0], null, 0, p[1]));
                down.add(Step.recv(r + 1, r - 1, false, null, 0, Buffer.OUTPUT, p[0], p[1]));
            } else {
                up.add(Step.recv(r - 1, -1, true, Buffer.INPUT, p[0], Buffer.OUTPUT, p[0], p[1]));
                down.add(Step.send(r - 1, Buffer.OUTPUT, p[0], null, 0, p[1]).after(0, up.size() - 1));
            }
        }
        return List.of(up, down);
    }

    /** Stream 0 carries data to higher hosts, stream 1 to lower ones; the root's data goes both ways. */
    static List<List<Step>> chainBroadcast(int n, int r, int root, long size, long chunk) {
        List<Step> right = new ArrayList<>();
        List<Step> left = new ArrayList<>();
        for (long[] p : pieces(size, chunk)) {
            if (r == root) {
                boolean copied = false;
                if (r < n - 1) {
                    right.add(Step.send(r + 1, Buffer.INPUT, p[0], Buffer.OUTPUT, p[0], p[1]));
                    copied = true;
                }
                if (r > 0) {
                    left.add(Step.send(r - 1, Buffer.INPUT, p[0], copied ? null : Buffer.OUTPUT, p[0], p[1]));
                }
            } else if (r > root) {
                right.add(Step.recv(r - 1, r < n - 1 ? r + 1 : -1, false, null, 0, Buffer.OUTPUT, p[0], p[1]));
            } else {
                left.add(Step.recv(r + 1, r > 0 ? r - 1 : -1, false, null, 0, Buffer.OUTPUT, p[0], p[1]));
            }
        }
        return List.of(right, left);
    }

    /** Every host's block flows both ways along the line; stream 0 rightwards, stream 1 leftwards. */
    static List<List<Step>> chainAllGather(int n, int r, long block, long chunk) {
        List<Step> right = new ArrayList<>();
        List<Step> left = new ArrayList<>();
        for (long[] p : pieces(block, chunk)) {
            right.add(new Step(-1, r < n - 1 ? r + 1 : -1, false, Buffer.INPUT, p[0], Buffer.OUTPUT,
                    r * block + p[0], p[1], -1, -1));
            for (int b = r - 1; b >= 0; b--) {
                right.add(Step.recv(r - 1, r < n - 1 ? r + 1 : -1, false, null, 0, Buffer.OUTPUT,
                        b * block + p[0], p[1]));
            }
            if (r > 0) {
                left.add(Step.send(r - 1, Buffer.INPUT, p[0], null, 0, p[1]));
            }
            for (int b = r + 1; b < n; b++) {
                left.add(Step.recv(r + 1, r > 0 ? r - 1 : -1, false, null, 0, Buffer.OUTPUT,
                        b * block + p[0], p[1]));
            }
        }
        return List.of(right, left);
    }

    /**
     * Partial sums flow towards each block's owner from both sides: stream 0 carries the sums of the hosts below
     * (for blocks above), stream 1 those of the hosts above; the owner adds the second to what the first left.
     */
    static List<List<Step>> chainReduceScatter(int n, int r, long block, long chunk) {
        List<Step> right = new ArrayList<>();
        List<Step> left = new ArrayList<>();
        for (long[] p : pieces(block, chunk)) {
            int ownStep = -1;
            if (r == 0) {
                for (int b = 1; b < n; b++) {
                    right.add(Step.send(1, Buffer.INPUT, b * block + p[0], null, 0, p[1]));
                }
            } else {
                for (int b = r; b < n; b++) {
                    if (b == r) {
                        right.add(Step.recv(r - 1, -1, true, Buffer.INPUT, b * block + p[0], Buffer.OUTPUT, p[0],
                                p[1]));
                        ownStep = right.size() - 1;
                    } else {
                        right.add(Step.recv(r - 1, r + 1, true, Buffer.INPUT, b * block + p[0], null, 0, p[1]));
                    }
                }
            }
            if (r == n - 1) {
                for (int b = n - 2; b >= 0; b--) {
                    left.add(Step.send(n - 2, Buffer.INPUT, b * block + p[0], null, 0, p[1]));
                }
            } else {
                for (int b = r; b >= 0; b--) {
                    if (b == r && r == 0) {
                        left.add(Step.recv(1, -1, true, Buffer.INPUT, p[0], Buffer.OUTPUT, p[0], p[1]));
                    } else if (b == r) {
                        left.add(Step.recv(r + 1, -1, true, Buffer.OUTPUT, p[0], Buffer.OUTPUT, p[0], p[1])
                                .after(0, ownStep));
                    } else {
                        left.add(Step.recv(r + 1, r - 1, true, Buffer.INPUT, b * block + p[0], null, 0, p[1]));
                    }
                }
            }
        }
        return List.of(right, left);
    }
}
