package io.xdlink.cluster;

import io.xdlink.ccl.CclContext;
import io.xdlink.ccl.CclException;
import io.xdlink.ccl.CclLog;
import io.xdlink.ccl.CclNet;
import io.xdlink.ccl.CclNets;
import io.xdlink.ccl.DeviceModel;
import io.xdlink.ccl.DeviceProperties;
import io.xdlink.ccl.ListenComm;
import io.xdlink.ccl.MemoryHandle;
import io.xdlink.ccl.RecvComm;
import io.xdlink.ccl.SendComm;
import io.xdlink.params.Params;
import io.xdlink.rails.PeerInfo;
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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

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
    private static final long CONNECT_NANOS = 10_000_000_000L;
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
    private final List<CclContext> contexts = new ArrayList<>();
    private final List<Arena> arenas = new ArrayList<>();
    private final long[] fifoBytes;
    private final long[] bufferBytes;
    private final List<Map<Integer, SendPipe>> sends = new ArrayList<>();
    private final List<Map<Integer, RecvPipe>> recvs = new ArrayList<>();
    private final List<Map<Integer, MemorySegment[]>> fifos = new ArrayList<>();

    private SimCluster(ClusterConfig config) {
        this.config = config;
        this.clock = Clockwork.of(config.realTime());
        this.fabric = new SimFabric(clock.simClock(), FaultPlan.NONE);
        this.hosts = config.topology().hosts(i -> config.hostSpec(i)).build(fabric);
        RailsSettings rails = RailsSettings.from(config.params());
        this.abortNanos = rails.peerTimeoutNanos() + rails.railTimeoutNanos() + 100_000_000L;
        int n = hosts.size();
        this.fifoBytes = new long[n];
        this.bufferBytes = new long[n];
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
            sends.add(new LinkedHashMap<>());
            recvs.add(new LinkedHashMap<>());
            fifos.add(new HashMap<>());
        }
        for (SimCable c : fabric.cables()) {
            openRails(c);
        }
        CclLog quiet = (level, subsystems, message) -> {
            if (level == CclLog.Level.WARN) {
                System.getLogger("io.xdlink.cluster").log(System.Logger.Level.WARNING, message);
            }
        };
        for (int i = 0; i < hosts.size(); i++) {
            CclNet net = CclNets.overRails(hosts.get(i).fabric(), devices.get(i), config.params(), quiet);
            nets.add(net);
            contexts.add(net.init(1, 0));
        }
        connect();
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

    private int deviceOf(int host, int peer) throws CclException {
        CclNet net = nets.get(host);
        long guid = DeviceModel.guid(new PeerInfo(hosts.get(peer).domain(), "", List.of()));
        for (int d = 0; d < net.devices(); d++) {
            DeviceProperties p = net.properties(d);
            if (p.guid() == guid) {
                return d;
            }
        }
        throw CclException.internal("host " + host + " has no device leading to host " + peer);
    }

    /** Connects every host to each neighbour both ways, as NCCL's transport setup does, and gives each its FIFO. */
    private void connect() throws CclException {
        int n = hosts.size();
        record Pair(int from, int to) {
        }
        Map<Pair, ListenComm> listens = new LinkedHashMap<>();
        Map<Pair, byte[]> handles = new HashMap<>();
        Map<Pair, Integer> fromDev = new HashMap<>();
        for (int r = 0; r < n; r++) {
            for (int p : neighbours(r)) {
                // r receives from p: r listens on its device towards p, p connects with r's handle.
                ListenComm l = nets.get(r).listen(contexts.get(r), deviceOf(r, p));
                Pair pair = new Pair(p, r);
                listens.put(pair, l);
                handles.put(pair, l.handle());
                fromDev.put(pair, deviceOf(p, r));
            }
        }
        Map<Pair, SendComm> sendComms = new HashMap<>();
        Map<Pair, RecvComm> recvComms = new HashMap<>();
        CclException[] failed = new CclException[1];
        boolean up = until(() -> {
            try {
                for (Map.Entry<Pair, ListenComm> e : listens.entrySet()) {
                    Pair pair = e.getKey();
                    if (!sendComms.containsKey(pair)) {
                        SendComm s = nets.get(pair.from()).connect(contexts.get(pair.from()), fromDev.get(pair), 0,
                                handles.get(pair));
                        if (s != null) {
                            sendComms.put(pair, s);
                        }
                    }
                    if (!recvComms.containsKey(pair)) {
                        RecvComm rc = nets.get(pair.to()).accept(e.getValue());
                        if (rc != null) {
                            recvComms.put(pair, rc);
                        }
                    }
                }
            } catch (CclException ex) {
                failed[0] = ex;
                return true;
            }
            return sendComms.size() == listens.size() && recvComms.size() == listens.size();
        }, CONNECT_NANOS);
        for (Map.Entry<Pair, ListenComm> e : listens.entrySet()) {
            nets.get(e.getKey().to()).closeListen(e.getValue());
        }
        if (failed[0] != null) {
            throw failed[0];
        }
        if (!up) {
            throw CclException.internal("the hosts did not connect within " + CONNECT_NANOS / 1_000_000_000
                    + " s of virtual time: " + sendComms.size() + " of " + listens.size() + " sends, "
                    + recvComms.size() + " receives up");
        }
        int depth = config.depth();
        long slot = config.chunkBytes();
        for (Pair pair : listens.keySet()) {
            SendComm s = sendComms.get(pair);
            MemorySegment sf = fifo(pair.from(), pair.to(), 0, depth * slot);
            MemoryHandle sm = nets.get(pair.from()).registerMemory(s, sf, DeviceProperties.PTR_HOST);
            sends.get(pair.from()).put(pair.to(), new SendPipe(nets.get(pair.from()), s, sm, sf, slot, depth,
                    pair.from()));
            RecvComm rc = recvComms.get(pair);
            MemorySegment rf = fifo(pair.to(), pair.from(), 1, depth * slot);
            MemoryHandle rm = nets.get(pair.to()).registerMemory(rc, rf, DeviceProperties.PTR_HOST);
            recvs.get(pair.to()).put(pair.from(), new RecvPipe(nets.get(pair.to()), rc, rm, rf, slot, depth,
                    pair.from()));
        }
    }

    /** The FIFO memory of host {@code host}'s connection with {@code peer} (0 send, 1 receive), kept across reconnects. */
    private MemorySegment fifo(int host, int peer, int side, long bytes) {
        MemorySegment[] both = fifos.get(host).computeIfAbsent(peer, k -> new MemorySegment[2]);
        if (both[side] == null) {
            both[side] = arenas.get(host).allocate(bytes, 4096);
            fifoBytes[host] += bytes;
        }
        return both[side];
    }

    /** Host memory for a collective's buffers, counted in {@link #memoryPerHost}. */
    public MemorySegment allocate(int host, long bytes) {
        bufferBytes[host] += bytes;
        return arenas.get(host).allocate(Math.max(bytes, 1), 4096);
    }

    /** Steps everything until {@code done} holds, or {@code maxNanos} of virtual time pass; whether it holds. */
    private boolean until(BooleanSupplier done, long maxNanos) {
        return clock.runUntil(done, maxNanos);
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
        return new Memory(fifoBytes[host], bufferBytes[host]);
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
        return sends.get(host);
    }

    Map<Integer, RecvPipe> recvPipes(int host) {
        return recvs.get(host);
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
        for (int r = 0; r < hosts.size(); r++) {
            for (SendPipe p : sends.get(r).values()) {
                closeQuietly(() -> nets.get(hostOf(p)).closeSend(p.comm()));
            }
            for (RecvPipe p : recvs.get(r).values()) {
                int host = r;
                closeQuietly(() -> nets.get(host).closeRecv(p.comm()));
            }
            sends.get(r).clear();
            recvs.get(r).clear();
        }
        clock.runUntil(() -> false, 1_000_000);
        connect();
    }

    private int hostOf(SendPipe p) {
        for (int r = 0; r < sends.size(); r++) {
            if (sends.get(r).containsValue(p)) {
                return r;
            }
        }
        throw new IllegalStateException("a pipe of no host");
    }

    private interface Closing {
        void close() throws CclException;
    }

    private static void closeQuietly(Closing c) {
        try {
            c.close();
        } catch (CclException | RuntimeException e) {
            // A failed connection may refuse to close cleanly; it is replaced either way.
        }
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
