package io.xdlink.rails.tcp;

import io.xdlink.rails.ParkedRead;
import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.frame.FrameLayout;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.channels.CancelledKeyException;

/**
 * A rail over one TCP connection, bound to the local interface of its link (on a real host the thunderbolt-net
 * interface, which is how a USB4 host-to-host cable carries user-space traffic today).
 *
 * <p>On the stream every frame is a 2-byte big-endian length and the frame's bytes. {@link #offer} only copies into a
 * batch buffer; {@link #flush} writes the batch with one non-blocking {@code write}, so a progress engine that offers
 * a burst and flushes once per duty cycle pays one system call per burst, not per frame. {@link #poll} reads once
 * when no whole frame is buffered and hands frames out in place in the receive buffer, without copying or slicing.
 * {@link #offer(int, FrameWriter)} lets the engine build a frame straight into the batch buffer. Nothing here blocks:
 * a full socket makes an offer return false once the batch buffer is full too.
 *
 * <p>A TCP stream has no 4 KiB slots, so a bulk transfer's bytes take no detour through them: data frames go as run
 * records ({@link #offerRun}), their heads in the batch and their payloads written from the sender's registered
 * memory in the same gathering {@code write}; on the receiving side a run that continues a WRITE the engine is
 * placing is read from the socket straight into the registered memory it belongs in
 * ({@link FrameReceiver#placement}), so neither side copies its payload but the kernel, as with a plain socket.
 * With {@code tcp_payload_by_reference=0} a run's frames are copied into the batch whole, each its own record, the
 * stream as a frame-by-frame sender would write it.
 *
 * <p>An engine that parks when idle learns of arriving frames through {@link #onArrival}: the host's (or the
 * loopback pair's) {@link IoLoop} watches the socket and calls the engine's wake ({@link ArrivalWatch}).
 *
 * <p>TCP neither loses nor reorders, so {@link RailInfo#lossy()} is false; a broken connection is a closed rail. Its
 * frames arrive {@link RailInfo#intact() intact}: TCP checksums every segment, and on a real host the USB4 link
 * under thunderbolt-net checks every packet it carries as well, so the receiver does not recompute each frame's CRC
 * over what the stream handed it (as software iWARP leaves its own CRC off over TCP by default). It saves the
 * receiver a CRC and the full decode of each frame of a bulk transfer, whose frames then take the engine's short
 * way in; {@code frame_crc=full} checks every byte again.
 * {@link #fail} may be called from any thread (a keepalive that found the peer dead); everything else belongs to the
 * progress engine's thread, as {@link RailTransport} says.
 */
public final class TcpRailTransport implements RailTransport {
    private final SocketChannel channel;
    private final RailInfo info;
    private final RecordReader reader;
    private final RecordWriter writer;
    private volatile RailClosedException failure;
    /** Registration with the polling thread's {@link RailWaiter}, once that thread idles on one. */
    private SelectionKey waitKey;
    /** Tells the owning engine about arrivals and room to send, once it asked with {@link #onArrival}. */
    private final ArrivalWatch arrivals;
    /** Whether data frames' payloads go to the socket from their registered memory ({@code tcp_payload_by_reference}). */
    private final boolean byReference;
    private final boolean readIntoPlace;
    /**
     * The longest run this rail sends, in frames: what the peer takes, at most this host's. Its payload needs no limit
     * of its own: no frame's payload reaches {@link FrameLayout#MAX_STREAM_FRAME_BYTES}, and a peer takes that much
     * a frame.
     */
    private final int runFrames;
    /** The run records coming in: the one being handed over, or read straight into its place. */
    private final RunsIn runs;
    /** The block this rail armed last ({@link #parkRead}), or null: claimed before every read, dropped at close. */
    private ParkedRead parked;
    /** Whether the last poll ended on a read that found nothing, nothing having touched the reader since. */
    private boolean idleRead;
    /** The socket's descriptor for {@link #parkRead}: -2 until looked up, -1 where it cannot be found. */
    private int descriptor = -2;
    /** A run's frame laid out whole, when payloads are not written from their memory. */
    private final WholeFrame whole = new WholeFrame(FrameLayout.MAX_STREAM_FRAME_BYTES);

    /**
     * @param info          the rail; the transport reports it {@link RailInfo#intact() intact}
     * @param watcher       the loop that watches the socket for {@link #onArrival}, or null to leave arrivals unreported
     * @param byReference   whether data frames' payloads are written from their registered memory (see above)
     * @param readIntoPlace whether payloads may be read straight into the memory they belong in ({@link #poll})
     * @param peerRunFrames the most frames of a run record the peer takes, as its hello or reply announced
     */
    TcpRailTransport(SocketChannel channel, RailInfo info, RecordReader reader, RecordWriter writer, IoLoop watcher,
                     boolean byReference, boolean readIntoPlace, int peerRunFrames) {
        if (info.lossy()) {
            throw new IllegalArgumentException("a TCP rail is not lossy: " + info);
        }
        this.channel = channel;
        this.info = info.withIntact(true);
        this.reader = reader;
        this.writer = writer;
        this.arrivals = new ArrivalWatch(channel, watcher);
        this.byReference = byReference;
        this.readIntoPlace = readIntoPlace;
        this.runFrames = Math.min(MAX_RUN_FRAMES, peerRunFrames);
        this.runs = new RunsIn(reader, info.name());
        reader.rename(info.name());
    }

    /** Frames arriving, or room to send after a refusal, call {@code wake} from the watching loop's thread. */
    @Override
    public void onArrival(Runnable wake) {
        arrivals.start(wake);
    }

    /** Heads of data frames sent in two parts: a SEND's is the shortest, a WRITE_WITH_IMM's the longest. */
    static final int MIN_HEAD = FrameLayout.SEND_HEADER + FrameLayout.TRAILER_BYTES;
    static final int MAX_HEAD = FrameLayout.WRITE_IMM_HEADER + FrameLayout.TRAILER_BYTES;
    /**
     * Most frames, and most payload bytes, in one run record this host takes, and the longest burst it sends a peer
     * that takes as much: 256 frames of 16 KiB, 4 MiB. A receiving buffer holds a run's heads; its payload goes
     * straight to its place when the run continues a WRITE the receiver is placing, else into the buffer when it fits
     * there and into scratch memory when it does not ({@link RunsIn#place}). Runs were capped at 32 KiB so that every
     * run fit a 64 KiB buffer whole; a receiver that is behind then found several whole runs in each read and copied
     * them out of its buffer, 71% of a 1 MiB stream's payload bytes, and read 11% into place. With runs up to 1 MiB,
     * the engine's run living on from one poll to the next, and reads that go no further than the next run's heads
     * after a run placed ({@link RunsIn#fill}), 97.9% of those bytes were read into place and 2.1% copied. Runs of
     * 4 MiB, in bursts as long, cost each end a quarter of the runs of a large transfer: in the two-host lab, one
     * unshaped cable, {@code write_bw -s 8M --baseline raw} moved 0.83-1.00 of the socket (median 0.93) in five runs
     * taken in turns with the build of 1 MiB runs, which moved 0.81-0.89 (median 0.86). Their heads (15,368 bytes)
     * fit the smallest rail buffer, which holds one largest frame ({@link TcpSettings#MIN_RAIL_BUFFER}).
     */
    static final int MAX_RUN_FRAMES = 256;
    static final int MAX_RUN_PAYLOAD = MAX_RUN_FRAMES * FrameLayout.MAX_STREAM_FRAME_BYTES;
    /**
     * How far past a record a short read goes ({@link RunsIn#fill}): the header and heads of a run of
     * {@link RailHello#ANNOUNCED_NOTHING} frames. Further would take more of the next run's payload into the buffer,
     * to be copied out of it, where it could be read into place: a 64 KiB message's run has five heads, and its
     * first 15 KiB would come that way if a short read went as far as a 256-frame run's heads. The heads of a longer
     * run take one more read.
     */
    static final int HEADS_AHEAD = RecordReader.RUN_HEADER_BYTES + MAX_HEAD * RailHello.ANNOUNCED_NOTHING;
    static final RecordReader.RunLimits RUN_LIMITS = new RecordReader.RunLimits(MIN_HEAD, MAX_HEAD, MAX_RUN_FRAMES,
            MAX_RUN_PAYLOAD);

    /**
     * A reader for a rail stream: frames of 1 to {@link FrameLayout#MAX_STREAM_FRAME_BYTES} bytes, and runs of data
     * frames.
     */
    static RecordReader newReader(String name, TcpSettings settings) {
        return new RecordReader(name, settings.railBuffer(), 1, FrameLayout.MAX_STREAM_FRAME_BYTES, RUN_LIMITS);
    }

    /** The rail's socket, for tests that look at what set-up gave it. */
    SocketChannel channel() {
        return channel;
    }

    @Override
    public RailInfo info() {
        return info;
    }

    /** A burst is one run record, as long as the peer takes. */
    @Override
    public int burstFrames() {
        return runFrames;
    }

    /** A byte stream has no ring slot to fit: frames up to the format's largest. */
    @Override
    public int maxFrameBytes() {
        return FrameLayout.MAX_STREAM_FRAME_BYTES;
    }

    /** Writes the frame straight into the batch buffer: the engine builds each frame once, and nothing copies it. */
    @Override
    public boolean offer(int length, FrameWriter frameWriter) {
        if (length < 1 || length > FrameLayout.MAX_STREAM_FRAME_BYTES) {
            throw new IllegalArgumentException(info.name() + ": a frame is 1.." + FrameLayout.MAX_STREAM_FRAME_BYTES
                    + " bytes, not " + length);
        }
        checkOpen();
        if (writer.append(length, frameWriter)) {
            return true;
        }
        write();
        return writer.append(length, frameWriter);
    }

    /**
     * Takes the run as one run record: its heads go into the batch, its payload (the frames' payloads, which follow
     * each other in {@code payload}) is written from there when the batch is flushed; the request it belongs to
     * completes only after the peer acknowledged it, so the memory is still the sender's then. A frame whose payload
     * does not follow its predecessor's, or that would take the record past its limits, ends the run. Without
     * {@code tcp_payload_by_reference} each frame is copied into the batch whole instead.
     */
    @Override
    public int offerRun(int headLength, FrameRun run, MemorySegment payload, int count) {
        if (headLength < MIN_HEAD || headLength > MAX_HEAD) {
            throw new IllegalArgumentException(info.name() + ": a data frame's head is " + MIN_HEAD + ".."
                    + MAX_HEAD + " bytes, not " + headLength);
        }
        checkOpen();
        if (!byReference) {
            return offerWhole(headLength, run, payload, count);
        }
        int frames = Math.min(count, runFrames);
        long at = writer.beginRun(headLength, frames);
        if (at < 0) {
            write();
            at = writer.beginRun(headLength, frames);
            if (at < 0) {
                return 0;
            }
        }
        MemorySegment batch = writer.segment();
        int sent = 0;
        long first = 0;
        long bytes = 0;
        while (sent < frames && run.frame(sent)) {
            long offset = run.payloadOffset();
            int length = run.payloadLength();
            if (length < 1 || length > FrameLayout.MAX_STREAM_FRAME_BYTES - headLength) {
                throw new IllegalArgumentException(info.name() + ": a frame's payload is 1.."
                        + (FrameLayout.MAX_STREAM_FRAME_BYTES - headLength) + " bytes, not " + length);
            }
            if (sent == 0) {
                first = offset;
            } else if (offset != first + bytes) {
                break;
            }
            run.write(batch, at + (long) sent * headLength);
            bytes += length;
            sent++;
        }
        if (sent > 0) {
            writer.commitRun(headLength, sent, payload, first, (int) bytes);
        }
        return sent;
    }

    /** Copies the run's frames into the batch one by one, each a frame record. */
    private int offerWhole(int headLength, FrameRun run, MemorySegment payload, int count) {
        int sent = 0;
        while (sent < count && run.frame(sent) && offer(whole.aim(run, headLength, payload), whole)) {
            sent++;
        }
        return sent;
    }

    @Override
    public boolean emptyPollIsACall() {
        return true;
    }

    @Override
    public boolean midTransfer() {
        return writer.pending() > 0 || runs.placing() || reader.buffered() > 0;
    }

    @Override
    public int flush() {
        checkOpen();
        return writer.pending() == 0 ? 0 : Integer.signum(write());
    }

    private int write() {
        try {
            int n = writer.writeTo(channel);
            if (writer.pending() > 0) {
                joinWaiter();
                arrivals.arm(SelectionKey.OP_WRITE); // full: room to send wakes an engine that idles meanwhile
            }
            if (waitKey != null) {
                // A socket that did not take everything wakes an idle thread when it has room again.
                int ops = writer.pending() > 0 ? SelectionKey.OP_READ
                        | SelectionKey.OP_WRITE : SelectionKey.OP_READ;
                if (waitKey.isValid() && waitKey.interestOps() != ops) {
                    waitKey.interestOps(ops);
                }
            }
            return n;
        } catch (IOException e) {
            throw fail(info.name() + ": sending failed: " + e.getMessage(), e);
        } catch (IllegalStateException e) {
            // A payload's memory was closed before it went out: the stream cannot carry the bytes its head promised.
            throw fail(info.name() + ": a payload's memory was closed before it was sent: " + e.getMessage(), e);
        }
    }

    @Override
    public int poll(FrameReceiver receiver, int limit) {
        checkOpen();
        int handed = 0;
        try {
            joinWaiter();
            takeParked();
            while (handed < limit) {
                if (runs.handing()) {
                    handed += runs.hand(receiver, limit - handed);
                    continue;
                }
                if (runs.placing()) {
                    if (!runs.readIntoPlace(channel)) {
                        break; // the rest of the payload is not here yet
                    }
                    continue;
                }
                long at = reader.nextRecord();
                if (at >= 0) {
                    if (reader.isRun()) {
                        runs.start(at);
                        continue;
                    }
                    receiver.onFrame(reader.segment(), at, reader.recordLength(), null, 0, 0);
                    handed++;
                    continue;
                }
                if (reader.partialRun() >= 0 && runs.place(receiver, readIntoPlace)) {
                    continue;
                }
                if (handed > 0 && reader.drained()) {
                    // The last read emptied the socket: another now would almost always find nothing, and on a
                    // round trip that system call sits between a frame's arrival and its answer.
                    break;
                }
                int read = runs.fill(channel);
                if (read == 0) {
                    idleRead = true;
                    if (handed == 0) {
                        // Nothing at all: the engine may idle next, so the next frame to arrive wakes it. A poll
                        // that handed frames over leaves this to the next one, so a busy stream costs the loop
                        // nothing.
                        arrivals.arm(SelectionKey.OP_READ);
                    }
                    break;
                }
                if (read < 0) {
                    if (handed > 0) {
                        break;
                    }
                    reader.next(); // throws when the stream ended inside a frame
                    throw fail(info.name() + ": the peer closed the rail", null);
                }
            }
        } catch (StreamFormatException e) {
            throw fail(e.getMessage(), e);
        } catch (IOException e) {
            throw fail(info.name() + ": receiving failed: " + e.getMessage(), e);
        } catch (IllegalStateException e) {
            // The memory a payload was being read into was closed under its region: the stream cannot go on.
            throw fail(info.name() + ": the memory a payload was read into was closed: " + e.getMessage(), e);
        }
        return handed;
    }

    /**
     * Takes back the block this rail armed, with what a read outside Java brought meanwhile: those bytes are where
     * the read that found nothing last asked for them, and count as that read's next try. A failed read is left for
     * this poll's own read to meet.
     */
    private void takeParked() {
        idleRead = false;
        ParkedRead p = parked;
        if (p != null) {
            int n = p.claim(this);
            if (n > 0) {
                runs.took(n);
            }
        }
    }

    /**
     * Arms {@code park} with this rail's next read when the last poll ended on a read that found nothing and no
     * output waits for room: the host's thread may then make that read itself until {@code deadline}, and this rail
     * takes its bytes at its next poll ({@link #takeParked}). Not where the socket's descriptor cannot be found.
     */
    @Override
    public boolean parkRead(ParkedRead park, long deadline) {
        if (watchDescriptor() < 0) {
            return false;
        }
        synchronized (this) {
            // Under the lock fail() sets the failure with: a rail failing now drops the block before it closes.
            if (failure != null) {
                return false;
            }
            parked = park;
            return park.arm(this, descriptor, reader.fillAddress(), reader.fillRoom(), deadline);
        }
    }

    /** The socket's descriptor while the rail is idle as {@link #parkRead} and the watch need it, or -1. */
    @Override
    public int watchDescriptor() {
        if (!idleRead || writer.pending() > 0 || failure != null) {
            return -1;
        }
        if (descriptor == -2) {
            descriptor = SocketCalls.descriptor(channel);
        }
        return descriptor;
    }

    /**
     * Registers with the calling thread's {@link RailWaiter}, if it idles on one, so traffic wakes it; again when
     * another thread takes the rail over (a pool thread that changed), or after that thread let go of its rails
     * ({@link RailWaiter#releaseRails}).
     */
    private void joinWaiter() throws IOException {
        RailWaiter w = RailWaiter.current();
        if (w != null && (waitKey == null || waitKey.selector() != w.selector || !waitKey.isValid())) {
            if (waitKey != null) {
                waitKey.cancel();
            }
            try {
                waitKey = channel.register(w.selector, SelectionKey.OP_READ, this);
            } catch (CancelledKeyException e) {
                // This thread's selector still holds the key another thread cancelled when it took the rail over
                // before; a selector forgets a cancelled key at its next selection, which this thread may make.
                w.selector.selectNow();
                w.selector.selectedKeys().clear();
                waitKey = channel.register(w.selector, SelectionKey.OP_READ, this);
            }
        }
    }

    private void checkOpen() {
        RailClosedException f = failure;
        if (f != null) {
            throw new RailClosedException(f.getMessage(), f.getCause(), f.peerLost());
        }
    }

    /**
     * Closes the rail because of {@code reason}; offer and poll throw {@link RailClosedException} with it from now
     * on. Safe from any thread; the first reason wins.
     */
    public RailClosedException fail(String reason, Throwable cause) {
        return fail(reason, cause, false);
    }

    /**
     * As {@link #fail(String, Throwable)}; {@code peerLost} when the whole peer is gone (its session's keepalive
     * went silent), which {@link RailClosedException#peerLost()} then reports.
     */
    public RailClosedException fail(String reason, Throwable cause, boolean peerLost) {
        RailClosedException f = new RailClosedException(reason, cause, peerLost);
        ParkedRead p;
        synchronized (this) {
            if (failure == null) {
                failure = f;
            } else {
                f = failure;
            }
            p = parked;
        }
        arrivals.stop();
        if (p != null) {
            // A read outside Java must be over, and no other begin, before the descriptor closes and may be reused.
            p.drop(this);
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // The rail is already unusable; a second error while closing adds nothing.
        }
        return f;
    }

    /** Bytes offered and not yet taken by the socket. */
    public long pendingBytes() {
        return writer.pending();
    }

    @Override
    public boolean isOpen() {
        return failure == null;
    }

    @Override
    public void close() {
        fail(info.name() + ": closed", null);
    }

    @Override
    public String toString() {
        return "TcpRailTransport[" + info.name() + (isOpen() ? "" : ", closed") + "]";
    }
}
