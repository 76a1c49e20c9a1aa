package io.xdlink.cluster;

import io.xdlink.ccl.CclException;
import io.xdlink.ccl.CclLog;
import io.xdlink.ccl.CclNet;
import io.xdlink.ccl.CclNets;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceConfig;
import io.xdlink.sim.SimCable;
import io.xdlink.sim.SimFabric;
import io.xdlink.sim.SimHost;
import io.xdlink.sim.SimTopology;
import io.xdlink.sim.fault.FaultPlan;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;

/**
 * N simulated hosts in one process, in virtual time unless asked otherwise ({@link Clockwork}): the fabric the
 * topology cables, one rails device per host (in virtual time all stepped by one driver, so 32 hosts need no 32
 * cores), one
 * {@link CclNet} per host over its device ({@link CclNets#overRails}), and connections with each neighbour set up
 * as NCCL sets them up: the receiver listens, its handle goes to the sender out of band, the sender connects and the
 * receiver accepts, each polled until it is up. Each connection gets its FIFO of registered slots.
 *
 * <p>{@link #run} plays one collective on every host at once and reports the virtual time it took and which hosts
 * saw an error. A cable can be pulled during a run and plugged back afterwards; {@link #reconnect} then replaces
 * every connection, as an application recreates its communicator after an error.
 */
public final class SimCluster implements AutoCloseable {
    /** Virtual time the fabric gets to enumerate: several 10 s bonding timeouts (a refused bond waits one out). */
    private static final long SETTLE_NANOS = 120_000_000_000L;
    /**
     * With no host moving for this long after one saw an error, the rest are aborted, as ncclCommAbort would: past
     * the rails' peer timeout, so every host whose connection ran over the failed cable has heard of it first.
     */
    private final long abortNanos;
    /** With no host moving for this long and no error anywhere, the run is declared hung. */
    private static final long HANG_NANOS = 60_000_000_000L;

    private final ClusterConfig config;
    private final Clockwork clock;
    private final SimFabric fabric;
    private final List<SimHost> hosts;
    private final List<Device> devices = new ArrayList<>();
    private final List<CclNet> nets = new ArrayList<>();
    private final List<Arena> arenas = new ArrayList<>();
    private final long[] bufferBytes;
    private Wiring wiring;

    private SimCluster(ClusterConfig config) {
        this.config = config;
        this.clock = Clockwork.of(config.realTime());
        this.fabric = new SimFabric(clock.simClock(), FaultPlan.NONE);
        this.hosts = config.topology().hosts(i -> config.hostSpec(i)).build(fabric);
        RailsSettings rails = RailsSettings.from(config.params());
        this.abortNanos = rails.peerTimeoutNanos() + rails.railTimeoutNanos() + 100_000_000L;
        this.bufferBytes = new long[hosts.size()];
    }

    /** Builds the cluster, lets the links negotiate, opens every rail and connects every neighbour. */
    public static SimCluster open(ClusterConfig config) throws IOException, CclException {
        SimCluster c = new SimCluster(config);
        try {
            c.start();
            return c;
        } catch (IOException | CclException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private void start() throws IOException, CclException {
        settle();
        RailsSettings settings = RailsSettings.from(config.params());
        for (int i = 0; i < hosts.size(); i++) {
            SimHost h = hosts.get(i);
            Device d = clock.open(DeviceConfig.builder().id(h.domain()).settings(settings)
                    .seed(config.seed() * 1_000_003L + i));
            devices.add(d);
            arenas.add(Arena.ofShared());
        }
        for (SimCable c : fabric.cables()) {
            openRails(c);
        }
        CclLog quiet = (level, subsystems, message) -> {
            if (level == CclLog.Level.WARN) {
                System.getLogger("io.xdlink.cluster").log(System.Logger.Level.WARNING, message);
            }
        };
        List<UUID> domains = new ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            nets.add(CclNets.overRails(hosts.get(i).fabric(), devices.get(i), config.params(), quiet));
            domains.add(hosts.get(i).domain());
        }
        wiring = new Wiring(nets, domains, arenas, config.depth(), config.chunkBytes());
        wiring.connect(neighbourLists(), clock::runUntil);
    }

    private void settle() throws IOException {
        if (!clock.settle(fabric::settled, SETTLE_NANOS)) {
            throw new IOException("the cluster's links did not come up: " + fabric.cables());
        }
    }

    private void openRails(SimCable c) throws IOException {
        int a = hosts.indexOf(c.hostA());
        int b = hosts.indexOf(c.hostB());
        int perLink = devices.get(a).settings().railsPerLink();
        for (int index = 0; index < perLink; index++) {
            RailTransport ta = c.hostA().fabric().openRail(c.hostB().domain(), c.name(), index);
            RailTransport tb = c.hostB().fabric().openRail(c.hostA().domain(), c.name(), index);
            devices.get(a).addRail(ta);
            devices.get(b).addRail(tb);
        }
    }

    private List<List<Integer>> neighbourLists() {
        List<List<Integer>> all = new ArrayList<>();
        for (int r = 0; r < hosts.size(); r++) {
            all.add(neighbours(r));
        }
        return all;
    }

    /** The hosts each host has a cable to. */
    public List<Integer> neighbours(int host) {
        TreeSet<Integer> out = new TreeSet<>();
        for (SimTopology.Cable c : config.topology().cables()) {
            if (c.hostA() == host) {
                out.add(c.hostB());
            } else if (c.hostB() == host) {
                out.add(c.hostA());
            }
        }
        return List.copyOf(out);
    }

    /** Host memory for a collective's buffers, counted in {@link #memoryPerHost}. */
    public MemorySegment allocate(int host, long bytes) {
        bufferBytes[host] += bytes;
        return arenas.get(host).allocate(Math.max(bytes, 1), 4096);
    }

    /**
     * Each host's rails device, in host order, for a caller that looks at their counters or last error after a run
     * (the cross-module tests fail a run whose devices caught an internal error).
     */
    public List<Device> devices() {
        return List.copyOf(devices);
    }

    public int hostCount() {
        return hosts.size();
    }

    public SimTopology topology() {
        return config.topology();
    }

    public ClusterConfig config() {
        return config;
    }

    public List<SimCable> cables() {
        return fabric.cables();
    }

    public SimCable cable(String name) {
        return fabric.cable(name);
    }

    public long nanoTime() {
        return clock.now();
    }

    /** What one host holds: its FIFO slots and its collective buffers, bytes. */
    public record Memory(long fifoBytes, long bufferBytes) {
        public long total() {
            return fifoBytes + bufferBytes;
        }
    }

    public Memory memoryPerHost(int host) {
        return new Memory(wiring == null ? 0 : wiring.fifoBytes(host), bufferBytes[host]);
    }

    /** A fault to apply {@code atNanos} into a run. */
    public record Fault(long atNanos, Runnable action) {
    }

    /**
     * Plays one collective on every host at once, from the same virtual instant, until every host is done or has
     * seen an error; a host that can no longer finish because another failed is aborted.
     *
     * @param runs one per host, host i at index i
     */
    Outcome run(List<HostRun> runs, List<Fault> faults) {
        long t0 = clock.now();
        for (Fault f : faults) {
            clock.scheduler().schedule(f.atNanos(), f.action());
        }
        long lastMove = t0;
        while (true) {
            long now = clock.now();
            boolean moved = false;
            boolean all = true;
            boolean anyError = false;
            for (HostRun h : runs) {
                moved |= h.progress(now);
                all &= h.finished();
                anyError |= h.error() != null;
            }
            if (all) {
                break;
            }
            if (moved) {
                lastMove = now;
                clock.afterMove();
                continue;
            }
            long quiet = now - lastMove;
            if ((anyError && quiet > abortNanos) || quiet > HANG_NANOS) {
                String why = anyError ? "aborted: another host failed" : "hung: nothing moved for "
                        + HANG_NANOS / 1_000_000_000 + " s of virtual time";
                runs.forEach(h -> h.abandon(why));
                break;
            }
            if (!clock.idle()) {
                runs.forEach(h -> h.abandon("hung: nothing left to happen"));
                break;
            }
        }
        List<HostOutcome> out = new ArrayList<>();
        long end = t0;
        for (HostRun h : runs) {
            out.add(new HostOutcome(h.rank(), h.done(), h.error(), h.done() ? h.doneAt() - t0 : -1));
            if (h.done()) {
                end = Math.max(end, h.doneAt());
            }
        }
        return new Outcome(end - t0, out);
    }

    /** How one host's run ended. */
    public record HostOutcome(int host, boolean done, String error, long nanos) {
    }

    /** How a collective ended: the virtual time until the last host finished, and each host's end. */
    public record Outcome(long nanos, List<HostOutcome> hosts) {
        public boolean ok() {
            return hosts.stream().allMatch(HostOutcome::done);
        }

        public List<HostOutcome> failed() {
            return hosts.stream().filter(h -> !h.done()).toList();
        }
    }

    Map<Integer, SendPipe> sendPipes(int host) {
        return wiring.sends(host);
    }

    Map<Integer, RecvPipe> recvPipes(int host) {
        return wiring.recvs(host);
    }

    /**
     * Plugs {@code cable} back in, waits for the hosts to enumerate each other again, opens its rails, and
     * replaces every connection (the old ones failed with it).
     */
    public void replug(SimCable cable) throws IOException, CclException {
        settleAgain(cable);
        reconnect();
    }

    /** Plugs {@code cable} back in if it is out, waits for the hosts to enumerate again and opens its rails. */
    public void settleAgain(SimCable cable) throws IOException {
        if (!cable.isPlugged()) {
            cable.plug();
        }
        if (!clock.settle(fabric::settled, SETTLE_NANOS)) {
            throw new IOException("the hosts did not enumerate again after " + cable.name() + " was plugged back");
        }
        openRails(cable);
    }

    /** Closes every connection and makes new ones, as an application recreates its communicator after an error. */
    public void reconnect() throws CclException {
        wiring.closeAll();
        clock.runUntil(() -> false, 1_000_000);
        wiring.connect(neighbourLists(), clock::runUntil);
    }

    @Override
    public void close() {
        for (CclNet n : nets) {
            n.close();
        }
        for (Device d : devices) {
            d.close();
        }
        fabric.close();
        clock.close();
        for (Arena a : arenas) {
            a.close();
        }
    }
}
