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
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * Round trips of 2 bytes over 127.0.0.1, side by side: a plain non-blocking socket ping-pong, xdlink 2-byte WRITEs
 * answered by WRITEs as perftest's write latency test does, and the bare TCP rail's frames. Every side waits for
 * its answer the same way ({@link TcpIdleStrategy}: poll, spin, yield, then sleep in the kernel on its sockets).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class TcpLatencyBench {

    @State(Scope.Benchmark)
    public static class PlainPingPong {
        PlainTcpPair pair;
        Spinner echo;
        final ByteBuffer ping = ByteBuffer.allocateDirect(2);
        final ByteBuffer pong = ByteBuffer.allocateDirect(2);
        final TcpIdleStrategy idle = new TcpIdleStrategy();

        @Setup(Level.Trial)
        public void open() throws IOException {
            pair = PlainTcpPair.open();
            pair.a().configureBlocking(false);
            pair.b().configureBlocking(false);
            ByteBuffer at = ByteBuffer.allocateDirect(2);
            echo = new Spinner("xdlink-bench-plain-echo", () -> TcpIdleStrategy.wakeOn(pair.b()), () -> {
                if (pair.b().read(at) <= 0 || at.hasRemaining()) {
                    return 0;
                }
                at.flip();
                while (at.hasRemaining()) {
                    pair.b().write(at);
                }
                at.clear();
                return 1;
            });
        }

        @TearDown(Level.Trial)
        public void close() throws Exception {
            echo.close();
            pair.close();
        }
    }

    @State(Scope.Benchmark)
    public static class RailPingPong {
        TcpLoopbackPair pair;
        Spinner echo;
        final MemorySegment ping = MemorySegment.ofArray(new byte[] {1, 2});
        int got;
        final RailTransport.FrameReceiver count = f -> got++;
        final TcpIdleStrategy idle = new TcpIdleStrategy();

        @Setup(Level.Trial)
        public void open() throws IOException {
            pair = TcpLoopbackPair.open(TcpSettings.defaults(), LinkState.of(Generation.GEN3, 1));
            RailTransport b = pair.b();
            RailTransport.FrameReceiver back = f -> {
                if (!b.offer(f)) {
                    throw new IllegalStateException("no room to echo one frame");
                }
            };
            echo = new Spinner("xdlink-bench-rail-echo", () -> {
                int n = b.poll(back, 16);
                b.flush();
                return n;
            });
        }

        @TearDown(Level.Trial)
        public void close() throws Exception {
            echo.close();
            pair.close();
        }
    }

    /**
     * perftest's write latency: each side WRITEs 2 bytes into the other's memory and spins on that memory for the
     * answer, through xdlink's full stack over one TCP rail.
     */
    @State(Scope.Benchmark)
    public static class XdlinkPingPong {
        XdlinkTcpPair pair;
        Spinner echo;
        short seq;
        final TcpIdleStrategy idle = new TcpIdleStrategy();

        @Setup(Level.Trial)
        public void open() throws IOException {
            pair = new XdlinkTcpPair(4096);
            XdlinkTcpPair p = pair;
            short[] seen = {0};
            echo = new Spinner("xdlink-bench-write-echo", () -> {
                int work = p.target.agent().doWork();
                for (Completion c; (c = p.targetCq.poll()) != null; ) {
                    check(c);
                }
                short v = p.targetMr.segment().get(ValueLayout.JAVA_SHORT_UNALIGNED, 0);
                if (v != seen[0]) {
                    seen[0] = v;
                    p.targetMr.segment().set(ValueLayout.JAVA_SHORT_UNALIGNED, 64, v);
                    if (!p.targetQp.postWrite(0, p.targetMr, 64, 2, p.sourceMr.address(), p.sourceMr.rkey())) {
                        throw new IllegalStateException("no room to answer");
                    }
                    work++;
                }
                return work;
            });
        }

        @TearDown(Level.Trial)
        public void close() throws Exception {
            echo.close();
            pair.close();
        }
    }

    static void check(Completion c) {
        if (!c.isSuccess()) {
            throw new IllegalStateException("write failed: " + c);
        }
    }

    @Benchmark
    public short xdlinkWritePingPong(XdlinkPingPong s) {
        XdlinkTcpPair p = s.pair;
        short want = ++s.seq == 0 ? ++s.seq : s.seq;
        p.sourceMr.segment().set(ValueLayout.JAVA_SHORT_UNALIGNED, 64, want);
        if (!p.sourceQp.postWrite(0, p.sourceMr, 64, 2, p.targetMr.address(), p.targetMr.rkey())) {
            throw new IllegalStateException("no room to post a 2-byte write");
        }
        while (p.sourceMr.segment().get(ValueLayout.JAVA_SHORT_UNALIGNED, 0) != want) {
            int work = p.source.agent().doWork();
            for (Completion c; (c = p.sourceCq.poll()) != null; ) {
                check(c);
            }
            if (work == 0) {
                s.echo.check();
            }
            s.idle.idle(work);
        }
        s.idle.reset();
        return want;
    }

    @Benchmark
    public int plainPingPong(PlainPingPong s) throws IOException {
        TcpIdleStrategy.wakeOn(s.pair.a()); // JMH may move the benchmark to another thread between iterations
        s.ping.clear();
        while (s.ping.hasRemaining()) {
            s.pair.a().write(s.ping);
        }
        s.pong.clear();
        while (s.pong.hasRemaining()) {
            int n = s.pair.a().read(s.pong);
            if (n == 0) {
                s.echo.check();
            }
            s.idle.idle(n);
        }
        s.idle.reset();
        return s.pong.get(0);
    }

    @Benchmark
    public int tcpRailPingPong(RailPingPong s) {
        RailTransport a = s.pair.a();
        a.offer(s.ping);
        a.flush();
        s.got = 0;
        while (s.got == 0) {
            int n = a.poll(s.count, 1);
            if (n == 0) {
                s.echo.check();
            }
            s.idle.idle(n);
        }
        s.idle.reset();
        return s.got;
    }
}
