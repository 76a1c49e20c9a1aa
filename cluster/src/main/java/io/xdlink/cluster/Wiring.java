package io.xdlink.cluster;

import io.xdlink.ccl.CclContext;
import io.xdlink.ccl.CclException;
import io.xdlink.ccl.CclNet;
import io.xdlink.ccl.DeviceModel;
import io.xdlink.ccl.DeviceProperties;
import io.xdlink.ccl.ListenComm;
import io.xdlink.ccl.MemoryHandle;
import io.xdlink.ccl.RecvComm;
import io.xdlink.ccl.SendComm;
import io.xdlink.rails.PeerInfo;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;

/**
 * The connections between neighbours, made the way NCCL's transport setup makes them: the receiver listens on its
 * device towards the sender, the listen handle goes to the sender out of band, the sender connects and the receiver
 * accepts, both polled until they are up. Each connection end gets its FIFO of registered slots (kept across
 * reconnects, registered anew on each new comm) and its pipe.
 */
final class Wiring {
    private static final long CONNECT_NANOS = 10_000_000_000L;

    /** Moves the cluster on until a condition holds or time runs out. */
    interface Waiter {
        boolean runUntil(BooleanSupplier done, long maxNanos);
    }

    private final List<CclNet> nets;
    private final List<UUID> domains;
    private final List<Arena> arenas;
    private final int depth;
    private final long slotBytes;
    private final List<CclContext> contexts = new ArrayList<>();
    private final long[] fifoBytes;
    private final List<Map<Integer, SendPipe>> sends = new ArrayList<>();
    private final List<Map<Integer, RecvPipe>> recvs = new ArrayList<>();
    private final List<Map<Integer, MemorySegment[]>> fifos = new ArrayList<>();

    Wiring(List<CclNet> nets, List<UUID> domains, List<Arena> arenas, int depth, long slotBytes) throws CclException {
        this.nets = nets;
        this.domains = domains;
        this.arenas = arenas;
        this.depth = depth;
        this.slotBytes = slotBytes;
        this.fifoBytes = new long[nets.size()];
        for (CclNet net : nets) {
            contexts.add(net.init(1, 0));
            sends.add(new LinkedHashMap<>());
            recvs.add(new LinkedHashMap<>());
            fifos.add(new HashMap<>());
        }
    }

    Map<Integer, SendPipe> sends(int host) {
        return sends.get(host);
    }

    Map<Integer, RecvPipe> recvs(int host) {
        return recvs.get(host);
    }

    long fifoBytes(int host) {
        return fifoBytes[host];
    }

    private int deviceOf(int host, int peer) throws CclException {
        CclNet net = nets.get(host);
        long guid = DeviceModel.guid(new PeerInfo(domains.get(peer), "", List.of()));
        for (int d = 0; d < net.devices(); d++) {
            if (net.properties(d).guid() == guid) {
                return d;
            }
        }
        throw CclException.internal("host " + host + " has no device leading to host " + peer);
    }

    private record Pair(int from, int to) {
    }

    /** Connects every host to each of its neighbours both ways and gives each end its FIFO and pipe. */
    void connect(List<List<Integer>> neighbours, Waiter waiter) throws CclException {
        Map<Pair, ListenComm> listens = new LinkedHashMap<>();
        Map<Pair, byte[]> handles = new HashMap<>();
        Map<Pair, Integer> fromDev = new HashMap<>();
        for (int r = 0; r < nets.size(); r++) {
            for (int p : neighbours.get(r)) {
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
        boolean up = waiter.runUntil(() -> {
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
                    + " s: " + sendComms.size() + " of " + listens.size() + " sends, " + recvComms.size()
                    + " receives up");
        }
        for (Pair pair : listens.keySet()) {
            SendComm s = sendComms.get(pair);
            MemorySegment sf = fifo(pair.from(), pair.to(), 0);
            MemoryHandle sm = nets.get(pair.from()).registerMemory(s, sf, DeviceProperties.PTR_HOST);
            sends.get(pair.from()).put(pair.to(), new SendPipe(nets.get(pair.from()), s, sm, sf, slotBytes, depth,
                    pair.from()));
            RecvComm rc = recvComms.get(pair);
            MemorySegment rf = fifo(pair.to(), pair.from(), 1);
            MemoryHandle rm = nets.get(pair.to()).registerMemory(rc, rf, DeviceProperties.PTR_HOST);
            recvs.get(pair.to()).put(pair.from(), new RecvPipe(nets.get(pair.to()), rc, rm, rf, slotBytes, depth,
                    pair.from()));
        }
    }

    /** The FIFO of host {@code host}'s connection with {@code peer} (0 send, 1 receive), kept across reconnects. */
    private MemorySegment fifo(int host, int peer, int side) {
        MemorySegment[] both = fifos.get(host).computeIfAbsent(peer, k -> new MemorySegment[2]);
        if (both[side] == null) {
            both[side] = arenas.get(host).allocate(depth * slotBytes, 4096);
            fifoBytes[host] += depth * slotBytes;
        }
        return both[side];
    }

    /** Closes every connection (a failed one may refuse to close cleanly; it is replaced either way). */
    void closeAll() {
        for (int r = 0; r < nets.size(); r++) {
            CclNet net = nets.get(r);
            for (SendPipe p : sends.get(r).values()) {
                try {
                    net.closeSend(p.comm());
                } catch (CclException | RuntimeException e) {
                    // Replaced by the next connect.
                }
            }
            for (RecvPipe p : recvs.get(r).values()) {
                try {
                    net.closeRecv(p.comm());
                } catch (CclException | RuntimeException e) {
                    // Replaced by the next connect.
                }
            }
            sends.get(r).clear();
            recvs.get(r).clear();
        }
    }
}
