package io.xdlink.sim.wire;

import io.xdlink.rails.RailTransport;
import io.xdlink.sim.SimClock;
import io.xdlink.sim.fault.FrameFaults;

import java.lang.foreign.MemorySegment;

/**
 * What the fault plan does to the frames of one rail direction, between the sender's pacing and the ring: each frame
 * draws its fate from the direction's {@link FrameFaults} stream when it is sent. A lost frame has taken its wire
 * time and never arrives; a held frame is swapped behind the next one, or let go by {@link #flush} once it has
 * waited {@link #HOLD_NANOS} for one; a duplicate takes a second entry; a corrupt frame has one bit flipped in the
 * ring, never in the sender's memory, so it is laid out whole even when offered in two parts.
 *
 * <p>A stage of its own because the fate of a frame has nothing to do with when it arrives or whether the receiver
 * has room for it, and so the order in which the stream is drawn (one fate per frame sent, then the bit to flip of a
 * corrupt one) stays in one place: a run replays exactly from its seed. Sender's thread only; the counters are read
 * elsewhere as a snapshot.
 */
final class FaultStage {
    /** How long a frame held back for reordering waits for a frame to overtake it. */
    static final long HOLD_NANOS = 10_000;

    private final FrameFaults faults;
    private final EntryRing ring;
    private final ChannelWakes wakes;
    /** A frame is held back, written but unpublished, at the ring's tail, since {@link #heldSince}. */
    private boolean holding;
    private long heldSince;
    // What the plan did so far: frames lost (each took its wire time), duplicated, held back, damaged.
    private long lost;
    private long duplicated;
    private long reordered;
    private long corrupted;

    /** Whether a frame of this fate is lost. */
    static boolean lost(int fate) {
        return (fate & FrameFaults.LOSE) != 0;
    }

    /** Whether a frame of this fate is duplicated: not when it is held, so a held frame is one entry. */
    private static boolean duplicate(int fate) {
        return (fate & FrameFaults.DUPLICATE) != 0 && (fate & FrameFaults.HOLD) == 0;
    }

    /** Ring entries a frame of this fate takes. */
    static int entries(int fate) {
        return duplicate(fate) ? 2 : 1;
    }

    FaultStage(FrameFaults faults, EntryRing ring, ChannelWakes wakes) {
        this.faults = faults;
        this.ring = ring;
        this.wakes = wakes;
    }

    /** True when frames may be held back, so that sending needs the time even without pacing. */
    boolean holds() {
        return faults.holds();
    }

    /** Entries written but not published: the frame held back, if any. */
    int held() {
        return holding ? 1 : 0;
    }

    /** The next frame's fate: a set of {@link FrameFaults} flags, a lost frame counted already. */
    int draw() {
        int fate = faults.next();
        if ((fate & FrameFaults.LOSE) != 0) {
            lost++;
        }
        return fate;
    }

    /**
     * Puts a frame that was not lost into the ring as its fate says, and publishes what may be published: the frame
     * (and its copy), unless it is to be held back; a frame held before it goes behind it.
     *
     * @param arrival when the frame reaches the receiver ({@link Long#MIN_VALUE} on a channel without pacing)
     * @param now     the clock, read if the wire paces or frames can be held
     * @param wakeNow whether publishing the frame should wake the receiver at once
     */
    void place(int fate, MemorySegment frame, RailTransport.FrameWriter writer, int headLength, MemorySegment payload,
               long payloadOffset, int payloadLength, long arrival, long now, boolean wakeNow) {
        boolean duplicate = duplicate(fate);
        int need = duplicate ? 2 : 1;
        long tail = ring.tail();
        int at = ring.tailIndex();
        if (holding && ++at == ring.capacity) {
            at = 0;
        }
        boolean corrupt = (fate & FrameFaults.CORRUPT) != 0;
        // Damage belongs to the frame on the wire, never to the sender's memory: a corrupt frame is laid out whole.
        int length = ring.write(at, frame, writer, headLength, payload, payloadOffset, payloadLength, arrival, corrupt);
        if (corrupt) {
            ring.flipBit(at, faults.bitToFlip(length));
            corrupted++;
        }
        if (duplicate) {
            long position = tail + held();
            ring.copy(position, position + 1);
            duplicated++;
        }
        if (holding) {
            // The held frame at position tail goes behind the frame(s) just written.
            ring.rotateBehind(tail, need);
            holding = false;
            publish(tail + 1 + need, true);
        } else if ((fate & FrameFaults.HOLD) != 0) {
            holding = true;
            heldSince = now;
            reordered++;
            wakes.stopAt(now + HOLD_NANOS);
        } else {
            publish(tail + need, wakeNow);
        }
    }

    /**
     * Lets a held frame go when no frame overtook it in time; returns 1 if it did. Holding is timed rather than ended
     * at every flush, since an engine that is held up by a full ring flushes after every frame and would otherwise
     * never see a frame overtaken. The clock is read only while a frame is held.
     */
    int flush(SimClock clock) {
        if (!holding || clock.now() - heldSince < HOLD_NANOS) {
            return 0;
        }
        return release();
    }

    /** The sender closes: a held frame still goes out. */
    void releaseHeld() {
        if (holding) {
            release();
        }
    }

    private int release() {
        holding = false;
        publish(ring.tail() + 1, true);
        return 1;
    }

    private void publish(long newTail, boolean wake) {
        ring.publish(newTail);
        wakes.published(wake);
    }

    /** The channel's counters, with this stage's own: frames lost, duplicated, held back and damaged. */
    ChannelStats stats(long sent, long overflowed, long delivered) {
        return new ChannelStats(sent, lost, duplicated, reordered, corrupted, overflowed, delivered);
    }
}
