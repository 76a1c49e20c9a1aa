package io.xdlink.rails;

import io.xdlink.rails.frame.FrameLayout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Moves frames for one rail: the simulator's frames over a simulated cable, one TCP connection bound to a local
 * interface on a real host, or an in-memory pair in tests. The progress engine that owns the rail is the only thread
 * that calls it.
 *
 * <p>Neither direction blocks. An offer refuses a frame when the transport has no room (the engine keeps it and
 * tries again); {@link #poll} hands over what has arrived. A transport that is {@link RailInfo#lossy() lossy} may
 * lose, and the simulator with faults may also reorder, duplicate or corrupt, frames: the protocol above recovers.
 *
 * <p>Why it has this shape. The engine sends two kinds of frame and the interface has one way for each:
 * <ul>
 *   <li>{@link #offer(int, FrameWriter)}: a frame the engine builds in place, straight into the transport's ring
 *       slot or send buffer (control frames, acknowledgements, and a data frame with no payload);</li>
 *   <li>{@link #offerRun}: data frames whose payload sits in registered memory, one or many of one request. Every
 *       transport takes them, each in its own best way: the simulator and an in-memory pair keep the payload where
 *       it is and hand the receiver a reference, TCP puts the heads in its batch and writes the payloads from
 *       registered memory in the same gathering write, and a transport that must copy (TCP with
 *       {@code tcp_payload_by_reference=0}, a copying in-memory pair, a test's wrapper) lays each frame out whole
 *       itself ({@link WholeFrame}). So the engine never asks what a transport can do: the fast path is the only
 *       path, and there is no capability flag to get wrong.</li>
 * </ul>
 * What arrives comes to one callback, {@link FrameReceiver#onFrame(MemorySegment, long, int, MemorySegment, long,
 * int)}: the frame in place, whole or (from a transport that kept the payload by reference) in two parts.
 * The one fact about a transport the engine needs to skip work, whether frames arrive intact so their CRC need not
 * be recomputed, is a property of the rail ({@link RailInfo#intact()}), not a method.
 */
public interface RailTransport extends AutoCloseable {

    /** Largest frame a rail carries, header included, unless it says otherwise: a USB4 DMA frame. */
    int MAX_FRAME_BYTES = FrameLayout.MAX_FRAME_BYTES;

    /** Which link this rail runs over, what that link negotiated, and what may happen to frames on it. */
    RailInfo info();

    /**
     * Largest frame this rail carries, header and trailer included: {@link #MAX_FRAME_BYTES} for a ring of DMA frames
     * (the simulator's, an in-memory pair), up to {@link FrameLayout#MAX_STREAM_FRAME_BYTES} for a byte stream.
     */
    default int maxFrameBytes() {
        return MAX_FRAME_BYTES;
    }

    /** Data frames a duty cycle offers a rail at most, unless its transport asks for other bursts. */
    int BURST_FRAMES = 64;

    /**
     * Most data frames the engine offers this rail in one duty cycle: {@link #BURST_FRAMES}, or as many as one of
     * the transport's bursts carries best (a byte stream's run record, as long as the peer takes).
     */
    default int burstFrames() {
        return BURST_FRAMES;
    }

    /**
     * Offers one frame of {@code length} bytes that {@code writer} writes in place, straight into the transport's
     * ring slot or send buffer, so the engine builds each frame exactly once. The writer must write exactly
     * {@code length} bytes starting at the offset it is given and have no other effect: a transport may call it and
     * still refuse the frame (then nothing was sent).
     *
     * @return false when the transport cannot take it now; nothing was sent
     * @throws IllegalArgumentException when {@code length} is not 1..{@link #maxFrameBytes()}
     * @throws RailClosedException      when the rail is closed or failed (peer gone, cable pulled)
     */
    boolean offer(int length, FrameWriter writer);

    /**
     * Offers up to {@code count} data frames of one run, each in two parts: frame {@code i} is the head
     * ({@code headLength} bytes: the frame's header followed by its 4-byte trailer) that {@code run} writes after
     * {@link FrameRun#frame(int) frame(i)}, and {@link FrameRun#payloadLength()} bytes (at least one) of
     * {@code payload} from {@link FrameRun#payloadOffset()}. On the wire each frame is header, payload, trailer. A
     * single data frame is a run of one. The payload's memory stays the sender's and untouched until the frame is
     * read, as RDMA requires of a source buffer until its request completes; a transport that carries it by
     * reference hands the receiver the head and that memory, any other copies it. Frames go in order and the first
     * one refused (or that {@code run} stops before) ends the run.
     *
     * @return how many frames, from the first, were sent (0 when the transport cannot take any now)
     * @throws IllegalArgumentException when {@code headLength} or a frame's length is out of range
     * @throws RailClosedException      when the rail is closed or failed; frames offered before it may have been sent
     */
    int offerRun(int headLength, FrameRun run, MemorySegment payload, int count);

    /**
     * Hands up to {@code limit} received frames to {@code receiver}, in arrival order, each through
     * {@link FrameReceiver#onFrame(MemorySegment, long, int, MemorySegment, long, int)}. Each frame's memory is
     * valid only during its callback.
     *
     * @return how many frames were handed over
     * @throws RailClosedException when the rail is closed or failed and nothing more will arrive
     */
    int poll(FrameReceiver receiver, int limit);

    /** Pushes out anything buffered; returns a count of work done (0 when idle). Never blocks. */
    int flush();

    /**
     * Called once by the progress engine that owns this rail, before it polls: the transport calls {@code wake}
     * whenever frames arrive (or room frees after a refused offer), from any thread, so an engine whose thread
     * parked when idle resumes at once instead of when its park runs out. {@code wake} is cheap and may be called
     * often. Every transport calls it (the conformance suite checks): an engine left to find frames on its next
     * duty cycle would answer a round trip only when its park runs out.
     */
    void onArrival(Runnable wake);

    /** False once closed or failed. */
    boolean isOpen();

    /**
     * Whether bytes are on their way through this rail right now: output the link has not taken yet, or a frame
     * only partly read. Owning engine's thread only. A transport that keeps no such state answers false.
     */
    default boolean midTransfer() {
        return false;
    }

    /**
     * Whether a {@link #poll} that finds nothing still costs a system call (a TCP socket's read), so that an engine
     * whose owner polls often may look at this rail less often while it is idle. A ring in memory answers false.
     */
    default boolean emptyPollIsACall() {
        return false;
    }

    /**
     * Leaves this rail's next read to {@code park}'s reader until {@code deadline} ({@link System#nanoTime()}), when
     * the rail's last poll found nothing and nothing waits to go out: a host polling for a request that is not done
     * then reads the socket itself, outside Java ({@link ParkedRead}), and the rail takes what that read brought at
     * its next poll. Owning engine's thread only, right after a duty cycle. A transport without such a socket answers
     * false, and so does one that has anything else to do.
     *
     * @return whether the block is now armed for this rail
     */
    default boolean parkRead(ParkedRead park, long deadline) {
        return false;
    }

    /**
     * The socket descriptor a host thread may wait on for this rail's next bytes ({@link ParkedRead#watch}), when
     * the rail's last poll found nothing and nothing waits to go out; -1 otherwise, and for a transport without
     * such a socket. Owning engine's thread only, right after a duty cycle.
     */
    default int watchDescriptor() {
        return -1;
    }

    @Override
    void close();

    /**
     * Offers a copy of {@code frame} (1..{@link #maxFrameBytes()} bytes) through {@link #offer(int, FrameWriter)}:
     * for tools and tests that have a frame in hand. Transports do not override it; the engine never calls it.
     *
     * @return false when the transport cannot take it now; nothing was sent
     */
    default boolean offer(MemorySegment frame) {
        long size = frame.byteSize();
        if (size < 1 || size > maxFrameBytes()) {
            throw new IllegalArgumentException(info().name() + ": a frame is 1.." + maxFrameBytes() + " bytes, not "
                    + size);
        }
        return offer((int) size, (buffer, offset) -> MemorySegment.copy(frame, 0, buffer, offset, size));
    }

    /** Writes one frame in place for {@link #offer(int, FrameWriter)}. */
    @FunctionalInterface
    interface FrameWriter {
        /** Writes the whole frame into {@code buffer} from {@code offset} on. */
        void write(MemorySegment buffer, long offset);
    }

    /**
     * The frames of a run for {@link #offerRun}: data frames of one request that follow each other and differ only
     * in their sequence, packet sequence, offset, length and flags. {@link #write} writes the current frame's head.
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

        /**
         * One data frame as a run of one, for tools and tests that have a frame in hand: {@code head} writes its
         * head, and its payload is {@code payloadLength} bytes from {@code payloadOffset} of the run's payload. The
         * engine makes its own, without allocating.
         */
        static FrameRun of(FrameWriter head, long payloadOffset, int payloadLength) {
            return new FrameRun() {
                @Override
                public boolean frame(int i) {
                    return i == 0;
                }

                @Override
                public long payloadOffset() {
                    return payloadOffset;
                }

                @Override
                public int payloadLength() {
                    return payloadLength;
                }

                @Override
                public void write(MemorySegment buffer, long offset) {
                    head.write(buffer, offset);
                }
            };
        }
    }

    /**
     * Lays the current frame of a run out whole, for a transport that must copy payloads: aimed at a run's frame, it
     * is the {@link FrameWriter} of that frame as one piece (header, payload, trailer), so such a transport offers
     * it as it offers any frame built in place. Reusable: one per transport, aimed again for every frame.
     */
    final class WholeFrame implements FrameWriter {
        private final int maxFrameBytes;
        private FrameRun run;
        private int headLength;
        private MemorySegment payload;

        /** For a rail of DMA frames: at most {@link #MAX_FRAME_BYTES} bytes a frame. */
        public WholeFrame() {
            this(MAX_FRAME_BYTES);
        }

        /** For a rail whose frames are at most {@code maxFrameBytes} bytes. */
        public WholeFrame(int maxFrameBytes) {
            this.maxFrameBytes = maxFrameBytes;
        }

        /**
         * Aims at the current frame of {@code run}, whose head is {@code headLength} bytes and whose payload is in
         * {@code payload}.
         *
         * @return the whole frame's length
         * @throws IllegalArgumentException when the frame is out of range
         */
        public int aim(FrameRun run, int headLength, MemorySegment payload) {
            int length = headLength + run.payloadLength();
            if (run.payloadLength() < 1 || length > maxFrameBytes) {
                throw new IllegalArgumentException("a run's frame is a head of " + headLength
                        + " bytes and a payload of 1.." + (maxFrameBytes - headLength) + " bytes, not "
                        + run.payloadLength());
            }
            this.run = run;
            this.headLength = headLength;
            this.payload = payload;
            return length;
        }

        @Override
        public void write(MemorySegment buffer, long offset) {
            int header = headLength - FrameLayout.TRAILER_BYTES;
            int length = run.payloadLength();
            run.write(buffer, offset);
            // The trailer moves behind where the payload goes (the copy is safe when the two overlap).
            MemorySegment.copy(buffer, offset + header, buffer, offset + header + length, FrameLayout.TRAILER_BYTES);
            try {
                MemorySegment.copy(payload, run.payloadOffset(), buffer, offset + header, length);
            } catch (RuntimeException closedOrForeign) {
                // The payload's memory was closed under its request: the peer must drop the frame, not read garbage.
                buffer.set(ValueLayout.JAVA_BYTE, offset + FrameLayout.OFF_VERSION, (byte) 0);
            }
        }
    }

    /** Receives frames from {@link #poll}. */
    @FunctionalInterface
    interface FrameReceiver {
        /**
         * A whole frame as its own segment: the one method a simple receiver (a test, a tool) writes. Transports
         * call {@link #onFrame(MemorySegment, long, int, MemorySegment, long, int)}, which comes here by default.
         */
        void onFrame(MemorySegment frame);

        /**
         * The frame a transport hands over, valid only during the call, read-only: {@code length} bytes at
         * {@code offset} of {@code buffer} (a ring slot, a receive buffer). When {@code payload} is null those bytes
         * are the whole frame; otherwise they are its head (the header, then the 4-byte trailer) and its payload is
         * {@code payloadLength} bytes of {@code payload} from {@code payloadOffset}, which may be the sender's own
         * memory. The progress engine reads in place; the default makes the frame one segment (a slice, or laid out
         * whole) and calls {@link #onFrame(MemorySegment)}.
         */
        default void onFrame(MemorySegment buffer, long offset, int length, MemorySegment payload,
                             long payloadOffset, int payloadLength) {
            if (payload == null) {
                onFrame(buffer.asSlice(offset, length));
                return;
            }
            MemorySegment whole = Scratch.received();
            int n = Scratch.assemble(buffer, offset, length, payload, payloadOffset, payloadLength, whole);
            onFrame(whole.asSlice(0, n));
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
