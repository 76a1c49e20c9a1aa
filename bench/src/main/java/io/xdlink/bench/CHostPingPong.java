package io.xdlink.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The ping-pong through the plugin's {@code ncclNetPlugin_v12} table driven from C ({@code bench/src/main/c/pingpong.c}),
 * as a collective library's proxy thread drives it: one downcall runs a whole batch of round trips on the calling
 * thread, and a C thread echoes, so every isend, irecv and test reaches the plugin as a host's direct call does,
 * with no Java downcall in front of it. The connections are set up through {@link NativeTablesSide}.
 */
final class CHostPingPong implements AutoCloseable {
    /** Where the driver library is: {@code -Dxdlink.bench.pingpong.so=...}, else the build's layout. */
    static final Path SO = Path.of(System.getProperty("xdlink.bench.pingpong.so",
            "bench/target/native/libxdlink-bench-pingpong.so"));

    private static final class Driver {
        static final MethodHandle OPEN;
        static final MethodHandle RUN;
        static final MethodHandle COUNTS;
        static final MethodHandle TEST_COST;
        static final MethodHandle CLOSE;

        static {
            if (!Files.isRegularFile(SO)) {
                throw new IllegalStateException(SO.toAbsolutePath() + " does not exist: build the benchmarks "
                        + "(./mvnw -pl bench -am package) or pass -Dxdlink.bench.pingpong.so=PATH");
            }
            SymbolLookup lib = SymbolLookup.libraryLookup(SO.toAbsolutePath(), Arena.global());
            Linker linker = Linker.nativeLinker();
            OPEN = linker.downcallHandle(lib.find("xdl_pingpong_open").orElseThrow(),
                    FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS));
            RUN = linker.downcallHandle(lib.find("xdl_pingpong_run").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
            COUNTS = linker.downcallHandle(lib.find("xdl_pingpong_counts").orElseThrow(),
                    FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
            TEST_COST = linker.downcallHandle(lib.find("xdl_pingpong_test_cost").orElseThrow(),
                    FunctionDescriptor.of(JAVA_DOUBLE, ADDRESS, ADDRESS, JAVA_INT));
            CLOSE = linker.downcallHandle(lib.find("xdl_pingpong_close").orElseThrow(),
                    FunctionDescriptor.ofVoid(ADDRESS));
        }
    }

    private final NativeTablesSide near;
    private final NativeTablesSide far;
    private final NativeTablesSide idle;
    private final MemorySegment pingPong;
    private final MemorySegment counts;
    /** Where the C loop writes a batch's round-trip times; grown to the largest batch asked for. */
    private MemorySegment times = MemorySegment.NULL;

    private CHostPingPong(NativeTablesSide near, NativeTablesSide far, NativeTablesSide idle, MemorySegment pingPong,
                          Arena arena) {
        this.near = near;
        this.far = far;
        this.idle = idle;
        this.pingPong = pingPong;
        this.counts = arena.allocate(JAVA_LONG, 2);
    }

    /**
     * Two connection pairs over device 0 of the plugin's own network: one for the ping-pong, its echo thread
     * started, and one whose posted receive nothing completes, for timing single test() calls.
     */
    static CHostPingPong open(Arena arena) throws Throwable {
        NativeTablesSide[] pair = NativeTablesSide.pair(arena);
        NativeTablesSide idle = NativeTablesSide.pair(arena)[0];
        if (!idle.postReceive()) {
            throw new IllegalStateException("the idle receive did not post");
        }
        MemorySegment fns = arena.allocate(ADDRESS, 3);
        fns.setAtIndex(ADDRESS, 0, NativeTables.ISEND_FN);
        fns.setAtIndex(ADDRESS, 1, NativeTables.IRECV_FN);
        fns.setAtIndex(ADDRESS, 2, NativeTables.TEST_FN);
        MemorySegment nearParts = arena.allocate(ADDRESS, 6);
        MemorySegment farParts = arena.allocate(ADDRESS, 6);
        pair[0].describe(nearParts);
        pair[1].describe(farParts);
        MemorySegment p = (MemorySegment) Driver.OPEN.invokeExact(fns, nearParts, farParts);
        if (p.address() == 0) {
            throw new IllegalStateException("the C ping-pong could not start its echo thread");
        }
        return new CHostPingPong(pair[0], pair[1], idle, p, arena);
    }

    /** Times {@code n} round trips into {@code out} from {@code at}, in nanoseconds. */
    void pingPong(long[] out, int at, int n) throws Throwable {
        if (times.byteSize() < (long) n * Long.BYTES) {
            times = Arena.ofAuto().allocate(JAVA_LONG, n);
        }
        int rc = (int) Driver.RUN.invokeExact(pingPong, n, times);
        if (rc <= -100) {
            throw new IllegalStateException("the C echo thread's call returned ncclResult " + (-rc - 100));
        }
        if (rc != 0) {
            throw new IllegalStateException("a C ping-pong call returned ncclResult " + -rc);
        }
        MemorySegment.copy(times, JAVA_LONG, 0, out, at, n);
    }

    /** test() calls of both sides so far. */
    long tests() throws Throwable {
        Driver.COUNTS.invokeExact(pingPong, counts);
        return counts.getAtIndex(JAVA_LONG, 0);
    }

    /** isend() calls of both sides so far, retries included. */
    long sends() throws Throwable {
        Driver.COUNTS.invokeExact(pingPong, counts);
        return counts.getAtIndex(JAVA_LONG, 1);
    }

    /** Processor nanoseconds per test() from C of a receive nothing completes, over {@code n} calls. */
    double call(int n) throws Throwable {
        double ns = (double) Driver.TEST_COST.invokeExact(NativeTables.TEST_FN, idle.postedReceive(), n);
        if (ns < 0) {
            throw new IllegalStateException("a test() of the idle receive failed or completed it");
        }
        return ns;
    }

    @Override
    public void close() throws Exception {
        try {
            Driver.CLOSE.invokeExact(pingPong);
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        near.close();
        far.close();
        idle.close();
    }
}
