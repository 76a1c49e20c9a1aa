package io.xdlink.rails.engine;

import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.WorkOpcode;
import io.xdlink.rails.verbs.TwoDevices;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import java.util.function.IntToLongFunction;

/**
 * A stream of messages from B to A, verified byte for byte, exactly once and in order: small ones as SENDs into
 * posted receives, the rest as WRITE_WITH_IMMs into a ring of A's memory, the immediate carrying the message's index.
 * The test plays both applications: B posts while its queue, A's ring and A's receives allow; A checks each
 * completion against B's source bytes and gives the space back.
 */
final class MessageStream implements AutoCloseable {
    static final int RECV_SLOT = 64 * 1024;
    static final int RECVS = 512;

    private final TwoDevices t;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment source;
    private final MemorySegment ring;
    private final MemorySegment recvSlots;
    private final MemoryRegion srcMr;
    private final MemoryRegion ringMr;
    private final MemoryRegion recvMr;
    private final IntToLongFunction sizes;
    private final int count;
    private final long seed;

    private final long[] ringAt;
    private final long[] srcAt;
    private final long[] ringEnd;
    private long ringHead;
    private long ringTail;
    private int nextToPost;
    private int nextToCheck;
    private int limit;
    private long bytes;
    private final Completion[] batch = new Completion[256];

    MessageStream(TwoDevices t, int count, IntToLongFunction sizes, long sourceBytes, long ringBytes, long seed) {
        this.t = t;
        this.count = count;
        this.sizes = sizes;
        this.seed = seed;
        source = arena.allocate(sourceBytes, 64);
        SplittableRandom r = new SplittableRandom(seed);
        for (long o = 0; o < sourceBytes; o += 8) {
            source.set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, o, r.nextLong());
        }
        ring = arena.allocate(ringBytes, 64);
        recvSlots = arena.allocate((long) RECVS * RECV_SLOT, 64);
        srcMr = t.pdB.register(source);
        ringMr = t.pdA.register(ring, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
        recvMr = t.pdA.register(recvSlots, Access.LOCAL_WRITE);
        ringAt = new long[count];
        srcAt = new long[count];
        ringEnd = new long[count];
        for (int i = 0; i < RECVS; i++) {
            if (!t.qpA().postRecv(i, recvMr, (long) i * RECV_SLOT, RECV_SLOT)) {
                throw new AssertionError("receive queue too small for " + RECVS);
            }
        }
    }

    /** Runs the whole stream; returns the bytes verified. */
    long run(long maxVirtualNanos) {
        return runUntil(count, maxVirtualNanos);
    }

    /** Runs until message {@code upTo} (exclusive) is verified, posting no further than that; returns bytes. */
    long runUntil(int upTo, long maxVirtualNanos) {
        int saved = limit;
        limit = upTo;
        long deadline = t.clock.nanoTime() + maxVirtualNanos;
        while (nextToCheck < upTo) {
            int progress = post();
            t.driver.stepUntilIdle();
            progress += drainSender();
            progress += check();
            if (progress == 0) {
                if (t.clock.nanoTime() > deadline || !t.driver.advance()) {
                    throw new AssertionError("stalled at message " + nextToCheck + " of " + count + " (posted "
                            + nextToPost + ", seed " + seed + ") at " + t.clock.nanoTime() + " ns; A " + t.a.stats()
                            + "; B " + t.b.stats() + "; A error " + t.a.lastError() + "; B error "
                            + t.b.lastError());
                }
            }
        }
        limit = Math.max(saved, upTo);
        return bytes;
    }

    private int post() {
        int posted = 0;
        while (nextToPost < limit) {
            int i = nextToPost;
            long size = sizes.applyAsLong(i);
            long src = Math.floorMod(mix(i), source.byteSize() - size + 1);
            boolean ok;
            if (size <= RECV_SLOT && (i % 3 == 0)) {
                ok = t.qpB().postSendWithImm(i, srcMr, src, size, i);
                ringAt[i] = -1;
            } else {
                long r = ring.byteSize();
                long start = ringHead;
                if (start % r + size > r) {
                    start = (start / r + 1) * r;
                }
                long end = start + size;
                if (end - ringTail > r) {
                    break;
                }
                ok = t.qpB().postWriteWithImm(i, srcMr, src, size, ringMr.address() + start % r, ringMr.rkey(), i);
                if (ok) {
                    ringAt[i] = start % r;
                    ringEnd[i] = end;
                    ringHead = end;
                }
            }
            if (!ok) {
                break;
            }
            srcAt[i] = src;
            nextToPost++;
            posted++;
        }
        return posted;
    }

    private static long mix(long i) {
        long z = i * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        return z ^ (z >>> 27);
    }

    private int drainSender() {
        int n;
        int total = 0;
        while ((n = t.cqB.poll(batch)) > 0) {
            for (int k = 0; k < n; k++) {
                if (!batch[k].isSuccess()) {
                    throw new AssertionError("send failed: " + batch[k] + " (seed " + seed + ")");
                }
            }
            total += n;
        }
        return total;
    }

    private int check() {
        int n;
        int total = 0;
        while ((n = t.cqA.poll(batch)) > 0) {
            for (int k = 0; k < n; k++) {
                verify(batch[k]);
            }
            total += n;
        }
        return total;
    }

    private void verify(Completion c) {
        int i = nextToCheck;
        if (!c.isSuccess() || !c.hasImm() || c.imm() != i) {
            throw new AssertionError("message " + i + ": got " + c + " (seed " + seed + ")");
        }
        long size = sizes.applyAsLong(i);
        if (c.byteLen() != size) {
            throw new AssertionError("message " + i + ": " + c.byteLen() + " bytes, sent " + size + " (seed " + seed
                    + ")");
        }
        MemorySegment expected = source.asSlice(srcAt[i], size);
        MemorySegment got;
        if (ringAt[i] < 0) {
            if (c.opcode() != WorkOpcode.RECV) {
                throw new AssertionError("message " + i + " should be a SEND: " + c);
            }
            got = recvSlots.asSlice(c.wrId() * RECV_SLOT, size);
        } else {
            if (c.opcode() != WorkOpcode.RECV_WRITE_WITH_IMM) {
                throw new AssertionError("message " + i + " should be a WRITE_WITH_IMM: " + c);
            }
            got = ring.asSlice(ringAt[i], size);
            ringTail = ringEnd[i];
        }
        long mismatch = got.mismatch(expected);
        if (mismatch != -1) {
            throw new AssertionError("message " + i + " differs at byte " + mismatch + " of " + size + " (seed "
                    + seed + ")");
        }
        if (!t.qpA().postRecv(c.wrId(), recvMr, c.wrId() * RECV_SLOT, RECV_SLOT)) {
            throw new AssertionError("could not repost receive " + c.wrId());
        }
        bytes += size;
        nextToCheck++;
    }

    @Override
    public void close() {
        arena.close();
    }
}
