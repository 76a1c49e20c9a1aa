package io.xdlink.cli.bench;

import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.CompletionQueue;
import io.xdlink.rails.verbs.ConnectHandle;
import io.xdlink.rails.verbs.Connecting;
import io.xdlink.rails.verbs.ConnectionFailedException;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.Listener;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.ProtectionDomain;
import io.xdlink.rails.verbs.QpAttributes;
import io.xdlink.rails.verbs.QueuePair;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One side's resources for a run: its device, one completion queue, one registered buffer with a slot per queue pair,
 * the connected queue pairs, and where the peer's buffer is. A slot holds a receive area (the peer writes and sends
 * there) and a send area (messages leave from there), each as large as the largest message, so a ping-pong can
 * watch its receive area while its own ping still goes out.
 */
final class BenchEndpoint implements AutoCloseable {
    /** Most memory one side registers, so -q 64 with 64 MiB messages is refused instead of exhausting the host. */
    static final long MAX_BUFFER = 1L << 30;
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();
    /** How often an idle poll asks whether the peer is gone. */
    static final long WATCH_MILLIS = 50;

    private final Arena arena = Arena.ofShared();
    private final BenchDevice bench;
    private final Device device;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final MemorySegment buffer;
    private final MemoryRegion mr;
    private final long slot;
    private final List<QueuePair> qps = new ArrayList<>();
    private long remoteAddress;
    private int remoteKey;
    private Supplier<String> watch = () -> null;
    private long watchedAt = System.nanoTime();

    BenchEndpoint(BenchDevice bench, int qps, long maxMessage, int cqCapacity) {
        long slot = 2 * maxMessage;
        if ((long) qps * slot > MAX_BUFFER) {
            throw new BenchException(qps + " queue pairs of " + maxMessage + "-byte messages need "
                    + ((long) qps * slot >> 20) + " MiB; use fewer queue pairs or smaller messages (at most "
                    + (MAX_BUFFER >> 20) + " MiB)");
        }
        this.bench = bench;
        this.device = bench.device();
        this.slot = slot;
        this.pd = device.allocPd();
        this.cq = device.createCq(cqCapacity);
        this.buffer = arena.allocate(qps * slot, 64);
        this.mr = pd.register(buffer, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
    }

    Device device() {
        return device;
    }

    /** The device with whoever runs its engine. */
    BenchDevice bench() {
        return bench;
    }

    /** A polling loop's wait between passes (which runs the engine when the bench's threads own it). */
    BenchDevice.Pacer pacer() {
        return bench.pacer();
    }

    /** See {@link BenchDevice#answerPacer}. */
    BenchDevice.Pacer answerPacer() {
        return bench.answerPacer();
    }

    CompletionQueue cq() {
        return cq;
    }

    MemoryRegion mr() {
        return mr;
    }

    List<QueuePair> qps() {
        return qps;
    }

    /** Offset of queue pair {@code i}'s receive area in the local buffer (and in the peer's). */
    long recvOffset(int i) {
        return i * slot;
    }

    /**
     * Bytes a receive accepts: the whole receive area, whatever this size's messages are, because receives posted
     * for one size stay posted into the next (a larger SEND into a smaller receive is an error).
     */
    long recvCapacity() {
        return slot / 2;
    }

    /** Offset of queue pair {@code i}'s send area in the local buffer. */
    long sendOffset(int i) {
        return i * slot + slot / 2;
    }

    /** The peer's address of queue pair {@code i}'s receive area. */
    long remoteRecv(int i) {
        return remoteAddress + recvOffset(i);
    }

    int remoteKey() {
        return remoteKey;
    }

    void remote(long address, int rkey) {
        this.remoteAddress = address;
        this.remoteKey = rkey;
    }

    /** Reads a byte of the local buffer as the progress engine last wrote it. */
    byte readVolatile(long offset) {
        return (byte) BYTE.getVolatile(buffer, offset);
    }

    void write(long offset, byte value) {
        BYTE.setVolatile(buffer, offset, value);
    }

    /** Connects {@code n} queue pairs to the peer's listener, polling until all are up or {@code timeout}. */
    void connect(ConnectHandle handle, int n, Duration timeout) {
        List<Connecting> pending = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            pending.add(device.connect(handle, QpAttributes.of(pd, cq)));
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        QueuePair[] done = new QueuePair[n];
        int up = 0;
        BenchDevice.Pacer spin = pacer();
        while (up < n) {
            for (int i = 0; i < n; i++) {
                if (done[i] == null) {
                    try {
                        done[i] = pending.get(i).poll();
                    } catch (ConnectionFailedException e) {
                        throw new BenchException("could not connect to the peer's device: " + e.getMessage()
                                + lastError());
                    }
                    if (done[i] != null) {
                        up++;
                    }
                }
            }
            if (System.nanoTime() > deadline) {
                pending.forEach(Connecting::cancel);
                throw new BenchException("connected " + up + " of " + n + " queue pairs within "
                        + Rendezvous.seconds(timeout) + "; is a rail up between the hosts?" + lastError());
            }
            spin.idle(up);
        }
        qps.addAll(List.of(done));
    }

    /** Accepts {@code n} queue pairs on {@code listener}, polling until all arrived or {@code timeout}. */
    void accept(Listener listener, int n, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        BenchDevice.Pacer spin = pacer();
        while (qps.size() < n) {
            QueuePair qp = listener.accept(QpAttributes.of(pd, cq));
            if (qp != null) {
                qps.add(qp);
            } else if (System.nanoTime() > deadline) {
                throw new BenchException("accepted " + qps.size() + " of " + n + " queue pairs within "
                        + Rendezvous.seconds(timeout) + lastError());
            }
            spin.idle(qp == null ? 0 : 1);
        }
    }

    /**
     * Sets what an idle {@link #poll} asks every {@value #WATCH_MILLIS} ms: null while the peer is believed alive,
     * else why it is gone, which ends the run with that instead of waiting for the run's own timeout.
     */
    void watch(Supplier<String> watch) {
        this.watch = watch;
    }

    /** Polls one completion, failing the run on an error status or when the watch says the peer is gone. */
    Completion poll() {
        Completion c = cq.poll();
        if (c != null && !c.isSuccess()) {
            throw new BenchException("a " + c.opcode() + " completed with " + c.status() + lastError());
        }
        if (c == null) {
            long now = System.nanoTime();
            if (now - watchedAt >= WATCH_MILLIS * 1_000_000L) {
                watchedAt = now;
                String gone = watch.get();
                if (gone != null) {
                    throw new BenchException(gone);
                }
            }
        }
        return c;
    }

    /** What the device last ran into, for a failure's message: an internal error, else why a rail went. */
    private String lastError() {
        Throwable t = bench.lastError();
        return t == null ? "" : " (device: " + t.getMessage() + ")";
    }

    @Override
    public void close() {
        for (QueuePair qp : qps) {
            qp.close();
        }
        mr.deregister();
        bench.close();
        arena.close();
    }
}
