package io.xdlink.rails.verbs;

import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.agent.VirtualTimeDriver;
import io.xdlink.rails.inmemory.RailFaultPlan;
import io.xdlink.rails.inmemory.InMemoryRailPair;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.VirtualScheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Two devices joined by in-memory rails, in invoker mode on one virtual clock: the test fixture for the verbs and
 * for the engine behind them. Closes everything it opened.
 */
public final class TwoDevices implements AutoCloseable {
    public final VirtualScheduler clock = new VirtualScheduler();
    public final VirtualTimeDriver driver = new VirtualTimeDriver(clock);
    public final List<InMemoryRailPair> pairs = new ArrayList<>();
    public final Device a;
    public final Device b;
    public final ProtectionDomain pdA;
    public final ProtectionDomain pdB;
    public final CompletionQueue cqA;
    public final CompletionQueue cqB;
    private QueuePair qpA;
    private QueuePair qpB;

    /**
     * @param links       link ids, one rail per entry (repeat an id for two rails on one cable)
     * @param lossy       whether the rails may lose frames
     * @param settings    the rails parameters for both devices
     * @param ringFrames  each direction's receive ring
     */
    public TwoDevices(List<String> links, LinkState state, boolean lossy, RailsSettings settings, int ringFrames,
                      long seed) {
        this(links, state, lossy, settings, ringFrames, seed, false);
    }

    /** As above; {@code byReference}: the rails carry data payloads by reference (one copy, into the target). */
    public TwoDevices(List<String> links, LinkState state, boolean lossy, RailsSettings settings, int ringFrames,
                      long seed, boolean byReference) {
        this(pairs(links, state, lossy, ringFrames, byReference), settings, seed);
    }

    private TwoDevices(List<InMemoryRailPair> made, RailsSettings settings, long seed) {
        this(made.stream().map(InMemoryRailPair::a).toList(), made.stream().map(InMemoryRailPair::b).toList(),
                settings, seed);
        pairs.addAll(made);
    }

    private static List<InMemoryRailPair> pairs(List<String> links, LinkState state, boolean lossy, int ringFrames,
                                                boolean byReference) {
        List<InMemoryRailPair> made = new ArrayList<>();
        for (int i = 0; i < links.size(); i++) {
            RailInfo info = new RailInfo("mem" + i, links.get(i), state, lossy);
            made.add(byReference
                    ? InMemoryRailPair.createByReference(info, ringFrames, io.xdlink.rails.inmemory.RailFaultPlan.NONE)
                    : InMemoryRailPair.create(info, ringFrames));
        }
        return made;
    }

    /** Two devices over the given transports: {@code ends} for A, {@code others} (their far ends) for B. */
    public TwoDevices(List<? extends io.xdlink.rails.RailTransport> ends,
                      List<? extends io.xdlink.rails.RailTransport> others, RailsSettings settings, long seed) {
        a = Device.open(DeviceConfig.builder().id(new UUID(1, 1)).settings(settings).clock(clock).invoker()
                .seed(seed).build(), ends);
        b = Device.open(DeviceConfig.builder().id(new UUID(2, 2)).settings(settings).clock(clock).invoker()
                .seed(seed + 1).build(), others);
        driver.add(a.agent()).add(b.agent());
        pdA = a.allocPd();
        pdB = b.allocPd();
        cqA = a.createCq(1 << 16);
        cqB = b.createCq(1 << 16);
    }

    public static TwoDevices simple(int rails) {
        List<String> links = new ArrayList<>();
        for (int i = 0; i < rails; i++) {
            links.add("cable" + i);
        }
        return new TwoDevices(links, LinkState.of(Generation.GEN3, 2), false, RailsSettings.defaults(), 1024, 42);
    }

    public void faults(RailFaultPlan plan) {
        for (int i = 0; i < pairs.size(); i++) {
            pairs.get(i).faults(plan.withSeed(plan.seed() + 31L * i));
        }
    }

    /** Connects a queue pair of A (listening) with one of B (connecting). */
    public TwoDevices connect() throws Exception {
        Listener l = a.listen();
        Connecting c = b.connect(ConnectHandle.parse(l.handle().toBytes()), QpAttributes.of(pdB, cqB));
        boolean ok = driver.runUntil(() -> l.waiting() > 0, 10_000_000_000L);
        if (!ok) {
            throw new AssertionError("no connection request reached the listener");
        }
        qpA = l.accept(QpAttributes.of(pdA, cqA));
        QueuePair[] got = new QueuePair[1];
        ok = driver.runUntil(() -> {
            try {
                got[0] = c.poll();
            } catch (ConnectionFailedException e) {
                throw new AssertionError(e);
            }
            return got[0] != null && qpA.state() == QpState.READY;
        }, 10_000_000_000L);
        if (!ok) {
            throw new AssertionError("connect did not finish: " + c.queuePair());
        }
        qpB = got[0];
        return this;
    }

    /** A's queue pair, once {@link #connect()} connected it. */
    public QueuePair qpA() {
        return qpA;
    }

    /** B's queue pair, once {@link #connect()} connected it. */
    public QueuePair qpB() {
        return qpB;
    }

    /** A connected pair of queue pairs with their domains and completion queues. */
    public record Connected(ProtectionDomain pdA, CompletionQueue cqA, QueuePair qpA, ProtectionDomain pdB,
                            CompletionQueue cqB, QueuePair qpB) {
    }

    /** Connects a queue pair of {@code b} to one of {@code a} (listening), stepping {@code driver}. */
    public static Connected connect(VirtualTimeDriver driver, Device a, Device b) throws Exception {
        ProtectionDomain pdA = a.allocPd();
        ProtectionDomain pdB = b.allocPd();
        CompletionQueue cqA = a.createCq(1 << 16);
        CompletionQueue cqB = b.createCq(1 << 16);
        Listener l = a.listen();
        Connecting c = b.connect(l.handle(), QpAttributes.of(pdB, cqB));
        QueuePair[] qpA = new QueuePair[1];
        QueuePair[] qpB = new QueuePair[1];
        boolean ok = driver.runUntil(() -> {
            if (qpA[0] == null) {
                qpA[0] = l.accept(QpAttributes.of(pdA, cqA));
            }
            try {
                qpB[0] = c.poll();
            } catch (ConnectionFailedException e) {
                throw new AssertionError(e);
            }
            return qpB[0] != null && qpA[0] != null && qpA[0].state() == QpState.READY;
        }, 10_000_000_000L);
        if (!ok) {
            throw new AssertionError("connect did not finish");
        }
        return new Connected(pdA, cqA, qpA[0], pdB, cqB, qpB[0]);
    }

    /** Runs until {@code cq} holds a completion and returns it. */
    public Completion next(CompletionQueue cq) {
        Completion[] got = new Completion[1];
        driver.runUntil(() -> (got[0] = cq.poll()) != null, 60_000_000_000L);
        if (got[0] == null) {
            throw new AssertionError("no completion; A " + a.stats() + " B " + b.stats());
        }
        return got[0];
    }

    /** Lets the devices settle: every timer due within {@code nanos} of virtual time runs. */
    public void settle(long nanos) {
        driver.runFor(nanos);
    }

    @Override
    public void close() {
        a.close();
        b.close();
    }
}
