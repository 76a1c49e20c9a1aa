package io.xdlink.sim;

import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.agent.VirtualTimeDriver;
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

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.UUID;

/**
 * Two rails devices, one on each of two simulated hosts, driven by the real progress engines in invoker mode on the
 * fabric's virtual clock: the fixture for measuring the simulator through the whole data plane.
 */
final class SimDevices implements AutoCloseable {
    final VirtualFabric v;
    final SimHost hostA;
    final SimHost hostB;
    final VirtualTimeDriver driver;
    final Device a;
    final Device b;
    final ProtectionDomain pdA;
    final ProtectionDomain pdB;
    final CompletionQueue cqA;
    final CompletionQueue cqB;
    final Arena arena = Arena.ofShared();
    final java.util.List<RailTransport> railsA = new java.util.ArrayList<>();
    QueuePair qpA;
    QueuePair qpB;

    SimDevices(VirtualFabric v, SimHost hostA, SimHost hostB, RailsSettings settings, long seed) {
        this.v = v;
        this.hostA = hostA;
        this.hostB = hostB;
        this.driver = new VirtualTimeDriver(v.scheduler);
        this.a = Device.open(DeviceConfig.builder().id(new UUID(1, seed)).settings(settings).clock(v.scheduler)
                .invoker().seed(seed).build(), java.util.List.of());
        this.b = Device.open(DeviceConfig.builder().id(new UUID(2, seed)).settings(settings).clock(v.scheduler)
                .invoker().seed(seed + 1).build(), java.util.List.of());
        driver.add(a.agent()).add(b.agent());
        pdA = a.allocPd();
        pdB = b.allocPd();
        cqA = a.createCq(1 << 16);
        cqB = b.createCq(1 << 16);
    }

    /** Opens rail {@code index} over {@code cable} on both hosts and gives each end to its device. */
    SimDevices rail(SimCable cable, int index) throws IOException {
        RailTransport ra = hostA.fabric().openRail(hostB.domain(), cable.name(), index);
        RailTransport rb = hostB.fabric().openRail(hostA.domain(), cable.name(), index);
        railsA.add(ra);
        a.addRail(ra);
        b.addRail(rb);
        return this;
    }

    /** Connects a queue pair of A (listening) with one of B (connecting). */
    SimDevices connect() throws Exception {
        Listener l = a.listen();
        Connecting c = b.connect(ConnectHandle.parse(l.handle().toBytes()), QpAttributes.of(pdB, cqB));
        if (!driver.runUntil(() -> l.waiting() > 0, 10 * VirtualFabric.S)) {
            throw new AssertionError("no connection request reached the listener");
        }
        qpA = l.accept(QpAttributes.of(pdA, cqA));
        QueuePair[] got = new QueuePair[1];
        boolean ok = driver.runUntil(() -> {
            try {
                got[0] = c.poll();
            } catch (ConnectionFailedException e) {
                throw new AssertionError(e);
            }
            return got[0] != null && qpA.state() == QpState.READY;
        }, 10 * VirtualFabric.S);
        if (!ok) {
            throw new AssertionError("connect did not finish");
        }
        qpB = got[0];
        return this;
    }

    /** A registered buffer of {@code bytes} filled with a pattern that differs at every offset mod 251. */
    MemoryRegion source(ProtectionDomain pd, long bytes) {
        MemorySegment s = arena.allocate(bytes, 64);
        for (long i = 0; i < bytes; i++) {
            s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) (1 + i % 251));
        }
        return pd.register(s);
    }

    MemoryRegion target(ProtectionDomain pd, long bytes) {
        return pd.register(arena.allocate(bytes, 64), Access.LOCAL_WRITE, Access.REMOTE_WRITE);
    }

    /** Runs until {@code cq} holds a completion; fails after {@code maxNanos} of virtual time. */
    Completion next(CompletionQueue cq, long maxNanos) {
        Completion[] got = new Completion[1];
        driver.runUntil(() -> (got[0] = cq.poll()) != null, maxNanos);
        if (got[0] == null) {
            throw new AssertionError("no completion; A " + a.stats() + " B " + b.stats());
        }
        return got[0];
    }

    /**
     * Writes {@code bytes} from {@code from}'s queue pair into the other device's memory and returns the rate in
     * Mb/s, virtual time from the post to the sender's completion.
     */
    double writeRate(boolean fromA, long bytes) {
        QueuePair qp = fromA ? qpA : qpB;
        MemoryRegion src = source(fromA ? pdA : pdB, bytes);
        MemoryRegion dst = target(fromA ? pdB : pdA, bytes);
        long t0 = v.scheduler.nanoTime();
        if (!qp.postWrite(7, src, 0, bytes, dst.address(), dst.rkey())) {
            throw new AssertionError("the send queue is full");
        }
        Completion c = next(fromA ? cqA : cqB, 60 * VirtualFabric.S);
        if (!c.isSuccess()) {
            throw new AssertionError("write failed: " + c);
        }
        long t1 = v.scheduler.nanoTime();
        if (dst.segment().mismatch(src.segment()) != -1) {
            throw new AssertionError("the written bytes differ");
        }
        return bytes * 8.0 / (t1 - t0) * 1000;
    }

    @Override
    public void close() {
        a.close();
        b.close();
        arena.close();
        v.fabric.close();
    }
}
