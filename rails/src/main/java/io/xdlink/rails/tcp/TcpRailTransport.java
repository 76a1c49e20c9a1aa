package io.xdlink.rails.tcp;

import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * A rail over one TCP connection, bound to the local interface of its link (on a real host the thunderbolt-net
 * interface, which is how a USB4 host-to-host cable carries user-space traffic today).
 *
 * <p>On the stream every frame is a 2-byte big-endian length and the frame's bytes. {@link #offer} only copies into a
 * batch buffer; {@link #flush} writes the batch with one non-blocking {@code write}, so a progress engine that offers
 * a burst and flushes once per duty cycle pays one system call per burst, not per frame. {@link #poll} reads once
 * when no whole frame is buffered and hands frames out in place in the receive buffer, without copying or slicing.
 * {@link #offer(int, FrameWriter)} lets the engine build a frame straight into the batch buffer. Nothing here blocks:
 * a full socket makes {@code offer} return false once the batch buffer is full too.
 *
 * <p>An engine that parks when idle learns of arriving frames through {@link #onArrival}: the host's (or the
 * loopback pair's) {@link IoLoop} watches the socket and calls the engine's wake ({@link ArrivalWatch}).
 *
 * <p>TCP neither loses nor reorders, so {@link RailInfo#lossy()} is false; a broken connection is a closed rail.
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

    /**
     * @param watcher the loop that watches the socket for {@link #onArrival}, or null to leave arrivals unreported
     */
    TcpRailTransport(SocketChannel channel, RailInfo info, RecordReader reader, RecordWriter writer, IoLoop watcher) {
        if (info.lossy()) {
            throw new IllegalArgumentException("a TCP rail is not lossy: " + info);
        }
        this.channel = channel;
        this.info = info;
        this.reader = reader;
        this.writer = writer;
        this.arrivals = new ArrivalWatch(channel, watcher);
        reader.rename(info.name());
    }

    /** Frames arriving, or room to send after a refusal, call {@code wake} from the watching loop's thread. */
    @Override
    public void onArrival(Runnable wake) {
        arrivals.start(wake);
    }

    /** A reader for a rail stream: frames of 1 to {@link #MAX_FRAME_BYTES} bytes. */
    static RecordReader newReader(String name, TcpSettings settings) {
        return new RecordReader(name, settings.railBuffer(), 1, MAX_FRAME_BYTES);
    }

    @Override
    public RailInfo info() {
        return info;
    }

    @Override
    public boolean offer(MemorySegment frame) {
        long size = frame.byteSize();
        if (size < 1 || size > MAX_FRAME_BYTES) {
            throw new IllegalArgumentException(info.name() + ": a frame is 1.." + MAX_FRAME_BYTES + " bytes, not " + size);
        }
        checkOpen();
        if (writer.append(frame)) {
            return true;
        }
        write();
        return writer.append(frame);
    }

    /** Writes the frame straight into the batch buffer: the engine builds each frame once, and nothing copies it. */
    @Override
    public boolean offer(int length, FrameWriter frameWriter) {
        if (length < 1 || length > MAX_FRAME_BYTES) {
            throw new IllegalArgumentException(info.name() + ": a frame is 1.." + MAX_FRAME_BYTES + " bytes, not " + length);
        }
        checkOpen();
        if (writer.append(length, frameWriter)) {
            return true;
        }
        write();
        return writer.append(length, frameWriter);
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
        }
    }

    @Override
    public int poll(FrameReceiver receiver, int limit) {
        checkOpen();
        int handed = 0;
        try {
            joinWaiter();
            while (handed < limit) {
                long at = reader.nextRecord();
                if (at >= 0) {
                    receiver.onFrame(reader.segment(), at, reader.recordLength());
                    handed++;
                    continue;
                }
                if (handed > 0 && reader.drained()) {
                    // The last read emptied the socket: another now would almost always find nothing, and on a
                    // round trip that system call sits between a frame's arrival and its answer.
                    break;
                }
                int read = reader.fill(channel);
                if (read == 0) {
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
        }
        return handed;
    }

    /**
     * Registers with the calling thread's {@link RailWaiter}, if it idles on one, so traffic wakes it; again when
     * another thread takes the rail over (a pool thread that changed).
     */
    private void joinWaiter() throws IOException {
        RailWaiter w = RailWaiter.current();
        if (w != null && (waitKey == null || waitKey.selector() != w.selector)) {
            if (waitKey != null) {
                waitKey.cancel();
            }
            waitKey = channel.register(w.selector, SelectionKey.OP_READ);
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
        synchronized (this) {
            if (failure == null) {
                failure = f;
            } else {
                f = failure;
            }
        }
        arrivals.stop();
        try {
            channel.close();
        } catch (IOException ignored) {
            // The rail is already unusable; a second error while closing adds nothing.
        }
        return f;
    }

    /** Bytes offered and not yet taken by the socket. */
    public int pendingBytes() {
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
