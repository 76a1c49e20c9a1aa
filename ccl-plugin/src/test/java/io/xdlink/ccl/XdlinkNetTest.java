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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The API's lifecycle and handshake over real rails devices on a fabric of in-memory rails: contexts, handles,
 * retries, finalize.
 */
class XdlinkNetTest {
    private static final long TIMEOUT_NANOS = NetCalls.TIMEOUT_NANOS;

    private final PairedFabric fabric = new PairedFabric(LinkState.of(Generation.GEN3, 1));
    private final List<String> logged = new ArrayList<>();
    private final XdlinkNet net;
    private final Arena arena = Arena.ofShared();
    private ListenComm listening;

    XdlinkNetTest() throws CclException {
        net = Devices.open(fabric.a, (level, subsystems, message) -> logged.add(message),
                new RailsDevices(fabric.a, Params.defaults()));
    }

    @AfterEach
    void close() {
        net.close();
        arena.close();
    }

    /** Connects to {@link #listening}, accepting the connection meanwhile as the peer's proxy thread would. */
    private SendComm connect(CclContext ctx, byte[] handle) throws CclException {
        long end = System.nanoTime() + TIMEOUT_NANOS;
        SendComm s = null;
        while (System.nanoTime() < end) {
            if (s == null) {
                s = net.connect(ctx, 0, -1, handle);
            }
            if (accepted == null) {
                accepted = net.accept(listening);
            }
            if (s != null && accepted != null) {
                return s;
            }
            Thread.yield();
        }
        throw new AssertionError("connect never finished");
    }

    private RecvComm accepted;

    private ListenComm listen(CclContext ctx) throws CclException {
        listening = net.listen(ctx, 0);
        accepted = null;
        return listening;
    }

    @Test
    void listenConnectAcceptWithRetriesThenMoveBytes() throws CclException {
        CclContext ctx = net.init(7, -1);
        assertThat(net.devices()).isEqualTo(1);
        assertThat(net.properties(0).speedMbps()).isEqualTo(20_000);
        ListenComm l = listen(ctx);
        byte[] handle = l.handle();
        assertThat(handle).hasSize(CclNet.HANDLE_MAX_BYTES);
        assertThat(net.accept(l)).as("nobody connected yet").isNull();
        assertThat(net.connect(ctx, 0, -1, handle)).as("first attempt is pending").isNull();
        SendComm s = connect(ctx, handle);
        RecvComm r = accepted;
        assertThat(r).isNotNull();

        MemorySegment src = arena.allocate(256);
        for (int i = 0; i < 256; i++) {
            src.set(ValueLayout.JAVA_BYTE, i, (byte) i);
        }
        MemorySegment dst = arena.allocate(512);
        MemoryHandle smh = net.registerMemory(s, src, DeviceProperties.PTR_HOST);
        MemoryHandle rmh = net.registerMemory(r, dst, DeviceProperties.PTR_HOST);
        Request rr = net.irecv(r, new MemorySegment[] {dst}, new int[] {5}, new MemoryHandle[] {rmh});
        Request sr = null;
        long end = System.nanoTime() + TIMEOUT_NANOS;
        while (sr == null && System.nanoTime() < end) {
            sr = net.isend(s, src, 5, smh);
        }
        long[] sizes = new long[CclNet.MAX_RECVS];
        assertThat(NetCalls.await(net, sr, sizes)).isTrue();
        assertThat(sizes[0]).isEqualTo(256);
        assertThat(NetCalls.await(net, rr, sizes)).isTrue();
        assertThat(sizes[0]).isEqualTo(256);
        assertThat(dst.asSlice(0, 256).mismatch(src)).isEqualTo(-1);
        assertThat(net.iflush(r, new MemorySegment[] {dst}, new MemoryHandle[] {rmh})).as("host memory").isNull();
        net.deregisterMemory(s, smh);
        net.deregisterMemory(r, rmh);
        net.closeSend(s);
        net.closeRecv(r);
        net.closeListen(l);
        net.finalize(ctx);
        assertThat(logged).noneMatch(m -> m.contains("left open"));
    }

    @Test
    void finalizeClosesWhatACommunicatorLeftOpenAndKillsItsContext() throws CclException {
        CclContext ctx = net.init(1, -1);
        CclContext other = net.init(2, 3);
        ListenComm l = listen(ctx);
        SendComm s = connect(ctx, l.handle());
        net.finalize(ctx);
        assertThat(logged).anyMatch(m -> m.contains("finalize closed 3 comms"));
        assertThatThrownBy(() -> net.listen(ctx, 0)).isInstanceOf(CclException.class).hasMessageContaining("context");
        assertThatThrownBy(() -> net.finalize(ctx)).isInstanceOf(CclException.class);
        assertThat(net.listen(other, 0)).as("another communicator's context lives on").isNotNull();
        assertThat(other.trafficClass()).isEqualTo(3);
        assertThatThrownBy(() -> net.isend(s, arena.allocate(1), 0, null)).isInstanceOf(CclException.class);
    }

    @Test
    void badDevicesHandlesAndMemoryTypesAreErrorsNamingTheValue() throws CclException {
        CclContext ctx = net.init(1, -1);
        assertThatThrownBy(() -> net.properties(1)).hasMessageContaining("device 1 does not exist");
        assertThatThrownBy(() -> net.listen(ctx, -1)).hasMessageContaining("device -1");
        byte[] foreign = new byte[CclNet.HANDLE_MAX_BYTES];
        assertThatThrownBy(() -> net.connect(ctx, 0, -1, foreign)).isInstanceOfSatisfying(CclException.class,
                e -> assertThat(e.result()).isEqualTo(CclResult.INTERNAL_ERROR));
        ListenComm l = listen(ctx);
        SendComm s = connect(ctx, l.handle());
        assertThatThrownBy(() -> net.registerMemory(s, arena.allocate(8), 0x2))
                .hasMessageContaining("memory type 2");
        try (Arena confined = Arena.ofConfined()) {
            assertThatThrownBy(() -> net.registerMemory(s, confined.allocate(8), DeviceProperties.PTR_HOST))
                    .isInstanceOfSatisfying(CclException.class,
                            e -> assertThat(e.result()).isEqualTo(CclResult.INVALID_ARGUMENT))
                    .hasMessageContaining("confined");
        }
        MemorySegment huge = MemorySegment.ofAddress(arena.allocate(8).address()).reinterpret((1L << 30) + 1);
        MemoryHandle hugeMh = net.registerMemory(s, huge, DeviceProperties.PTR_HOST);
        assertThatThrownBy(() -> net.isend(s, huge, 0, hugeMh)).isInstanceOfSatisfying(CclException.class,
                e -> assertThat(e.result()).isEqualTo(CclResult.INVALID_USAGE)).hasMessageContaining("maxP2pBytes");
        byte[] stale = l.handle();
        ListenHandle.storePending(stale, 99_999);
        assertThatThrownBy(() -> net.connect(ctx, 0, -1, stale)).hasMessageContaining("99999");
    }

    @Test
    void closeClosesTheDevicesAndRefusesFurtherUse() throws CclException {
        net.close();
        assertThat(fabric.a.closed).as("the fabric, and the rails devices over it, closed").isTrue();
        assertThatThrownBy(() -> net.init(1, -1)).hasMessageContaining("after close");
    }
}
