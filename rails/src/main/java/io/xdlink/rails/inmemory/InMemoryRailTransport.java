package io.xdlink.rails.inmemory;

import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.lang.foreign.Arena;

/**
 * One end of an in-memory rail ({@link InMemoryRailPair} makes both). Frames are written in place into the peer's
 * receive ring, whose size stands in for a USB4 receive ring: an offer into a full ring is refused and counted.
 * A pair made to carry payloads by reference keeps a data frame's payload where the sender has it and hands the
 * receiver the head and that payload, so no payload byte is copied until the receiver places it. Faults are drawn
 * at the sending end from the pair's {@link RailFaultPlan}. Each end belongs to one thread at a time, the two ends to
 * any two threads.
 */
public final class InMemoryRailTransport implements RailTransport {
    private final InMemoryRailPair pair;
    private final RailInfo info;
    private final FrameRing out;
    private final FrameRing in;
    private final boolean byReference;
    private final MemorySegment held = Arena.ofAuto().allocate(MAX_FRAME_BYTES, 8);
    private final MemorySegment head = Arena.ofAuto().allocate(MAX_FRAME_BYTES, 8);
    private final WholeFrame whole = new WholeFrame();
    private int heldLength;
    private MemorySegment heldPayload;
    private long heldPayloadOffset;
    private int heldPayloadLength;
    private int heldCountdown;
    /** The held frame's turn came when the ring had no room for it: it goes before any later frame. */
    private boolean heldDue;
    private volatile Faults faults;
    private volatile Runnable wake = () -> { };
    private volatile boolean closed;
    private boolean published;

    private long offered;
    private long delivered;
    private long lost;
    private long reordered;
    private long duplicated;
    private long corrupted;
    private long refused;
    private long blackholed;

    /** The fault plan with its generator, swapped as one so the sending thread always sees a matching pair. */
    private record Faults(RailFaultPlan plan, SplittableRandom random) {
    }

    InMemoryRailTransport(InMemoryRailPair pair, RailInfo info, FrameRing out, FrameRing in, boolean byReference) {
        this.pair = pair;
        this.info = info;
        this.out = out;
        this.in = in;
        this.byReference = byReference;
        this.faults = new Faults(RailFaultPlan.NONE, new SplittableRandom(0));
    }

    void faults(RailFaultPlan plan, long stream) {
        this.faults = new Faults(plan, new SplittableRandom(plan.seed() * 0x9E3779B97F4A7C15L + stream));
    }

    @Override
    public void onArrival(Runnable wake) {
        this.wake = wake;
    }

    @Override
    public RailInfo info() {
        return info;
    }

    @Override
    public boolean offer(int length, FrameWriter writer) {
        return send(length, writer, null, 0, 0);
    }

    /**
     * A pair made to carry payloads by reference puts each frame's head in a ring slot and hands the receiver a
     * reference to its payload; any other lays each frame out whole in its slot. Frame by frame either way, so each
     * meets the fault plan on its own.
     */
    @Override
    public int offerRun(int headLength, FrameRun run, MemorySegment payload, int count) {
        if (headLength < 5 || payload == null) {
            throw new IllegalArgumentException(info.name() + ": a run's frames need a head of at least 5 bytes and a "
                    + "payload, got head " + headLength + (payload == null ? " and no payload" : ""));
        }
        int sent = 0;
        while (sent < count && run.frame(sent)) {
            boolean taken = byReference
                    ? send(headLength, run, payload, run.payloadOffset(), run.payloadLength())
                    : send(whole.aim(run, headLength, payload), whole, null, 0, 0);
            if (!taken) {
                break;
            }
            sent++;
        }
        return sent;
    }

    private boolean send(int headLength, FrameWriter writer, MemorySegment payload, long payloadOffset,
                         int payloadLength) {
        int length = headLength + payloadLength;
        if (headLength < 1 || payloadLength < 0 || length > MAX_FRAME_BYTES) {
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
        if (heldDue) {
            // Let go first, or this frame would be one more than the three that may overtake it.
            releaseHeld();
            if (out.free() < 1) {
                refused++;
                return false;
            }
        }
        offered++;
        Faults f = faults;
        RailFaultPlan plan = f.plan();
        if (!plan.any()) {
            writer.write(out.nextSlot(0), 0);
            publish(headLength, payload, payloadOffset, payloadLength);
            return true;
        }
        SplittableRandom r = f.random();
        if (r.nextDouble() < plan.loss()) {
            lost++;
            return true;
        }
        MemorySegment slot = out.nextSlot(0);
        int slotLength = headLength;
        MemorySegment keep = payload;
        if (r.nextDouble() < plan.corrupt()) {
            // Damage belongs to the frame, never to the sender's memory: lay the frame out whole, then flip a bit.
            if (payload != null) {
                writer.write(head, 0);
                slotLength = assemble(head, headLength, payload, payloadOffset, payloadLength, slot);
                keep = null;
            } else {
                writer.write(slot, 0);
            }
            int bit = r.nextInt(slotLength * 8);
            byte b = slot.get(ValueLayout.JAVA_BYTE, bit / 8);
            slot.set(ValueLayout.JAVA_BYTE, bit / 8, (byte) (b ^ (1 << (bit % 8))));
            corrupted++;
        } else {
            writer.write(slot, 0);
        }
        if (heldLength == 0 && r.nextDouble() < plan.reorder()) {
            MemorySegment.copy(slot, 0, held, 0, slotLength);
            heldLength = slotLength;
            heldPayload = keep;
            heldPayloadOffset = payloadOffset;
            heldPayloadLength = keep == null ? 0 : payloadLength;
            heldCountdown = 1 + r.nextInt(3);
            reordered++;
            return true;
        }
        publish(slotLength, keep, payloadOffset, keep == null ? 0 : payloadLength);
        if (r.nextDouble() < plan.duplicate() && out.free() > 0) {
            MemorySegment.copy(slot, 0, out.nextSlot(0), 0, slotLength);
            publish(slotLength, keep, payloadOffset, keep == null ? 0 : payloadLength);
            duplicated++;
        }
        if (heldLength > 0 && --heldCountdown <= 0) {
            releaseHeld();
        }
        return true;
    }

    private void publish(int length, MemorySegment payload, long payloadOffset, int payloadLength) {
        if (payload == null) {
            out.publish(length);
        } else {
            out.publish(length, payload, payloadOffset, payloadLength);
        }
        delivered++;
        published = true;
    }

    /** Lays a two-part frame out whole: the head's header, the payload, the head's trailer. */
    private static int assemble(MemorySegment head, int headLength, MemorySegment payload, long payloadOffset,
                                int payloadLength, MemorySegment into) {
        int header = headLength - 4;
        MemorySegment.copy(head, 0, into, 0, header);
        MemorySegment.copy(payload, payloadOffset, into, header, payloadLength);
        MemorySegment.copy(head, header, into, header + payloadLength, 4);
        return headLength + payloadLength;
    }

    private void releaseHeld() {
        heldDue = out.free() < 1;
        if (!heldDue) {
            MemorySegment.copy(held, 0, out.nextSlot(0), 0, heldLength);
            publish(heldLength, heldPayload, heldPayloadOffset, heldPayloadLength);
            heldLength = 0;
            heldPayload = null;
        }
    }

    /** Lets a frame held back for reordering go once the sender has paused, and wakes the receiving engine. */
    @Override
    public int flush() {
        checkOpen();
        int work = 0;
        if (heldLength > 0 && --heldCountdown < -1) {
            releaseHeld();
            work = 1;
        }
        if (published) {
            published = false;
            pair.other(this).wake.run();
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
