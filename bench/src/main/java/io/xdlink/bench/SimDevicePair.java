package io.xdlink.bench;

import io.xdlink.params.Origin;
import io.xdlink.params.Params;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.agent.BackoffIdleStrategy;
import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.CompletionQueue;
import io.xdlink.rails.verbs.ConnectHandle;
import io.xdlink.rails.verbs.ConnectionFailedException;
import io.xdlink.rails.verbs.Connecting;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceConfig;
import io.xdlink.rails.verbs.Listener;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.ProtectionDomain;
import io.xdlink.rails.verbs.QpAttributes;
import io.xdlink.rails.verbs.QpState;
import io.xdlink.rails.verbs.QueuePair;
import io.xdlink.sim.LoopbackFabric;
import io.xdlink.xdomain.Scheduler;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.lang.foreign.ValueLayout;

/**
 * Two rails devices in this process joined by one loopback cable ({@code loopback=1} and the given link
 * parameters): device A on the local host, device B on the simulated peer, a connected queue pair, and a source
 * and a target region. A keeps {@code depth} WRITEs of {@code size} bytes in flight; each {@link #nextWrite()}
 * waits for the oldest to complete and posts another, so the cable never idles between messages.
 *
 * <p>In invoker mode the calling thread runs both progress engines itself: what is measured is one core doing the
 * whole path (frame building, the simulated wire, placement, acknowledgements). Otherwise each device has its own
 * progress thread, as a real deployment does.
 */
final class SimDevicePair implements AutoCloseable {
    private final LoopbackFabric fabric;
    private final boolean invoker;
    private final Device a;
    private final Device b;
    private final CompletionQueue cqA;
    private final QueuePair qpA;
    private final MemoryRegion src;
    private final MemoryRegion dst;
    private final Arena arena = Arena.ofShared();
    private final long size;
    /** How long the benchmark thread sleeps between looks at the completion queue, when devices have threads. */
    private static final long WAIT_NANOS = 200_000;
    private long posted;

    SimDevicePair(Map<String, String> link, long size, int depth, boolean invoker) throws Exception {
        this.size = size;
        this.invoker = invoker;
        Params params = Params.defaults().with(link, Origin.explicit("benchmark"));
        this.fabric = LoopbackFabric.open(params.with("loopback", "1", Origin.explicit("benchmark")));
        PeerInfo peer = fabric.peers().getFirst();
        String cable = peer.links().getFirst().id();
        RailTransport near = fabric.openRail(peer.domain(), cable, 0);
        RailTransport far = fabric.far(peer.domain()).orElseThrow().openRail(fabric.localDomain(), cable, 0);
        Scheduler clock = fabric.world().clock().scheduler();
        RailsSettings settings = RailsSettings.from(params);
        a = Device.open(config(settings, clock, 1), List.of(near));
        b = Device.open(config(settings, clock, 2), List.of(far));
        ProtectionDomain pdA = a.allocPd();
        ProtectionDomain pdB = b.allocPd();
        cqA = a.createCq(1 << 12);
        CompletionQueue cqB = b.createCq(1 << 12);
        Listener listener = b.listen();
        Connecting connecting = a.connect(ConnectHandle.parse(listener.handle().toBytes()), QpAttributes.of(pdA, cqA));
        QueuePair accepted = null;
        QueuePair connected = null;
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (connected == null || accepted == null || accepted.state() != QpState.READY) {
            if (System.nanoTime() > deadline) {
                throw new IOException("the benchmark's queue pairs did not connect within 30 s");
            }
            progress();
            if (accepted == null && listener.waiting() > 0) {
                accepted = listener.accept(QpAttributes.of(pdB, cqB));
            }
            if (connected == null) {
                try {
                    connected = connecting.poll();
                } catch (ConnectionFailedException e) {
                    throw new IOException(e);
                }
            }
        }
        qpA = connected;
        MemorySegment s = arena.allocate(size, 4096);
        for (long i = 0; i < size; i += 8) {
            s.set(ValueLayout.JAVA_LONG_UNALIGNED, i, i * 0x9E3779B97F4A7C15L);
        }
        src = pdA.register(s);
        dst = pdB.register(arena.allocate(size, 4096), Access.LOCAL_WRITE, Access.REMOTE_WRITE);
        for (int i = 0; i < depth; i++) {
            post();
        }
    }

    private DeviceConfig config(RailsSettings settings, Scheduler clock, long seed) {
        DeviceConfig.Builder b = DeviceConfig.builder().settings(settings).clock(clock).seed(seed);
        // A progress thread that finds nothing to do parks at once, 200 us at first, 1 ms at most: a paced 40 Gb/s
        // rail drains a 4096-frame ring in 3.4 ms, and the simulator wakes an engine when a frame it waits for is
        // due or half its TX ring has drained, so these parks lose no wire time. What they save is processor time:
        // every wake-up costs tens of microseconds of CPU on a virtual machine, and spinning or yielding between
        // frames cost a paced run several times the CPU per frame, which on a 2-core machine the engines then wait
        // for (at 40 Gb/s, idle box: 1.6 CPU-s per s with 50-200 us parks and 20 spins, 1.2 with these).
        return (invoker ? b.invoker() : b.thread(new BackoffIdleStrategy(0, 0, 200_000, 1_000_000))).build();
    }

    private void post() {
        if (!qpA.postWrite(posted++, src, 0, size, dst.address(), dst.rkey())) {
            throw new IllegalStateException("send queue full");
        }
    }

    private void progress() {
        if (invoker) {
            a.agent().doWork();
            b.agent().doWork();
        } else {
            // The engines have threads of their own; waiting here must not take their processor. Yielding is not
            // enough: a thread that yields in a loop still runs whenever the scheduler looks, on a box shared with
            // other work it took a quarter to a third of a core from the engines. WRITEs in flight keep the cable
            // busy while this thread sleeps, so it sleeps.
            LockSupport.parkNanos(WAIT_NANOS);
        }
    }

    /** Waits for the oldest WRITE to complete, then posts the next; returns the bytes that completed. */
    long nextWrite() {
        Completion c;
        while ((c = cqA.poll()) == null) {
            progress();
        }
        if (!c.isSuccess()) {
            throw new IllegalStateException("write failed: " + c);
        }
        post();
        return size;
    }

    @Override
    public void close() {
        a.close();
        b.close();
        fabric.close();
        arena.close();
    }
}
