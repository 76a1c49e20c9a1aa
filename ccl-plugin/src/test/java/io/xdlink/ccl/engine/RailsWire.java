package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;
import io.xdlink.ccl.EngineTurn;
import io.xdlink.rails.IdleStrategy;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.agent.VirtualTimeDriver;
import io.xdlink.rails.inmemory.InMemoryRailPair;
import io.xdlink.rails.verbs.CompletionQueue;
import io.xdlink.rails.verbs.ConnectionFailedException;
import io.xdlink.rails.verbs.Connecting;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceConfig;
import io.xdlink.rails.verbs.Listener;
import io.xdlink.rails.verbs.ProtectionDomain;
import io.xdlink.rails.verbs.QpAttributes;
import io.xdlink.rails.verbs.QpState;
import io.xdlink.rails.verbs.QueuePair;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.VirtualScheduler;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Two rails devices joined by one in-memory rail, in invoker mode on one virtual clock, with one connected pair of
 * queue pairs made as the plugin makes them: the connecting side's ({@link #sendQp}) on one completion queue, the
 * listening side's ({@link #recvQp}) with its sends on a quiet queue of their own. Nothing moves unless the test
 * steps the engines ({@link #step}, {@link #await}), so every run is the same.
 */
public final class RailsWire implements AutoCloseable {
    public static final int DEPTH = 2 * RecvEndpoint.IMMEDIATE_RECEIVES + 64;
    private static final long CONNECT_NANOS = 10_000_000_000L;

    public final VirtualTimeDriver driver = new VirtualTimeDriver(new VirtualScheduler());
    public final Device connecting;
    public final Device listening;
    public final ProtectionDomain connectingPd;
    public final ProtectionDomain listeningPd;
    public final QueuePair sendQp;
    public final QueuePair recvQp;

    /** A wire whose send side may have {@link #DEPTH} writes outstanding. */
    public RailsWire(long seed) throws Exception {
        this(seed, DEPTH);
    }

    /** A wire whose send side may have {@code sendDepth} writes outstanding. */
    public RailsWire(long seed, int sendDepth) throws Exception {
        InMemoryRailPair rail = InMemoryRailPair.create(new RailInfo("mem0", "cable0", LinkState.of(Generation.GEN3, 2),
                false), 1024);
        connecting = Device.open(config(1, seed), List.of(rail.a()));
        listening = Device.open(config(2, seed + 1), List.of(rail.b()));
        driver.add(connecting.agent()).add(listening.agent());
        connectingPd = connecting.allocPd();
        listeningPd = listening.allocPd();
        CompletionQueue cq = connecting.createCq(4 * DEPTH);
        CompletionQueue recvCq = listening.createCq(4 * DEPTH);
        CompletionQueue quietCq = listening.createCq(4 * DEPTH);
        Listener l = listening.listen();
        Connecting c = connecting.connect(l.handle(), new QpAttributes(connectingPd, cq, cq, sendDepth, DEPTH));
        QueuePair[] accepted = new QueuePair[1];
        QueuePair[] connected = new QueuePair[1];
        boolean ok = driver.runUntil(() -> {
            if (accepted[0] == null) {
                accepted[0] = l.accept(new QpAttributes(listeningPd, quietCq, recvCq, DEPTH, DEPTH));
            }
            try {
                connected[0] = c.poll();
            } catch (ConnectionFailedException e) {
                throw new AssertionError(e);
            }
            return connected[0] != null && accepted[0] != null && accepted[0].state() == QpState.READY;
        }, CONNECT_NANOS);
        if (!ok) {
            throw new AssertionError("the queue pairs never connected");
        }
        l.close();
        sendQp = connected[0];
        recvQp = accepted[0];
    }

    private DeviceConfig config(long id, long seed) {
        return DeviceConfig.builder().id(new UUID(id, id)).settings(RailsSettings.defaults())
                .clock(driver.scheduler()).invoker().seed(seed).build();
    }

    /** The send end over {@link #sendQp}, draining where completions are produced when {@code drain}. */
    public SendEndpoint sendEnd(boolean drain) throws CclException {
        return sendEnd(drain, EngineTurn.NONE);
    }

    /** As {@link #sendEnd(boolean)}, stepping {@code turn} where the plugin steps a real host's engine. */
    public SendEndpoint sendEnd(boolean drain, EngineTurn turn) throws CclException {
        return new SendEndpoint(0, sendQp, turn, drain);
    }

    /** The receive end over {@link #recvQp}. */
    public RecvEndpoint recvEnd(boolean drain) throws CclException {
        return recvEnd(drain, EngineTurn.NONE);
    }

    /** As {@link #recvEnd(boolean)}, stepping {@code turn} where the plugin steps a real host's engine. */
    public RecvEndpoint recvEnd(boolean drain, EngineTurn turn) throws CclException {
        return new RecvEndpoint(0, recvQp, turn, drain);
    }

    /** Runs both engines until neither has anything to do now, and lets due timers fire. */
    public void step() {
        driver.advance();
    }

    /**
     * Tests {@code r}, stepping the engines between tests, until it is done; false if it never is.
     *
     * @throws CclException what the test throws: the request failed
     */
    public boolean await(EngineRequest r, long[] sizes) throws CclException {
        for (int i = 0; i < 10_000; i++) {
            if (r.test(sizes)) {
                return true;
            }
            step();
        }
        return false;
    }

    @Override
    public void close() {
        connecting.close();
        listening.close();
    }

    /**
     * An idle strategy for a turn's standby that sleeps until {@code stop} is set: after its first cycle the standby
     * runs none, so every cycle is a host call's and the wire alone moves the engines.
     */
    public static IdleStrategy sleepsUntil(AtomicBoolean stop) {
        return work -> {
            while (!stop.get()) {
                LockSupport.parkNanos(1_000_000);
            }
        };
    }

    /** {@code size} bytes of seeded noise, 64-byte aligned. */
    public static MemorySegment filled(Arena arena, long size, long seed) {
        MemorySegment s = arena.allocate(Math.max(1, size), 64).asSlice(0, size);
        SplittableRandom r = new SplittableRandom(seed);
        long i = 0;
        for (; i + 8 <= size; i += 8) {
            s.set(ValueLayout.JAVA_LONG_UNALIGNED, i, r.nextLong());
        }
        for (; i < size; i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) r.nextInt());
        }
        return s;
    }
}
