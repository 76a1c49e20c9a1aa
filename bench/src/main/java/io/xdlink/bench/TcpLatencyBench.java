package io.xdlink.bench;

import io.xdlink.rails.RailTransport;
import io.xdlink.rails.tcp.TcpLoopbackPair;
import io.xdlink.rails.tcp.TcpSettings;
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
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * Round trips of 2 bytes over 127.0.0.1, side by side: a plain non-blocking socket ping-pong in which both sides
 * spin on read (the quickest plain TCP can answer) against the same ping-pong through a TCP rail's frames.
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

        @Setup(Level.Trial)
        public void open() throws IOException {
            pair = PlainTcpPair.open();
            pair.a().configureBlocking(false);
            pair.b().configureBlocking(false);
            ByteBuffer at = ByteBuffer.allocateDirect(2);
            echo = new Spinner("xdlink-bench-plain-echo", () -> {
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

    @Benchmark
    public int plainPingPong(PlainPingPong s) throws IOException {
        s.ping.clear();
        while (s.ping.hasRemaining()) {
            s.pair.a().write(s.ping);
        }
        s.pong.clear();
        while (s.pong.hasRemaining()) {
            if (s.pair.a().read(s.pong) == 0) {
                s.echo.check();
                Spinner.idle();
            }
        }
        return s.pong.get(0);
    }

    @Benchmark
    public int tcpRailPingPong(RailPingPong s) {
        RailTransport a = s.pair.a();
        a.offer(s.ping);
        a.flush();
        s.got = 0;
        while (s.got == 0) {
            if (a.poll(s.count, 1) == 0) {
                s.echo.check();
                Spinner.idle();
            }
        }
        return s.got;
    }
}
