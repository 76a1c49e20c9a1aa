package io.xdlink.rails.verbs;

import io.xdlink.rails.Agent;
import io.xdlink.rails.Fabric;
import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.agent.AgentRunner;
import io.xdlink.rails.engine.Command;
import io.xdlink.rails.engine.DeviceEngine;
import io.xdlink.rails.engine.KeyTable;
import io.xdlink.rails.engine.PendingConnection;

import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import io.xdlink.rails.agent.VirtualTimeDriver;
import io.xdlink.xdomain.VirtualScheduler;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * An RDMA-style device over rails: memory registration, completion queues, listeners and connections, and one
 * progress engine that owns every rail. Rails to the same peer (found by the HELLO each rail starts with) form one
 * pool that the device stripes across, acknowledges as one and fails over within.
 *
 * <p>Nothing here blocks but {@link #close()}: calls hand their work to the engine through queues. The engine runs
 * on a thread of its own, or, in invoker mode ({@link DeviceConfig#invoker()}), whenever the owner calls
 * {@code agent().doWork()}; with a {@link VirtualScheduler} clock and a
 * {@link VirtualTimeDriver} a whole fabric of devices runs deterministically in virtual time.
 *
 * <pre>{@code
 * Device a = Device.open(config, List.of(rail0, rail1));
 * ProtectionDomain pd = a.allocPd();
 * CompletionQueue cq = a.createCq(1024);
 * MemoryRegion mr = pd.register(segment, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
 * Listener l = a.listen();                       // l.handle().toBytes() goes to the peer
 * QueuePair qp = l.accept(QpAttributes.of(pd, cq)); // null until a request arrived
 * // on the peer: Connecting c = b.connect(ConnectHandle.parse(bytes), attrs); c.poll() until non-null
 * qp.postWrite(1, mr, 0, 4096, remoteAddress, rkey);
 * Completion done = cq.poll();                   // null until it completes
 * }</pre>
 */
public final class Device implements AutoCloseable {
    private final DeviceConfig config;
    private final DeviceEngine engine;
    private final KeyTable keys;
    private final AtomicInteger listenerIds = new AtomicInteger();
    private final AgentRunner runner;
    private volatile FabricRails fabricRails;
    private volatile boolean closed;

    private Device(DeviceConfig config) {
        this.config = config;
        SplittableRandom seeds = new SplittableRandom(config.seed());
        this.keys = new KeyTable(seeds.split());
        this.engine = new DeviceEngine(this, config.settings(), config.clock(), config.id(), seeds.nextLong(), keys);
        this.runner = config.invoker() ? null : AgentRunner.start(engine, config.idle(), engine::internalError,
                config.clock()::nanoTime);
        if (runner != null) {
            engine.waker(runner::wake);
        }
    }

    /** A device over rails that are already open (to one peer or several). */
    public static Device open(DeviceConfig config, List<? extends RailTransport> rails) {
        Device d = new Device(Objects.requireNonNull(config, "config"));
        for (RailTransport t : rails) {
            d.addRail(t);
        }
        return d;
    }

    /**
     * A device over every link to every peer of a fabric, {@code rails_per_link} rails on each. Rails are opened
     * in the background (opening may wait for the peer's side) and join as they come; a rail whose transport
     * closes is opened again; peers that appear later are picked up.
     */
    public static Device open(Fabric fabric, DeviceConfig config) {
        Device d = new Device(Objects.requireNonNull(config, "config"));
        d.fabricRails = FabricRails.start(d, fabric);
        return d;
    }

    /** This device's identity. */
    public UUID id() {
        return config.id();
    }

    public DeviceConfig config() {
        return config;
    }

    public RailsSettings settings() {
        return config.settings();
    }

    /** The progress engine, for invoker mode: call {@code doWork()} (and a driver its deadline) from one thread. */
    public Agent agent() {
        return engine;
    }

    /**
     * In invoker mode, who wakes the thread that steps the engine when it parks: called (from any thread) when work
     * is handed to the engine and when frames arrive on a rail that reports arrivals, for an owner whose idle
     * strategy parks rather than waits on its rails (a simulated fabric). Set it before the first rail is added.
     *
     * @throws IllegalStateException when the device runs a thread of its own, which wakes itself
     */
    public void wakeOwnerWith(Runnable wake) {
        Objects.requireNonNull(wake, "wake");
        if (runner != null) {
            throw new IllegalStateException("device " + id() + " runs its own progress thread");
        }
        engine.waker(wake);
    }

    /**
     * Adds a rail; it says HELLO and joins its peer's pool. Any thread.
     *
     * @throws IllegalArgumentException when the rail carries smaller frames than this device sends
     *                                  ({@code frame_bytes}); the rail is closed
     */
    public void addRail(RailTransport transport) {
        Objects.requireNonNull(transport, "transport");
        if (closed) {
            transport.close();
            throw new IllegalStateException("device " + id() + " is closed");
        }
        int frameBytes = config.settings().frameBytes();
        if (transport.maxFrameBytes() < frameBytes) {
            transport.close();
            throw new IllegalArgumentException("rail " + transport.info().name() + " carries frames of at most "
                    + transport.maxFrameBytes() + " bytes; this device sends frames of up to " + frameBytes
                    + " (frame_bytes)");
        }
        engine.submit(new Command() {
            @Override
            protected void run(DeviceEngine e) {
                e.addRail(transport);
            }
        });
    }

    /**
     * Sends at once every acknowledgement this device owes its peers (a coalesced ACK otherwise waits for more
     * frames or its delay) and waits, at most {@code maxWaitNanos}, until it has gone to the rails. For a host about
     * to exit after its last receives: the peer's sends then complete instead of failing when the rails go.
     * Returns false when the wait ran out (the engine was not running) or the device is closed. Not from the
     * engine's own thread.
     */
    public boolean acknowledgeNow(long maxWaitNanos) {
        if (closed) {
            return false;
        }
        if (runner == null) {
            engine.acknowledgeOwed();
            return true;
        }
        CountDownLatch done = new CountDownLatch(1);
        engine.submit(new Command() {
            @Override
            protected void run(DeviceEngine e) {
                e.acknowledgeOwed();
                done.countDown();
            }
        });
        try {
            return done.await(maxWaitNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public ProtectionDomain allocPd() {
        return new ProtectionDomain(this);
    }

    /** A completion queue whose ring holds {@code capacity} completions before it overflows into a list. */
    public CompletionQueue createCq(int capacity) {
        if (capacity < 1 || capacity > 1 << 24) {
            throw new IllegalArgumentException("capacity is 1.." + (1 << 24) + ", not " + capacity);
        }
        return new CompletionQueue(this, capacity);
    }

    /** Starts listening for connections; the listener's handle says where to connect. */
    public Listener listen() {
        checkOpen();
        int id = listenerIds.incrementAndGet();
        Listener l = new Listener(this, id);
        engine.listen(l, l.backlog);
        return l;
    }

    /**
     * Starts connecting a new queue pair to the listener {@code handle} names; poll the result until it yields
     * the connected queue pair. The device must have (or get, within the connect timeout) a rail to that peer.
     */
    public Connecting connect(ConnectHandle handle, QpAttributes attrs) {
        Objects.requireNonNull(handle, "handle");
        QueuePair qp = newQp(attrs);
        Connecting c = new Connecting(qp);
        qp.core().madeByConnect();
        engine.submit(new Command() {
            @Override
            protected void run(DeviceEngine e) {
                e.connect(qp.core(), handle);
            }
        });
        return c;
    }

    QueuePair accept(QpAttributes attrs, PendingConnection p) {
        QueuePair qp = newQp(attrs);
        engine.submit(new Command() {
            @Override
            protected void run(DeviceEngine e) {
                e.accept(qp.core(), p);
            }
        });
        return qp;
    }

    private QueuePair newQp(QpAttributes attrs) {
        Objects.requireNonNull(attrs, "attrs");
        checkOpen();
        if (attrs.pd().device() != this || attrs.sendCq().device() != this || attrs.recvCq().device() != this) {
            throw new IllegalArgumentException("the protection domain and completion queues must be this device's");
        }
        return new QueuePair(this, engine, attrs);
    }

    void closeListener(Listener l) {
        engine.submit(new Command() {
            @Override
            protected void run(DeviceEngine e) {
                e.listenerClosed(l, l.backlog);
            }
        });
    }

    KeyTable keys() {
        return keys;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("device " + id() + " is closed");
        }
    }

    /** Counters: exact in invoker mode or when idle, approximate while a progress thread runs. */
    public DeviceStats stats() {
        return engine.stats();
    }

    /**
     * Data frames this device has received so far, read cheaply from any thread while the engine runs, at most a
     * moment behind it: for a watcher on another thread that only needs to see the peer's traffic still arriving.
     */
    public long dataFramesReceived() {
        return engine.dataFramesReceivedFromAnyThread();
    }

    /**
     * The last internal error the progress engine caught and lived through, for diagnosis; null when none. Each one
     * is counted in {@link DeviceStats#internalErrors()}.
     */
    public Throwable lastError() {
        return engine.lastError();
    }

    /** Why the last rail this device lost was closed, for diagnosis; null when none closed. */
    public RailClosedException lastRailClosure() {
        return engine.lastRailClosure();
    }

    public boolean isClosed() {
        return closed;
    }

    /**
     * Closes the device, safely while traffic runs: every outstanding request completes with an error status on its
     * completion queue, every transport is closed, the progress thread ends. In invoker mode call it from the
     * thread that steps the engine. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        FabricRails fr = fabricRails;
        if (fr != null) {
            fr.close();
        }
        if (runner != null) {
            runner.close();
        } else {
            engine.shutdown();
        }
    }

    @Override
    public String toString() {
        return "Device[" + id() + (closed ? ", closed" : "") + "]";
    }
}
