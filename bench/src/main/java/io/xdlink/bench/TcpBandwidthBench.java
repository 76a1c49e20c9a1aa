package io.xdlink.bench;

import io.xdlink.rails.RailTransport;
import io.xdlink.rails.tcp.TcpIdleStrategy;
import io.xdlink.rails.tcp.TcpLoopbackPair;
import io.xdlink.rails.tcp.TcpSettings;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.nio.channels.SelectionKey;

/**
 * Bandwidth over 127.0.0.1, one mebibyte per operation, side by side: a plain socket blasting the bytes with
 * blocking writes (and again non-blocking, waiting as xdlink waits), xdlink WRITEs over one TCP rail (the full stack: frames, credits, acknowledgements), and the
 * bare TCP rail carrying 4096-byte frames (what the transport alone costs). ops/s is MiB/s.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class TcpBandwidthBench {
    static final int MESSAGE = 1 << 20;

    @State(Scope.Benchmark)
    public static class PlainBlast {
        PlainTcpPair pair;
        Spinner receiver;
        final ByteBuffer message = ByteBuffer.allocateDirect(MESSAGE);

        @Setup(Level.Trial)
        public void open() throws IOException {
            pair = PlainTcpPair.open();
            ByteBuffer sink = ByteBuffer.allocateDirect(MESSAGE);
            // A blocking reader, as a plain application would write it: it sleeps in read when nothing is there.
            receiver = new Spinner("xdlink-bench-plain-receiver", () -> {
                sink.clear();
                return pair.b().read(sink);
            });
        }

        @TearDown(Level.Trial)
        public void close() throws Exception {
            receiver.stop();
            pair.close();
            receiver.close();
        }
    }

    /** The same blast with non-blocking sockets that wait as every xdlink side waits. */
    @State(Scope.Benchmark)
    public static class PolledBlast {
        PlainTcpPair pair;
        Spinner receiver;
        final ByteBuffer message = ByteBuffer.allocateDirect(MESSAGE);
        final TcpIdleStrategy idle = new TcpIdleStrategy();

        @Setup(Level.Trial)
        public void open() throws IOException {
            pair = PlainTcpPair.open();
            pair.a().configureBlocking(false);
            pair.b().configureBlocking(false);
            ByteBuffer sink = ByteBuffer.allocateDirect(MESSAGE);
            receiver = new Spinner("xdlink-bench-polled-receiver", () -> TcpIdleStrategy.wakeOn(pair.b()), () -> {
                sink.clear();
                return Math.max(0, pair.b().read(sink));
            });
        }

        @TearDown(Level.Trial)
        public void close() throws Exception {
            receiver.close();
            pair.close();
        }
    }

    @State(Scope.Benchmark)
    public static class RailBlast {
        TcpLoopbackPair pair;
        Spinner receiver;
        final MemorySegment frame = Arena.ofAuto().allocate(RailTransport.MAX_FRAME_BYTES);
        final TcpIdleStrategy idle = new TcpIdleStrategy();

        @Setup(Level.Trial)
        public void open() throws IOException {
            pair = TcpLoopbackPair.open(TcpSettings.defaults(), LinkState.of(Generation.GEN3, 1));
            RailTransport.FrameReceiver discard = f -> { };
            receiver = new Spinner("xdlink-bench-rail-receiver", () -> pair.b().poll(discard, 256));
        }

        @TearDown(Level.Trial)
        public void close() throws Exception {
            receiver.close();
            pair.close();
        }
    }

    /** xdlink WRITEs of one MiB over one TCP rail, a window of them in flight, as a bandwidth test posts them. */
    @State(Scope.Benchmark)
    public static class XdlinkWrite {
        static final int WINDOW = 8;
        XdlinkTcpPair pair;
        Spinner target;
        final TcpIdleStrategy idle = new TcpIdleStrategy();
        int outstanding;
        long next;

        @Setup(Level.Trial)
        public void open() throws IOException {
            pair = new XdlinkTcpPair(MESSAGE);
            target = new Spinner("xdlink-bench-write-target", () -> pair.target.agent().doWork());
        }

        @TearDown(Level.Trial)
        public void close() throws Exception {
            target.close();
            pair.close();
        }
    }

    @Benchmark
    public void xdlinkWrite(XdlinkWrite s) {
        XdlinkTcpPair p = s.pair;
        while (s.outstanding < XdlinkWrite.WINDOW && p.sourceQp.postWrite(s.next++, p.sourceMr, 0, MESSAGE,
                p.targetMr.address(), p.targetMr.rkey())) {
            s.outstanding++;
        }
        while (true) {
            Completion c = p.sourceCq.poll();
            if (c != null) {
                if (!c.isSuccess()) {
                    throw new IllegalStateException("write failed: " + c);
                }
                s.outstanding--;
                return;
            }
            int work = p.source.agent().doWork();
            if (work == 0) {
                s.target.check();
            }
            s.idle.idle(work);
        }
    }

    @Benchmark
    public void plainSocketBlast(PlainBlast s) throws IOException {
        s.message.clear();
        while (s.message.hasRemaining()) {
            s.pair.a().write(s.message);
        }
    }

    @Benchmark
    public void plainSocketBlastPolled(PolledBlast s) throws IOException {
        TcpIdleStrategy.wakeOn(s.pair.a(), SelectionKey.OP_WRITE);
        s.message.clear();
        while (s.message.hasRemaining()) {
            int n = s.pair.a().write(s.message);
            if (n == 0) {
                s.receiver.check();
            }
            s.idle.idle(n);
        }
    }

    @Benchmark
    public void tcpRailFrames(RailBlast s) {
        RailTransport rail = s.pair.a();
        for (int i = 0; i < MESSAGE / RailTransport.MAX_FRAME_BYTES; i++) {
            while (!rail.offer(s.frame)) {
                int work = rail.flush();
                s.receiver.check();
                s.idle.idle(work);
            }
        }
        rail.flush();
    }
}
