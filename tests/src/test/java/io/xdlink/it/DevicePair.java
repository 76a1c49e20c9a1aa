package io.xdlink.it;

import io.xdlink.rails.RailTransport;
import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.CompletionQueue;
import io.xdlink.rails.verbs.Connecting;
import io.xdlink.rails.verbs.ConnectionFailedException;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceConfig;
import io.xdlink.rails.verbs.Listener;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.ProtectionDomain;
import io.xdlink.rails.verbs.QpAttributes;
import io.xdlink.rails.verbs.QueuePair;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Two devices joined by rails of the transport under test, with one connected queue pair and registered memory on
 * each side: the full rails stack (frames, credits, acknowledgements, retransmission) over that transport. Device
 * {@code a} accepts, device {@code b} connects and does the posting. Both are watched for internal errors
 * ({@link OpenedDevices}).
 */
final class DevicePair implements AutoCloseable {
    static final UUID ID_A = new UUID(0x58444C4B, 0xA);
    static final UUID ID_B = new UUID(0x58444C4B, 0xB);

    final Device a;
    final Device b;
    final CompletionQueue cqA;
    final CompletionQueue cqB;
    final QueuePair qpA;
    final QueuePair qpB;
    final ProtectionDomain pdA;
    final ProtectionDomain pdB;
    final Arena arena = Arena.ofShared();
    private final BiConsumer<String, BooleanSupplier> await;

    private DevicePair(Device a, Device b, CompletionQueue cqA, CompletionQueue cqB, QueuePair qpA, QueuePair qpB,
                       BiConsumer<String, BooleanSupplier> await) {
        this.a = a;
        this.b = b;
        this.cqA = cqA;
        this.cqB = cqB;
        this.qpA = qpA;
        this.qpB = qpB;
        this.pdA = qpA.pd();
        this.pdB = qpB.pd();
        this.await = await;
    }

    /**
     * Opens both devices over their ends of the rails and connects a queue pair.
     *
     * @param configs the configuration of each device by its id
     * @param opened  told of both devices as soon as they exist, before anything waits on them (a virtual-clock
     *                transport steps invoker-mode devices from then on)
     * @param await   waits for a condition, moving the transport (and any virtual clock) on meanwhile
     */
    static DevicePair open(List<RailTransport> atA, List<RailTransport> atB, Function<UUID, DeviceConfig> configs,
                           BiConsumer<Device, Device> opened, BiConsumer<String, BooleanSupplier> await) {
        Device a = OpenedDevices.watch(Device.open(configs.apply(ID_A), atA));
        Device b = OpenedDevices.watch(Device.open(configs.apply(ID_B), atB));
        try {
            opened.accept(a, b);
            CompletionQueue cqA = a.createCq(8192);
            CompletionQueue cqB = b.createCq(8192);
            ProtectionDomain pdA = a.allocPd();
            Listener listener = a.listen();
            Connecting connecting = b.connect(listener.handle(), QpAttributes.of(b.allocPd(), cqB));
            QueuePair[] accepted = new QueuePair[1];
            QueuePair[] connected = new QueuePair[1];
            await.accept("a queue pair to connect", () -> {
                if (accepted[0] == null) {
                    accepted[0] = listener.accept(QpAttributes.of(pdA, cqA));
                }
                if (connected[0] == null) {
                    try {
                        connected[0] = connecting.poll();
                    } catch (ConnectionFailedException e) {
                        throw new AssertionError("connecting failed", e);
                    }
                }
                return accepted[0] != null && connected[0] != null;
            });
            listener.close();
            return new DevicePair(a, b, cqA, cqB, accepted[0], connected[0], await);
        } catch (RuntimeException | AssertionError e) {
            b.close();
            a.close();
            throw e;
        }
    }

    MemorySegment allocate(long bytes) {
        return arena.allocate(bytes, 64);
    }

    MemoryRegion registerA(MemorySegment s) {
        return pdA.register(s, Access.REMOTE_WRITE, Access.LOCAL_WRITE);
    }

    MemoryRegion registerB(MemorySegment s) {
        return pdB.register(s, Access.LOCAL_WRITE);
    }

    /** Polls {@code cq} until {@code n} completions arrived; returns them in arrival order. */
    List<Completion> take(CompletionQueue cq, int n, String what) {
        List<Completion> got = new ArrayList<>();
        await.accept(n + " completions: " + what, () -> {
            for (Completion c; got.size() < n && (c = cq.poll()) != null; ) {
                got.add(c);
            }
            return got.size() == n;
        });
        return got;
    }

    /** Posts until the queue pair takes the request (a full send queue refuses; completions make room). */
    void post(String what, BooleanSupplier posting) {
        await.accept("room to post " + what, posting);
    }

    @Override
    public void close() {
        b.close();
        a.close();
        arena.close();
    }

    @Override
    public String toString() {
        return "DevicePair[" + a + ", " + b + "]";
    }
}
