package io.xdlink.bench;

import io.xdlink.params.Origin;
import io.xdlink.params.Params;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.sim.LoopbackFabric;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * One rail over a loopback cable ({@code loopback=1} and the given link parameters), both ends in this process,
 * without the rails engine: the sender offers 4096-byte frames cut from a source buffer, the receiver copies each
 * frame into a target buffer, as an engine would place it. What is left is the simulator's own cost and pacing.
 */
final class SimRailPair implements AutoCloseable {
    private final LoopbackFabric fabric;
    final RailTransport near;
    final RailTransport far;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment src;
    private final MemorySegment dst;
    private final long size;
    private long received;
    private final RailTransport.FrameReceiver place;

    SimRailPair(Map<String, String> link, long size) throws Exception {
        this.size = size;
        Params params = Params.defaults().with(link, Origin.explicit("benchmark"))
                .with("loopback", "1", Origin.explicit("benchmark"));
        fabric = LoopbackFabric.open(params);
        PeerInfo peer = fabric.peers().getFirst();
        String cable = peer.links().getFirst().id();
        near = fabric.openRail(peer.domain(), cable, 0);
        far = fabric.far(peer.domain()).orElseThrow().openRail(fabric.localDomain(), cable, 0);
        src = arena.allocate(size, 4096);
        src.fill((byte) 3);
        dst = arena.allocate(size, 4096);
        place = f -> {
            MemorySegment.copy(f, 0, dst, received % size, f.byteSize());
            received += f.byteSize();
        };
    }

    /** Offers the next frame of the source; false when the rail has no room. */
    boolean offer(long offset) {
        return near.offer(src.asSlice(offset, RailTransport.MAX_FRAME_BYTES));
    }

    /** Receives what has arrived, placing it in the target; returns frames received. */
    int receive() {
        return far.poll(place, 256);
    }

    /** Bytes the receiver has placed so far. */
    long received() {
        return received;
    }

    long size() {
        return size;
    }

    @Override
    public void close() {
        fabric.close();
        arena.close();
    }
}
