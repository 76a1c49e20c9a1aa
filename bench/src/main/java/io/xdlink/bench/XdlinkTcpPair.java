package io.xdlink.bench;

import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.tcp.TcpLoopbackPair;
import io.xdlink.rails.tcp.TcpSettings;
import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.CompletionQueue;
import io.xdlink.rails.verbs.Connecting;
import io.xdlink.rails.verbs.ConnectionFailedException;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceConfig;
import io.xdlink.rails.verbs.Listener;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.ProtectionDomain;
import io.xdlink.rails.verbs.QpAttributes;
import io.xdlink.rails.verbs.QueuePair;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.UUID;

/**
 * Two xdlink devices over one TCP rail on 127.0.0.1, with a connected queue pair and registered memory on each
 * side. Both devices run in invoker mode: the thread that uses a device also runs its progress engine, so a
 * comparison with plain sockets uses the same two threads and no more. For diagnosis only: one process over
 * 127.0.0.1 is no path a user runs, and the targets are measured through {@code xdlink bench} in the two-host lab.
 */
final class XdlinkTcpPair implements AutoCloseable {
    final TcpLoopbackPair rail;
    final Device target;
    final Device source;
    final QueuePair targetQp;
    final QueuePair sourceQp;
    final CompletionQueue targetCq;
    final CompletionQueue sourceCq;
    final MemoryRegion targetMr;
    final MemoryRegion sourceMr;
    private final Arena arena = Arena.ofShared();

    XdlinkTcpPair(long regionBytes) throws IOException {
        this(regionBytes, RailsSettings.defaults());
    }

    XdlinkTcpPair(long regionBytes, RailsSettings settings) throws IOException {
        rail = TcpLoopbackPair.open(TcpSettings.defaults(), LinkState.of(Generation.GEN3, 1));
        target = Device.open(config(new UUID(0x58444C4B, 1), settings), List.of(rail.b()));
        source = Device.open(config(new UUID(0x58444C4B, 2), settings), List.of(rail.a()));
        targetCq = target.createCq(4096);
        sourceCq = source.createCq(4096);
        ProtectionDomain targetPd = target.allocPd();
        ProtectionDomain sourcePd = source.allocPd();
        Listener listener = target.listen();
        Connecting connecting = source.connect(listener.handle(), QpAttributes.of(sourcePd, sourceCq));
        QueuePair accepted = null;
        QueuePair connected = null;
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (accepted == null || connected == null) {
            if (System.nanoTime() > deadline) {
                close();
                throw new IOException("the benchmark's queue pair did not connect within 30 s");
            }
            source.agent().doWork();
            target.agent().doWork();
            if (accepted == null) {
                accepted = listener.accept(QpAttributes.of(targetPd, targetCq));
            }
            if (connected == null) {
                try {
                    connected = connecting.poll();
                } catch (ConnectionFailedException e) {
                    close();
                    throw new IOException("the benchmark's queue pair failed to connect", e);
                }
            }
        }
        listener.close();
        targetQp = accepted;
        sourceQp = connected;
        MemorySegment t = arena.allocate(regionBytes, 4096);
        MemorySegment s = arena.allocate(regionBytes, 4096);
        targetMr = targetPd.register(t, Access.REMOTE_WRITE, Access.LOCAL_WRITE);
        sourceMr = sourcePd.register(s, Access.REMOTE_WRITE, Access.LOCAL_WRITE);
    }

    private static DeviceConfig config(UUID id, RailsSettings settings) {
        return DeviceConfig.builder().id(id).settings(settings).invoker()
                .seed(id.getLeastSignificantBits()).build();
    }

    @Override
    public void close() {
        source.close();
        target.close();
        rail.close();
        arena.close();
    }
}
