package io.xdlink.ccl;

import io.xdlink.params.Params;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The plugin's devices over real rails devices, on a two-host fabric of in-memory rails with a loopback far end. */
class RailsDevicesTest {
    private static final long SEED = Long.getLong("xdlink.test.seed", 0xFA8E1CL);
    private static final long TIMEOUT_NANOS = NetCalls.TIMEOUT_NANOS;

    private final PairedFabric fabric = new PairedFabric(LinkState.of(Generation.GEN3, 2));
    private final List<String> log = new ArrayList<>();
    private final Arena arena = Arena.ofShared();
    private XdlinkNet net;

    @AfterEach
    void close() {
        if (net != null) {
            net.close();
        }
        arena.close();
    }

    private XdlinkNet open() throws CclException {
        net = Devices.open(fabric.a, (l, s, m) -> log.add(m), new RailsDevices(fabric.a, Params.defaults()));
        return net;
    }

    private SendComm[] connectAccept(CclNet n, CclContext ctx) throws CclException {
        ListenComm l = n.listen(ctx, 0);
        byte[] handle = l.handle();
        SendComm s = null;
        RecvComm r = null;
        long end = System.nanoTime() + TIMEOUT_NANOS;
        while ((s == null || r == null) && System.nanoTime() < end) {
            if (s == null) {
                s = n.connect(ctx, 0, -1, handle);
            }
            if (r == null) {
                r = n.accept(l);
            }
        }
        n.closeListen(l);
        assertThat(s).as("connected").isNotNull();
        assertThat(r).as("accepted").isNotNull();
        recv = r;
        return new SendComm[] {s};
    }

    private RecvComm recv;

    @Test
    void aLoopbackDeviceReportsItsCableAndCarries32GroupedReceivesOverRails() throws CclException {
        CclNet n = open();
        assertThat(n.devices()).isEqualTo(1);
        DeviceProperties p = n.properties(0);
        assertThat(p.speedMbps()).isEqualTo(40_000);
        assertThat(p.pciPath()).isEmpty();
        assertThat(log).anyMatch(m -> m.contains("Using [0]xdlink-loopback0 speed 40000 Mbps"));

        CclContext ctx = n.init(1, -1);
        SendComm s = connectAccept(n, ctx)[0];
        RecvComm r = recv;
        int groups = CclNet.MAX_REQUESTS;
        int per = 4;
        long slot = 8192;
        MemorySegment src = arena.allocate(groups * per * slot, 64);
        MemorySegment dst = arena.allocate(groups * per * slot, 64);
        SplittableRandom random = new SplittableRandom(SEED);
        for (long i = 0; i < src.byteSize(); i++) {
            src.set(ValueLayout.JAVA_BYTE, i, (byte) random.nextInt());
        }
        MemoryHandle smh = n.registerMemory(s, src, DeviceProperties.PTR_HOST);
        MemoryHandle rmh = n.registerMemory(r, dst, DeviceProperties.PTR_HOST);
        List<Request> receives = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            MemorySegment[] bufs = new MemorySegment[per];
            int[] tags = new int[per];
            MemoryHandle[] mhs = new MemoryHandle[per];
            for (int i = 0; i < per; i++) {
                bufs[i] = dst.asSlice((g * per + i) * slot, slot);
                tags[i] = i;
                mhs[i] = rmh;
            }
            Request req = null;
            while (req == null) {
                req = n.irecv(r, bufs, tags, mhs);
            }
            receives.add(req);
        }
        List<Request> sends = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            for (int i = per - 1; i >= 0; i--) {
                MemorySegment data = src.asSlice((g * per + i) * slot, slot - g - i);
                Request req = null;
                long end = System.nanoTime() + TIMEOUT_NANOS;
                while (req == null && System.nanoTime() < end) {
                    req = n.isend(s, data, i, smh);
                }
                assertThat(req).as("send %d/%d (seed %d)", g, i, SEED).isNotNull();
                sends.add(req);
            }
        }
        long[] sizes = new long[CclNet.MAX_RECVS];
        for (Request req : sends) {
            assertThat(NetCalls.await(n, req, sizes)).isTrue();
        }
        for (int g = 0; g < groups; g++) {
            assertThat(NetCalls.await(n, receives.get(g), sizes)).as("receive %d", g).isTrue();
            for (int i = 0; i < per; i++) {
                assertThat(sizes[i]).isEqualTo(slot - g - i);
                long at = (g * per + i) * slot;
                assertThat(dst.asSlice(at, slot - g - i).mismatch(src.asSlice(at, slot - g - i)))
                        .as("bytes of %d/%d (seed %d)", g, i, SEED).isEqualTo(-1);
            }
        }
        n.deregisterMemory(s, smh);
        n.deregisterMemory(r, rmh);
        n.closeSend(s);
        n.closeRecv(r);
        n.finalize(ctx);
    }

    @Test
    void commsRunConcurrentlyFromManyThreadsAndEveryByteArrives() throws Exception {
        CclNet n = open();
        CclContext ctx = n.init(2, -1);
        int pairs = 3;
        int messages = 200;
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int p = 0; p < pairs; p++) {
            SendComm s = connectAccept(n, ctx)[0];
            RecvComm r = recv;
            int seed = p;
            threads.add(Thread.ofPlatform().name("sender-" + p).start(() -> {
                try (Arena a = Arena.ofShared()) {
                    MemorySegment buf = a.allocate(4096);
                    MemoryHandle mh = n.registerMemory(s, buf, DeviceProperties.PTR_HOST);
                    for (int m = 0; m < messages; m++) {
                        buf.fill((byte) (seed * 31 + m));
                        Request req = null;
                        while ((req = n.isend(s, buf.asSlice(0, 1 + m % 4096), 9, mh)) == null) {
                            Thread.yield();
                        }
                        if (!NetCalls.await(n, req, null)) {
                            throw new AssertionError("send " + m + " never completed");
                        }
                    }
                    n.deregisterMemory(s, mh);
                } catch (Throwable t) {
                    failures.add(t);
                }
            }));
            threads.add(Thread.ofPlatform().name("receiver-" + p).start(() -> {
                try (Arena a = Arena.ofShared()) {
                    MemorySegment buf = a.allocate(4096);
                    MemoryHandle mh = n.registerMemory(r, buf, DeviceProperties.PTR_HOST);
                    long[] sizes = new long[CclNet.MAX_RECVS];
                    for (int m = 0; m < messages; m++) {
                        Request req = null;
                        while ((req = n.irecv(r, new MemorySegment[] {buf}, new int[] {9},
                                new MemoryHandle[] {mh})) == null) {
                            Thread.yield();
                        }
                        if (!NetCalls.await(n, req, sizes) || sizes[0] != 1 + m % 4096
                                || buf.get(ValueLayout.JAVA_BYTE, sizes[0] - 1) != (byte) (seed * 31 + m)) {
                            throw new AssertionError("receive " + m + " of pair " + seed + ": size " + sizes[0]);
                        }
                    }
                    n.deregisterMemory(r, mh);
                } catch (Throwable t) {
                    failures.add(t);
                }
            }));
        }
        for (Thread t : threads) {
            t.join(TIMEOUT_NANOS / 1_000_000);
        }
        assertThat(failures).isEmpty();
        n.finalize(ctx);
    }

    @Test
    void closingAReceiveCommWithReceivesPostedFailsThemAndTheSenderSeesTheConnectionGo() throws Exception {
        CclNet n = open();
        CclContext ctx = n.init(3, -1);
        SendComm s = connectAccept(n, ctx)[0];
        RecvComm r = recv;
        MemorySegment buf = arena.allocate(64);
        MemoryHandle rmh = n.registerMemory(r, buf, DeviceProperties.PTR_HOST);
        MemoryHandle smh = n.registerMemory(s, buf, DeviceProperties.PTR_HOST);
        Request pending = n.irecv(r, new MemorySegment[] {buf}, new int[] {1}, new MemoryHandle[] {rmh});
        assertThat(pending).isNotNull();
        n.closeRecv(r);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> n.test(pending, null))
                .isInstanceOfSatisfying(CclException.class, e -> assertThat(e.result()).isEqualTo(CclResult.SYSTEM_ERROR));
        long end = System.nanoTime() + TIMEOUT_NANOS;
        CclException seen = null;
        while (seen == null && System.nanoTime() < end) {
            try {
                Request req = n.isend(s, buf, 1, smh);
                if (req != null) {
                    NetCalls.await(n, req, null);
                }
            } catch (CclException e) {
                seen = e;
            }
        }
        assertThat(seen).as("the sender learns the receiver closed").isNotNull();
        n.finalize(ctx);
    }
}
