package io.xdlink.sim;

import io.xdlink.sim.fault.FaultEvent;
import io.xdlink.sim.fault.FaultPlan;
import io.xdlink.sim.wire.Waker;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import io.xdlink.rails.Fabric;

/**
 * A simulated USB4 fabric: hosts with ports, and cables between them. Each host runs the real XDomain discovery on
 * each plugged port and offers a {@link Fabric} view ({@link SimHost#fabric()}) whose peers, links
 * and link states all come out of that negotiation; rails open over cables and share each cable's bandwidth per
 * direction.
 *
 * <p>Everything runs on one clock ({@link SimClock}): in virtual time a test advances the scheduler and the whole
 * fabric moves deterministically; in real time the scheduler's thread runs the control plane and rails are paced
 * by the wall clock. The {@link FaultPlan}'s events are scheduled at their times, counted from the fabric's
 * creation.
 */
public final class SimFabric implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.xdlink.sim");

    private final SimClock clock;
    private final FaultPlan plan;
    private final Waker waker;
    private final Map<String, SimHost> hosts = new LinkedHashMap<>();
    private final Map<String, SimCable> cables = new LinkedHashMap<>();
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final List<Consumer<String>> warningListeners = new CopyOnWriteArrayList<>();
    private boolean closed;

    public SimFabric(SimClock clock, FaultPlan plan) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.plan = Objects.requireNonNull(plan, "plan");
        this.waker = new Waker(clock);
        for (FaultEvent e : plan.events()) {
            clock.scheduler().schedule(e.atNanos(), () -> apply(e));
        }
    }

    /** A clean fabric on {@code clock}. */
    public SimFabric(SimClock clock) {
        this(clock, FaultPlan.NONE);
    }

    public SimClock clock() {
        return clock;
    }

    public FaultPlan plan() {
        return plan;
    }

    Waker waker() {
        return waker;
    }

    /** Adds a host; it boots at once. */
    public synchronized SimHost addHost(HostSpec spec) {
        checkOpen();
        if (hosts.containsKey(spec.name())) {
            throw new IllegalArgumentException("a host named '" + spec.name() + "' exists already");
        }
        for (SimHost h : hosts.values()) {
            if (h.domain().equals(spec.domain())) {
                throw new IllegalArgumentException("host '" + spec.name() + "' has the domain UUID of '" + h.name()
                        + "': " + spec.domain());
            }
        }
        SimHost host = new SimHost(this, spec);
        hosts.put(spec.name(), host);
        return host;
    }

    /**
     * Joins {@code portA} of {@code a} and {@code portB} of {@code b} with a cable named {@code name}, plugged in at
     * once: both hosts start discovering each other.
     */
    public SimCable connect(String name, SimHost a, int portA, SimHost b, int portB, CableSpec spec) {
        SimCable cable;
        synchronized (this) {
            checkOpen();
            if (cables.containsKey(name)) {
                throw new IllegalArgumentException("a cable named '" + name + "' exists already");
            }
            SimPort pa = a.port(portA);
            SimPort pb = b.port(portB);
            if (pa == pb) {
                throw new IllegalArgumentException("a cable needs two ports, not " + pa + " twice");
            }
            for (SimPort p : List.of(pa, pb)) {
                if (p.cable() != null) {
                    throw new IllegalArgumentException(p + " has cable '" + p.cable().name() + "' in it already");
                }
            }
            cable = new SimCable(this, name, spec, pa, pb);
            pa.cable(cable);
            pb.cable(cable);
            cables.put(name, cable);
        }
        cable.plug();
        return cable;
    }

    /** Joins the first free ports of {@code a} and {@code b} with a cable named {@code cable<N>}. */
    public SimCable connect(SimHost a, SimHost b, CableSpec spec) {
        String name;
        synchronized (this) {
            name = "cable" + cables.size();
        }
        return connect(name, a, a.freePort(), b, b.freePort(), spec);
    }

    public synchronized SimHost host(String name) {
        SimHost h = hosts.get(name);
        if (h == null) {
            throw new IllegalArgumentException("no host named '" + name + "'");
        }
        return h;
    }

    public synchronized SimCable cable(String name) {
        SimCable c = cables.get(name);
        if (c == null) {
            throw new IllegalArgumentException("no cable named '" + name + "'");
        }
        return c;
    }

    synchronized SimCable findCable(String name) {
        return cables.get(name);
    }

    public synchronized List<SimHost> hosts() {
        return List.copyOf(hosts.values());
    }

    public synchronized List<SimCable> cables() {
        return List.copyOf(cables.values());
    }

    /**
     * True when every plugged cable between two running hosts has finished discovery on both ends, so
     * {@link Fabric#peers()} shows everything the cabling allows.
     */
    public boolean settled() {
        for (SimCable c : cables()) {
            if (!c.settled()) {
                return false;
            }
        }
        return true;
    }

    /** Every warning so far (DMA ring fallbacks), in order. */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /** Calls {@code listener} with each warning from now on, besides logging it. */
    public void onWarning(Consumer<String> listener) {
        warningListeners.add(listener);
    }

    void warn(String message) {
        warnings.add(message);
        LOG.log(System.Logger.Level.WARNING, message);
        for (Consumer<String> l : warningListeners) {
            l.accept(message);
        }
    }

    private void apply(FaultEvent e) {
        switch (e) {
            case FaultEvent.CablePull p -> cable(p.cable()).unplug();
            case FaultEvent.CableReplug p -> cable(p.cable()).plug();
            case FaultEvent.HostCrash c -> host(c.host()).crash();
            case FaultEvent.HostRestart r -> host(r.host()).restart();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the simulated fabric is closed");
        }
    }

    /** Unplugs every cable: every rail fails, every discovery stops. */
    @Override
    public void close() {
        Collection<SimCable> all;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            all = new ArrayList<>(cables.values());
        }
        for (SimCable c : all) {
            c.linkDown("the simulated fabric closed");
        }
        for (SimHost h : hosts()) {
            h.fabric().close();
        }
    }

    synchronized boolean isClosed() {
        return closed;
    }
}
