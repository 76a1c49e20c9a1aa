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
 * The cost of one call, side by side: {@code test} of a receive that nothing will complete, through the Java API
 * and through the native v12 table. It isolates what the native path (downcall, C trampoline, upcall, handle
 * lookup) adds to every call, whatever the fabric's own latency.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class CclCallBench {

    @State(Scope.Benchmark)
    public static class JavaApi {
        CclNet net;
        Arena arena;
        PingPongSide side;

        @Setup(Level.Trial)
        public void setUp() throws Throwable {
            net = CclNets.fromEnvironment(CclLog.system());
            arena = Arena.ofShared();
            side = JavaApiSide.pair(net, arena)[0];
            if (!side.postReceive()) {
                throw new IllegalStateException("the receive did not post");
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            net.close();
        }
    }

    @State(Scope.Benchmark)
    public static class Native {
        PingPongSide side;

        @Setup(Level.Trial)
        public void setUp() throws Throwable {
            side = NativeTablesSide.pair(Arena.ofShared())[0];
            if (!side.postReceive()) {
                throw new IllegalStateException("the receive did not post");
            }
        }
    }

    @Benchmark
    public boolean javaApiTest(JavaApi s) throws Throwable {
        return s.side.receiveDone();
    }

    @Benchmark
    public boolean nativeTablesTest(Native s) throws Throwable {
        return s.side.receiveDone();
    }
}
