package io.xdlink.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** A ping-pong side calling the plugin's {@code ncclNetPlugin_v12} table. */
final class NativeTablesSide implements PingPongSide {
    /** Where the plugin library is: {@code -Dxdlink.plugin.so=...}, else the build's layout. */
    static final Path SO = Path.of(System.getProperty("xdlink.plugin.so",
            "ccl-plugin/target/xdlink-plugin/libnccl-net-xdlink.so"));

    private final MemorySegment send;
    private final MemorySegment recv;
    private final MemorySegment out;
    private final MemorySegment in;
    private final MemorySegment outMh;
    private final MemorySegment data;
    private final MemorySegment sizes;
    private final MemorySegment tags;
    private final MemorySegment mhs;
    private final MemorySegment phandles;
    private final MemorySegment receiveRequest;
    private final MemorySegment sendRequest;
    private final MemorySegment done;
    /** test() calls this side made; read by the benchmark thread between rounds. */
    private volatile long tests;
    /** isend() calls this side made, likewise. */
    private volatile long sends;

    private NativeTablesSide(MemorySegment send, MemorySegment recv, Arena arena) throws Throwable {
        this.send = send;
        this.recv = recv;
        out = arena.allocate(8, 64);
        in = arena.allocate(8, 64);
        MemorySegment mh = arena.allocate(ADDRESS);
        NativeTables.ok((int) NativeTables.regMr.invokeExact(send, out, 8L, 1, mh), "regMr");
        outMh = mh.get(ADDRESS, 0);
        MemorySegment inMh = arena.allocate(ADDRESS);
        NativeTables.ok((int) NativeTables.regMr.invokeExact(recv, in, 8L, 1, inMh), "regMr");
        data = arena.allocate(ADDRESS);
        data.set(ADDRESS, 0, in);
        sizes = arena.allocate(JAVA_LONG);
        sizes.set(JAVA_LONG, 0, 8);
        tags = arena.allocate(JAVA_INT);
        mhs = inMh;
        phandles = arena.allocate(ADDRESS);
        receiveRequest = arena.allocate(ADDRESS);
        sendRequest = arena.allocate(ADDRESS);
        done = arena.allocate(JAVA_INT);
    }

    /** Two sides joined by two connections over device 0, under one per-communicator context. */
    static NativeTablesSide[] pair(Arena arena) throws Throwable {
        if (!Files.isRegularFile(SO)) {
            throw new IllegalStateException(SO.toAbsolutePath() + " does not exist: build the plugin "
                    + "(./mvnw -pl ccl-plugin -am package) or pass -Dxdlink.plugin.so=PATH");
        }
        MemorySegment ctxOut = arena.allocate(ADDRESS);
        MemorySegment config = arena.allocate(JAVA_INT);
        config.set(JAVA_INT, 0, -1);
        NativeTables.ok((int) NativeTables.init.invokeExact(ctxOut, 2L, config, MemorySegment.NULL, MemorySegment.NULL), "init");
        MemorySegment ctx = ctxOut.get(ADDRESS, 0);
        MemorySegment ndev = arena.allocate(JAVA_INT);
        NativeTables.ok((int) NativeTables.devices.invokeExact(ndev), "devices");
        if (ndev.get(JAVA_INT, 0) < 1) {
            throw new IllegalStateException("the plugin has no devices: set XDLINK_PARAMS, e.g. loopback=1");
        }
        MemorySegment[] sends = new MemorySegment[2];
        MemorySegment[] recvs = new MemorySegment[2];
        for (int i = 0; i < 2; i++) {
            MemorySegment handle = arena.allocate(128);
            MemorySegment lc = arena.allocate(ADDRESS);
            NativeTables.ok((int) NativeTables.listen.invokeExact(ctx, 0, handle, lc), "listen");
            MemorySegment sc = arena.allocate(ADDRESS);
            MemorySegment rc = arena.allocate(ADDRESS);
            MemorySegment devComm = arena.allocate(ADDRESS);
            while (sc.get(ADDRESS, 0).address() == 0 || rc.get(ADDRESS, 0).address() == 0) {
                if (sc.get(ADDRESS, 0).address() == 0) {
                    NativeTables.ok((int) NativeTables.connect.invokeExact(ctx, 0, handle, sc, devComm), "connect");
                }
                if (rc.get(ADDRESS, 0).address() == 0) {
                    NativeTables.ok((int) NativeTables.accept.invokeExact(lc.get(ADDRESS, 0), rc, devComm), "accept");
                }
            }
            NativeTables.ok((int) NativeTables.closeListen.invokeExact(lc.get(ADDRESS, 0)), "closeListen");
            sends[i] = sc.get(ADDRESS, 0);
            recvs[i] = rc.get(ADDRESS, 0);
        }
        return new NativeTablesSide[] {new NativeTablesSide(sends[0], recvs[1], arena),
            new NativeTablesSide(sends[1], recvs[0], arena)};
    }

    @Override
    public boolean postReceive() throws Throwable {
        NativeTables.ok((int) NativeTables.irecv.invokeExact(recv, 1, data, sizes, tags, mhs, phandles, receiveRequest), "irecv");
        return receiveRequest.get(ADDRESS, 0).address() != 0;
    }

    @Override
    public boolean postSend() throws Throwable {
        sends = sends + 1;
        NativeTables.ok((int) NativeTables.isend.invokeExact(send, out, 8L, 0, outMh, MemorySegment.NULL, sendRequest), "isend");
        return sendRequest.get(ADDRESS, 0).address() != 0;
    }

    @Override
    public boolean receiveDone() throws Throwable {
        return test(receiveRequest);
    }

    @Override
    public boolean sendDone() throws Throwable {
        return test(sendRequest);
    }

    /**
     * Writes what a C host's loop needs of this side into {@code into} (six pointers): send comm, receive comm,
     * the 8-byte send buffer and its memory handle, the 8-byte receive buffer and its memory handle.
     */
    void describe(MemorySegment into) {
        MemorySegment[] parts = {send, recv, out, outMh, data.get(ADDRESS, 0), mhs.get(ADDRESS, 0)};
        for (int i = 0; i < parts.length; i++) {
            into.setAtIndex(ADDRESS, i, parts[i]);
        }
    }

    /** The receive this side posted last (NULL before any): a request nothing completes, once it is idle. */
    MemorySegment postedReceive() {
        return receiveRequest.get(ADDRESS, 0);
    }

    /** How many isend() calls this side has made, retries included. */
    long sends() {
        return sends;
    }

    /** How many test() calls this side has made. */
    long tests() {
        return tests;
    }

    private boolean test(MemorySegment request) throws Throwable {
        tests = tests + 1;
        NativeTables.ok((int) NativeTables.test.invokeExact(request.get(ADDRESS, 0), done, MemorySegment.NULL), "test");
        return done.get(JAVA_INT, 0) != 0;
    }

    @Override
    public void close() throws Exception {
        try {
            NativeTables.ok((int) NativeTables.closeSend.invokeExact(send), "closeSend");
            NativeTables.ok((int) NativeTables.closeRecv.invokeExact(recv), "closeRecv");
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
