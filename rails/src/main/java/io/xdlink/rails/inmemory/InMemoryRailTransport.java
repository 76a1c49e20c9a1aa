package io.xdlink.rails.inmemory;

import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

/**
 * One end of an in-memory rail ({@link InMemoryRailPair} makes both). Frames are written in place into the peer's
 * receive ring, whose size stands in for a USB4 receive ring: an offer into a full ring is refused and counted.
 * Faults are drawn at the sending end from the pair's {@link FaultPlan}. Each end belongs to one thread at a time,
 * the two ends to any two threads.
 */
public final class InMemoryRailTransport implements RailTransport {
    private final InMemoryRailPair pair;
    private final RailInfo info;
    private final FrameRing out;
    private final FrameRing in;
    private final MemorySegment held = java.lang.foreign.Arena.ofAuto().allocate(MAX_FRAME_BYTES, 8);
    private int heldLength;
    private int heldCountdown;
    private volatile Faults faults;
    private volatile Runnable wake = () -> { };
    private boolean published;
    private volatile boolean closed;

    private long offered;
    private long delivered;
    private long lost;
    private long reordered;
    private long duplicated;
    private long corrupted;
    private long refused;
    private long blackholed;

    /** The fault plan with its generator, swapped as one so the sending thread always sees a matching pair. */
    private record Faults(FaultPlan plan, SplittableRandom random) {
    }

    InMemoryRailTransport(InMemoryRailPair pair, RailInfo info, FrameRing out, FrameRing in) {
        this.pair = pair;
        this.info = info;
        this.out = out;
        this.in = in;
        this.faults = new Faults(FaultPlan.NONE, new SplittableRandom(0));
    }

    @Override
    public void onArrival(Runnable wake) {
        this.wake = wake;
    }

    /** Wakes whoever polls the other end (they have new frames). */
    private void wakePeer() {
        pair.other(this).wake.run();
    }

    void faults(FaultPlan plan, long stream) {
        this.faults = new Faults(plan, new SplittableRandom(plan.seed() * 0x9E3779B97F4A7C15L + stream));
    }

    @Override
    public RailInfo info() {
        return info;
    }

    @Override
    public boolean offer(MemorySegment frame) {
        long size = frame.byteSize();
        if (size < 1 || size > MAX_FRAME_BYTES) {
            throw new IllegalArgumentException(info.name() + ": a frame is 1.." + MAX_FRAME_BYTES + " bytes, not "
                    + size);
        }
        return offer((int) size, (buffer, offset) -> MemorySegment.copy(frame, 0, buffer, offset, size));
    }

    @Override
    public boolean offer(int length, FrameWriter writer) {
        if (length < 1 || length > MAX_FRAME_BYTES) {
            throw new IllegalArgumentException(info.name() + ": a frame is 1.." + MAX_FRAME_BYTES + " bytes, not "
                    + length);
        }
        checkOpen();
        if (out.free() < 1) {
            refused++;
            return false;
        }
        if (pair.isBlackholed()) {
            blackholed++;
            return true;
        }
        offered++;
        Faults f = faults;
        FaultPlan plan = f.plan();
        if (!plan.any()) {
            writer.write(out.nextSlot(0), 0);
            out.publish(length);
            delivered++;
            published = true;
            return true;
        }
        SplittableRandom r = f.random();
        if (r.nextDouble() < plan.loss()) {
            lost++;
            return true;
        }
        MemorySegment slot = out.nextSlot(0);
        writer.write(slot, 0);
        if (r.nextDouble() < plan.corrupt()) {
            int bit = r.nextInt(length * 8);
            byte b = slot.get(ValueLayout.JAVA_BYTE, bit / 8);
            slot.set(ValueLayout.JAVA_BYTE, bit / 8, (byte) (b ^ (1 << (bit % 8))));
            corrupted++;
        }
        if (heldLength == 0 && r.nextDouble() < plan.reorder()) {
            MemorySegment.copy(slot, 0, held, 0, length);
            heldLength = length;
            heldCountdown = 1 + r.nextInt(3);
            reordered++;
            return true;
        }
        out.publish(length);
        delivered++;
        published = true;
        if (r.nextDouble() < plan.duplicate() && out.free() > 0) {
            MemorySegment.copy(slot, 0, out.nextSlot(0), 0, length);
            out.publish(length);
            duplicated++;
            delivered++;
        }
        if (heldLength > 0 && --heldCountdown <= 0) {
            releaseHeld();
        }
        return true;
    }

    private void releaseHeld() {
        if (out.free() > 0) {
            MemorySegment.copy(held, 0, out.nextSlot(0), 0, heldLength);
            out.publish(heldLength);
            delivered++;
            heldLength = 0;
        }
    }

    /** Lets a frame held back for reordering go once the sender has paused, and wakes the receiving engine. */
    @Override
    public int flush() {
        checkOpen();
        int work = 0;
        if (heldLength > 0 && --heldCountdown < -1) {
            releaseHeld();
            published = true;
            work = 1;
        }
        if (published) {
            published = false;
            wakePeer();
        }
        return work;
    }

    @Override
    public int poll(FrameReceiver receiver, int limit) {
        if (closed) {
            throw new RailClosedException(info.name() + ": closed");
        }
        if (pair.isCut()) {
            throw new RailClosedException(info.name() + ": the cable was pulled");
        }
        int n = in.drain(receiver, limit);
        if (n == 0 && in.producerClosed() && in.isEmpty()) {
            throw new RailClosedException(info.name() + ": the peer closed the rail");
        }
        return n;
    }

    private void checkOpen() {
        if (closed) {
            throw new RailClosedException(info.name() + ": closed");
        }
        if (pair.isCut()) {
            throw new RailClosedException(info.name() + ": the cable was pulled");
        }
        if (out.consumerClosed()) {
            throw new RailClosedException(info.name() + ": the peer closed the rail");
        }
    }

    @Override
    public boolean isOpen() {
        return !closed && !pair.isCut() && !out.consumerClosed() && !in.producerClosed();
    }

    @Override
    public void close() {
        closed = true;
        out.closeProducer();
        in.closeConsumer();
    }

    /** Frames received and not yet polled. */
    public boolean hasPending() {
        return !in.isEmpty();
    }

    /** A snapshot of this end's counters (exact when read on the sending thread or after it stopped). */
    public InMemoryRailStats stats() {
        return new InMemoryRailStats(offered, delivered, lost, reordered, duplicated, corrupted, refused, blackholed);
    }

    @Override
    public String toString() {
        return "InMemoryRailTransport[" + info.name() + (isOpen() ? "" : ", closed") + "]";
    }
}
