package io.xdlink.bench;

import io.xdlink.ccl.CclLog;
import io.xdlink.ccl.CclNet;
import io.xdlink.ccl.CclNets;
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

import java.lang.foreign.Arena;
import java.util.concurrent.TimeUnit;

/**
 * An 8-byte ping-pong through the collective-library plugin, side by side: through the Java API ({@link CclNet})
 * and through the native {@code ncclNetPlugin_v12} table (downcall, C trampoline, upcall), over the same kind of
 * device: the one {@code XDLINK_PARAMS} describes (e.g. {@code loopback=1}). Scores are round trips; the native
 * path's extra cost per message is half the difference.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class CclPingPongBench {

    /** Both sides and the echo thread of one way of calling. */
    abstract static class Pair {
        Arena arena;
        PingPongSide near;
        PingPongSide far;
        Spinner echo;

        abstract PingPongSide[] open(Arena arena) throws Throwable;

        void start() throws Throwable {
            arena = Arena.ofShared();
            PingPongSide[] sides = open(arena);
            near = sides[0];
            far = sides[1];
            echo = new Spinner("xdlink-bench-ccl-echo", new PingPongSide.Echo(far));
        }

        void stop() throws Exception {
            echo.close();
            near.close();
            far.close();
        }
    }

    @State(Scope.Benchmark)
    public static class JavaApi extends Pair {
        CclNet net;

        @Override
        PingPongSide[] open(Arena arena) throws Throwable {
            net = CclNets.fromEnvironment(CclLog.system());
            return JavaApiSide.pair(net, arena);
        }

        @Setup(Level.Trial)
        public void setUp() throws Throwable {
            start();
        }

        @TearDown(Level.Trial)
        public void tearDown() throws Exception {
            stop();
            net.close();
        }
    }

    @State(Scope.Benchmark)
    public static class Native extends Pair {
        @Override
        PingPongSide[] open(Arena arena) throws Throwable {
            return NativeTablesSide.pair(arena);
        }

        @Setup(Level.Trial)
        public void setUp() throws Throwable {
            start();
        }

        @TearDown(Level.Trial)
        public void tearDown() throws Exception {
            stop();
        }
    }

    @Benchmark
    public void javaApiPingPong(JavaApi p) throws Throwable {
        p.near.ping();
        p.echo.check();
    }

    @Benchmark
    public void nativeTablesPingPong(Native p) throws Throwable {
        p.near.ping();
        p.echo.check();
    }
}
