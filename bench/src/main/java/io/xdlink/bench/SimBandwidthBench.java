package io.xdlink.bench;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import org.openjdk.jmh.infra.IterationParams;

import java.io.IOException;
import io.xdlink.rails.RailTransport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.HashMap;

/**
 * The simulator's bandwidth, side by side in one run; each operation moves one message ({@code bytes}, one
 * mebibyte for the paced runs):
 * <ul>
 *   <li>{@code memorySegmentCopy}: {@code MemorySegment.copy} of the same bytes, the most one core can move;</li>
 *   <li>{@code unpacedSimWrite}: RDMA WRITEs through the real rails engine over an unpaced loopback cable, both
 *   progress engines run by the benchmark thread, so the two figures cost one core each;</li>
 *   <li>{@code unpacedSimWriteBesideCopy}: both of the above in one fork, in alternating blocks of a few
 *   milliseconds each, each way timed apart: the ratio of the two, side by side in one process, is the figure the
 *   target is judged by. Each fork of the two above runs wherever the machine puts it; on a shared virtual machine
 *   one fork can land on a processor a third slower than the other's, and their ratio then says more about the
 *   machine than the code;</li>
 *   <li>{@code pacedSimWrite}: WRITEs over a loopback cable paced in real time at 10, 20 or 40 Gb/s (Gen 2 x1,
 *   Gen 3 x1, Gen 3 x2), each device with its own progress thread, as deployed.</li>
 * </ul>
 * {@link SimRatios} runs them and prints the ratios against their targets.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class SimBandwidthBench {
    static final int MESSAGE = 1 << 20;
    /** WRITEs kept in flight, so the cable never idles between messages. */
    static final int DEPTH = 4;
    /**
     * WRITEs kept in flight on a paced cable: 16 MiB, 3.4 ms at 40 Gb/s, so the cable stays busy while the benchmark
     * thread sleeps between looks at its completion queue, or waits for a processor.
     */
    static final int PACED_DEPTH = 16;

    @State(Scope.Benchmark)
    public static class Copy {
        /** Bytes per operation: a cache-resident mebibyte, and 16 MiB, more than a core's caches hold. */
        @Param({"1048576", "16777216"})
        public int bytes;
        final Arena arena = Arena.ofShared();
        CpuMeter cpu;
        MemorySegment src;
        MemorySegment dst;

        @Setup(Level.Trial)
        public void open() {
            cpu = new CpuMeter("memorySegmentCopy:" + bytes);
            src = arena.allocate(bytes, 4096);
            dst = arena.allocate(bytes, 4096);
            src.fill((byte) 7);
        }

        @Setup(Level.Iteration)
        public void begin(IterationParams params) {
            cpu.begin(params);
        }

        @TearDown(Level.Iteration)
        public void end() {
            cpu.end();
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            cpu.report();
            arena.close();
        }
    }

    @State(Scope.Benchmark)
    public static class Unpaced {
        @Param({"1048576", "16777216"})
        public int bytes;
        CpuMeter cpu;
        SimDevicePair pair;

        @Setup(Level.Trial)
        public void open() throws Exception {
            cpu = new CpuMeter("unpacedSimWrite:" + bytes);
            pair = new SimDevicePair(Map.of("loopback_clock", "unpaced", "ring_size", "256"), bytes, DEPTH, true);
        }

        @Setup(Level.Iteration)
        public void begin(IterationParams params) {
            cpu.begin(params);
        }

        @TearDown(Level.Iteration)
        public void end() {
            cpu.end();
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            cpu.report();
            pair.close();
        }
    }

    /** An unpaced device pair and a copy of the same bytes, for {@link #unpacedSimWriteBesideCopy}. */
    @State(Scope.Benchmark)
    public static class Beside {
        @Param({"1048576", "16777216"})
        public int bytes;
        /** Operations of each way per timed block: 64 MiB, a few milliseconds. */
        int block;
        /**
         * Operations of each way run untimed before its block: 32 MiB, as much as the caches hold. The way that ran
         * before leaves them full of its own dirty lines (a copy that bypasses the cache leaves none); without this
         * the way that follows would pay for writing them back.
         */
        int warm;
        final Arena arena = Arena.ofShared();
        MemorySegment src;
        MemorySegment dst;
        SimDevicePair pair;

        @Setup(Level.Trial)
        public void open() throws Exception {
            block = Math.max(1, (64 << 20) / bytes);
            warm = Math.max(1, (32 << 20) / bytes);
            src = arena.allocate(bytes, 4096);
            dst = arena.allocate(bytes, 4096);
            src.fill((byte) 7);
            pair = new SimDevicePair(Map.of("loopback_clock", "unpaced", "ring_size", "256"), bytes, DEPTH, true);
        }

        @TearDown(Level.Trial)
        public void close() {
            pair.close();
            arena.close();
        }
    }

    /**
     * What each way of {@link #unpacedSimWriteBesideCopy} moved and the time it took, summed over each iteration;
     * {@link SimRatios} divides them.
     */
    @AuxCounters(AuxCounters.Type.EVENTS)
    @State(Scope.Thread)
    public static class Split {
        public long writeBytes;
        public long writeNanos;
        public long copyBytes;
        public long copyNanos;

        @Setup(Level.Iteration)
        public void clear() {
            writeBytes = 0;
            writeNanos = 0;
            copyBytes = 0;
            copyNanos = 0;
        }
    }

    @State(Scope.Benchmark)
    public static class Paced {
        /** The configured rate of the loopback cable, Mb/s. */
        @Param({"10000", "20000", "40000"})
        public int rateMbps;
        SimDevicePair pair;
        RunQueueMeter runQueue;

        @Setup(Level.Trial)
        public void open() throws Exception {
            runQueue = new RunQueueMeter("pacedSimWrite:" + rateMbps, "xdlink-device");
            // The rail's credit window as large as the loopback's 4096-frame rings (ring_size's default): 3.4 ms of
            // frames at 40 Gb/s rather than the default window's 0.85 ms, so an engine thread kept off the processor
            // for a millisecond by other work on the machine does not stop the cable.
            Map<String, String> params = new HashMap<>(link(rateMbps));
            params.put("rail_window_frames", "4096");
            pair = new SimDevicePair(params, MESSAGE, PACED_DEPTH, false);
        }

        @Setup(Level.Iteration)
        public void begin(IterationParams params) {
            runQueue.begin(params);
        }

        @TearDown(Level.Iteration)
        public void end() {
            runQueue.end();
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            runQueue.report();
            pair.close();
        }
    }

    @State(Scope.Benchmark)
    public static class UnpacedRail {
        @Param({"1048576", "16777216"})
        public int bytes;
        CpuMeter cpu;
        SimRailPair pair;

        @Setup(Level.Trial)
        public void open() throws Exception {
            cpu = new CpuMeter("unpacedSimFrames:" + bytes);
            pair = new SimRailPair(Map.of("loopback_clock", "unpaced", "ring_size", "256"), bytes);
        }

        @Setup(Level.Iteration)
        public void begin(IterationParams params) {
            cpu.begin(params);
        }

        @TearDown(Level.Iteration)
        public void end() {
            cpu.end();
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            cpu.report();
            pair.close();
        }
    }

    @State(Scope.Benchmark)
    public static class PacedRail {
        @Param({"10000", "20000", "40000"})
        public int rateMbps;
        SimRailPair pair;
        Spinner receiver;
        RunQueueMeter runQueue;

        @Setup(Level.Trial)
        public void open() throws Exception {
            // Both threads that keep the wire busy here: the receiver and this benchmark's own, which sends.
            runQueue = new RunQueueMeter("pacedSimFrames:" + rateMbps, RECEIVER_THREAD,
                    SimBandwidthBench.class.getName());
            pair = new SimRailPair(link(rateMbps), MESSAGE);
            receiver = new Spinner(RECEIVER_THREAD, pair::receive);
        }

        @Setup(Level.Iteration)
        public void begin(IterationParams params) {
            runQueue.begin(params);
        }

        @TearDown(Level.Iteration)
        public void end() {
            runQueue.end();
        }

        @TearDown(Level.Trial)
        public void close() throws Exception {
            runQueue.report();
            receiver.close();
            pair.close();
        }
    }

    static final String RECEIVER_THREAD = "xdlink-bench-sim-receiver";

    static Map<String, String> link(int rateMbps) {
        return switch (rateMbps) {
            case 10_000 -> Map.of("loopback_gen", "gen2", "loopback_lanes", "1");
            case 20_000 -> Map.of("loopback_gen", "gen3", "loopback_lanes", "1");
            case 40_000 -> Map.of("loopback_gen", "gen3", "loopback_lanes", "2");
            default -> throw new IllegalArgumentException("no loopback link of " + rateMbps + " Mb/s");
        };
    }

    /** One message through the simulated rail alone, sender and receiver on this thread. */
    @Benchmark
    public long unpacedSimFrames(UnpacedRail u) {
        SimRailPair p = u.pair;
        long target = p.received() + p.size();
        long offset = 0;
        while (p.received() < target) {
            while (offset < p.size() && p.offer(offset)) {
                offset += RailTransport.MAX_FRAME_BYTES;
            }
            p.receive();
        }
        u.cpu.moved(p.size());
        return p.size();
    }

    /** One mebibyte offered to a paced rail whose receiver runs on its own thread. */
    @Benchmark
    public long pacedSimFrames(PacedRail r) {
        SimRailPair p = r.pair;
        long offset = 0;
        while (offset < MESSAGE) {
            if (p.offer(offset)) {
                offset += RailTransport.MAX_FRAME_BYTES;
            } else {
                r.receiver.check();
                Thread.onSpinWait();
            }
        }
        return MESSAGE;
    }

    @Benchmark
    public long memorySegmentCopy(Copy c) {
        MemorySegment.copy(c.src, 0, c.dst, 0, c.bytes);
        c.cpu.moved(c.bytes);
        return c.bytes;
    }

    @Benchmark
    public long unpacedSimWrite(Unpaced u) {
        long n = u.pair.nextWrite();
        u.cpu.moved(n);
        return n;
    }

    /**
     * One block of unpaced WRITEs, then one block copying as many bytes, each timed on its own after an untimed
     * warm-up of its own way.
     */
    @Benchmark
    public long unpacedSimWriteBesideCopy(Beside b, Split s) {
        for (int i = 0; i < b.warm; i++) {
            b.pair.nextWrite();
        }
        long t0 = System.nanoTime();
        long written = 0;
        for (int i = 0; i < b.block; i++) {
            written += b.pair.nextWrite();
        }
        long t1 = System.nanoTime();
        for (int i = 0; i < b.warm; i++) {
            MemorySegment.copy(b.src, 0, b.dst, 0, b.bytes);
        }
        long t2 = System.nanoTime();
        for (int i = 0; i < b.block; i++) {
            MemorySegment.copy(b.src, 0, b.dst, 0, b.bytes);
        }
        long t3 = System.nanoTime();
        s.writeBytes += written;
        s.writeNanos += t1 - t0;
        s.copyBytes += (long) b.block * b.bytes;
        s.copyNanos += t3 - t2;
        return written;
    }

    @Benchmark
    public long pacedSimWrite(Paced p) {
        return p.pair.nextWrite();
    }
}
