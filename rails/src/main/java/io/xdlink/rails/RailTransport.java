package io.xdlink.rails;

import java.lang.foreign.MemorySegment;

/**
 * Moves frames for one rail: the simulator's frames over a simulated cable, or one TCP connection bound to a local
 * interface on a real host. The progress engine that owns the rail is the only thread that calls it.
 *
 * <p>Neither direction blocks. {@link #offer} refuses a frame when the transport has no room (the engine keeps it and
 * tries again); {@link #poll} hands over what has arrived. A transport that is {@link RailInfo#lossy() lossy} may
 * lose, and the simulator with faults may also reorder, duplicate or corrupt, frames: the protocol above recovers.
 */
public interface RailTransport extends AutoCloseable {

    /** Largest frame a rail carries, header included, like a USB4 DMA frame. */
    int MAX_FRAME_BYTES = 4096;

    /** Which link this rail runs over, what that link negotiated, and whether frames can be lost. */
    RailInfo info();

    /**
     * Offers one frame of at most {@link #MAX_FRAME_BYTES}; its bytes are copied before return.
     *
     * @return false when the transport cannot take it now; nothing was sent
     * @throws RailClosedException when the rail is closed or failed (peer gone, cable pulled)
     */
    boolean offer(MemorySegment frame);

    /**
     * Hands up to {@code limit} received frames to {@code receiver}, in arrival order. Each segment is valid only
     * during its callback.
     *
     * @return how many frames were handed over
     * @throws RailClosedException when the rail is closed or failed and nothing more will arrive
     */
    int poll(FrameReceiver receiver, int limit);

    /**
     * Offers one frame of {@code length} bytes that {@code writer} writes in place, straight into the transport's
     * ring slot or send buffer, so the engine builds each frame exactly once. The writer must write exactly
     * {@code length} bytes starting at the offset it is given and have no other effect: a transport may call it and
     * still refuse the frame (then nothing was sent). Transports that can write in place override this; the
     * default builds the frame in a per-thread scratch buffer and hands it to {@link #offer(MemorySegment)}.
     *
     * @return false when the transport cannot take it now; nothing was sent
     * @throws IllegalArgumentException when {@code length} is not 1..{@link #MAX_FRAME_BYTES}
     * @throws RailClosedException      when the rail is closed or failed
     */
    default boolean offer(int length, FrameWriter writer) {
        if (length < 1 || length > MAX_FRAME_BYTES) {
            throw new IllegalArgumentException(info().name() + ": a frame is 1.." + MAX_FRAME_BYTES + " bytes, not "
                    + length);
        }
        MemorySegment scratch = Scratch.frame();
        writer.write(scratch, 0);
        return offer(scratch.asSlice(0, length));
    }

    /**
     * Whether this transport carries a data frame's payload by reference ({@link #offer(int, FrameWriter,
     * MemorySegment, long, int)}): an in-process transport whose receiving end reads the payload straight from the
     * sender's registered memory, so moving a frame copies no payload byte until the receiver places it. False by
     * default.
     */
    default boolean carriesPayloadByReference() {
        return false;
    }

    /**
     * Whether every frame this transport delivers is, bit for bit, the frame that was offered: memory handed from
     * one end to the other with nothing between that could flip a bit (a simulated rail whose fault plan corrupts
     * nothing), or a stream whose own checks the host trusts (a TCP rail; see its {@code deliversIntact}). The
     * receiving engine then skips recomputing the frame's CRC ({@code frame_crc=full} asks for it all the same);
     * every other check of the frame stays. False by default: a transport that may damage a frame keeps the check.
     */
    default boolean deliversIntact() {
        return false;
    }

    /**
     * Offers a data frame in two parts. The head, {@code headLength} bytes that {@code writer} writes, is the frame's
     * header followed by its 4-byte trailer; the payload is {@code payloadLength} bytes of {@code payload} from
     * {@code payloadOffset}. On the wire the frame is header, payload, trailer. A transport that
     * {@link #carriesPayloadByReference() carries payloads by reference} keeps the head and a reference to the
     * payload and hands both to the receiver's {@link FrameReceiver#onFrame(MemorySegment, long, int, MemorySegment,
     * long, int)}; the sender's memory stays untouched until the frame is read, as RDMA requires of a source buffer
     * until its request completes. The default lays the frame out whole in a per-thread buffer and offers that.
     *
     * @return false when the transport cannot take it now; nothing was sent
     */
    default boolean offer(int headLength, FrameWriter writer, MemorySegment payload, long payloadOffset,
                          int payloadLength) {
        int length = headLength + payloadLength;
        if (headLength < 5 || payloadLength < 0 || length > MAX_FRAME_BYTES) {
            throw new IllegalArgumentException(info().name() + ": a frame is 1.." + MAX_FRAME_BYTES + " bytes, not "
                    + length + " (head " + headLength + ")");
        }
        MemorySegment head = Scratch.head();
        writer.write(head, 0);
        MemorySegment frame = Scratch.frame();
        Scratch.assemble(head, 0, headLength, payload, payloadOffset, payloadLength, frame);
        return offer(frame.asSlice(0, length));
    }

    /**
     * Offers up to {@code count} data frames of one run in two parts, as {@link #offer(int, FrameWriter,
     * MemorySegment, long, int)} offers one: frame {@code i} is what {@code run} writes after
     * {@link FrameRun#frame(int) frame(i)}, its payload {@link FrameRun#payloadLength()} bytes of {@code payload}
     * from {@link FrameRun#payloadOffset()}. A bulk transfer's frames go this way, so a transport that carries
     * payloads by reference can take a run with one look at its ring and publish it at once instead of frame by
     * frame. Frames go in order and the first one refused ends the run; the default offers them one at a time.
     *
     * @return how many frames, from the first, were sent (0 when the transport cannot take any now)
     * @throws RailClosedException when the rail is closed or failed; frames offered before it may have been sent
     */
    default int offerRun(int headLength, FrameRun run, MemorySegment payload, int count) {
        int sent = 0;
        while (sent < count && run.frame(sent)
                && offer(headLength, run, payload, run.payloadOffset(), run.payloadLength())) {
            sent++;
        }
        return sent;
    }

    /** Pushes out anything buffered; returns a count of work done (0 when idle). Never blocks. */
    default int flush() {
        return 0;
    }

    /**
     * Called once by the progress engine that owns this rail, before it polls: the transport calls {@code wake}
     * whenever frames arrive (or room frees after a refused offer), from any thread, so an engine whose thread
     * parked when idle resumes at once instead of when its park runs out. {@code wake} is cheap and may be called
     * often. The default keeps it unused: the engine then finds frames on its next duty cycle.
     */
    default void onArrival(Runnable wake) {
    }

    /** False once closed or failed. */
    boolean isOpen();

    @Override
    void close();

    /** Writes one frame in place for {@link #offer(int, FrameWriter)}. */
    @FunctionalInterface
    interface FrameWriter {
        /** Writes the whole frame into {@code buffer} from {@code offset} on. */
        void write(MemorySegment buffer, long offset);
    }

    /**
     * The frames of a run for {@link #offerRun}: data frames of one request that follow each other and differ only
     * in their sequence, packet sequence, offset, length and flags.
     */
    interface FrameRun extends FrameWriter {
        /**
         * Makes frame {@code i} of the run (0 is the first) the one {@link #write} writes next.
         *
         * @return false when the run stops before frame {@code i}: a frame before it found its payload unreadable
         */
        boolean frame(int i);

        /** Where the current frame's payload starts in the run's payload segment. */
        long payloadOffset();

        /** The current frame's payload bytes. */
        int payloadLength();
    }

    /** Receives frames from {@link #poll}. */
    @FunctionalInterface
    interface FrameReceiver {
        void onFrame(MemorySegment frame);

        /**
         * The frame of {@code length} bytes at {@code offset} of {@code buffer} (a ring slot, a receive buffer),
         * valid only during the call. Transports call this form so that a receiver that reads in place (the
         * progress engine does) needs no slice per frame; the default makes the slice.
         */
        default void onFrame(MemorySegment buffer, long offset, int length) {
            onFrame(buffer.asSlice(offset, length));
        }

        /**
         * A frame in two parts, from a transport that {@link RailTransport#carriesPayloadByReference() carries
         * payloads by reference}: its head (header, then the 4-byte trailer) and its payload, which may be the
         * sender's own memory; valid only during the call, and read-only. The default lays the frame out whole and
         * calls {@link #onFrame(MemorySegment)}.
         */
        default void onFrame(MemorySegment head, long headOffset, int headLength, MemorySegment payload,
                             long payloadOffset, int payloadLength) {
            MemorySegment whole = Scratch.received();
            int length = Scratch.assemble(head, headOffset, headLength, payload, payloadOffset, payloadLength,
                    whole);
            onFrame(whole.asSlice(0, length));
        }

        /**
         * Where the payloads of a run of data frames belong, for a transport that reads payloads from a stream and can
         * read them straight there instead of into a buffer of its own: the run is {@code frames} heads of
         * {@code headLength} bytes at {@code headOffset} of {@code heads}, whose payloads follow each other,
         * {@code payloadLength} bytes in all. Returns memory of exactly that length, or null (the default) when the
         * receiver would not take these frames as they come (then the transport reads the payloads as usual). The
         * frames are handed over afterwards as usual, each with its part of that memory as its payload, and checked
         * again then. Only the thread that polls calls it, during {@link RailTransport#poll}.
         */
        default MemorySegment placement(MemorySegment heads, long headOffset, int headLength, int frames,
                                        int payloadLength) {
            return null;
        }
    }
}
