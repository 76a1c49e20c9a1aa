package io.xdlink.rails.engine;

import io.xdlink.rails.IdleStrategy;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.agent.BackoffIdleStrategy;
import io.xdlink.rails.agent.BusySpinIdleStrategy;
import io.xdlink.rails.inmemory.InMemoryRailPair;
import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.CompletionQueue;
import io.xdlink.rails.verbs.Connecting;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceConfig;
import io.xdlink.rails.verbs.Listener;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.ProtectionDomain;
import io.xdlink.rails.verbs.QpAttributes;
import io.xdlink.rails.verbs.QueuePair;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Measures WRITE throughput through two devices over in-memory rails (unpaced, lossless: what the simulator's
 * unpaced clock gives) against MemorySegment.copy of the same bytes, in one run. Not a test (it reads the wall
 * clock); run it with {@code java -cp ... io.xdlink.rails.engine.EngineThroughput [rails] [messageBytes] [seconds]
 * [spin|backoff|invoker]} (add {@code -DbyReference=true} for rails that carry payloads by reference).
 */
public final class EngineThroughput {
    public static void main(String[] args) throws Exception {
        int rails = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        long msg = args.length > 1 ? Long.parseLong(args[1]) : 1 << 20;
        double seconds = args.length > 2 ? Double.parseDouble(args[2]) : 3;
        String mode = args.length > 3 ? args[3] : "backoff";
        boolean spin = mode.equals("spin");
        boolean invoker = mode.equals("invoker");
        long region = 64L << 20;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment src = arena.allocate(region, 4096);
            MemorySegment dst = arena.allocate(region, 4096);
            src.fill((byte) 1);
            dst.fill((byte) 2);
            double copy = copyRate(src, dst, msg, seconds);
            double engine = engineRate(rails, src, dst, msg, seconds, spin, invoker);
            System.out.printf("Per CPU-second: MemorySegment.copy %.2f GB/s; engine WRITE over %d in-memory rail(s), %d-byte "
                    + "messages, %s: %.2f GB/s = %.0f%% of copy (both per CPU-second)%n", copy / 1e9, rails, msg, mode, engine / 1e9,
                    100 * engine / copy);
        }
    }

    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    /**
     * CPU time of this thread and the devices' progress threads, so a rate can be given per second of CPU on a
     * shared, loaded machine (compiler and collector threads are left out, as they are for the copy).
     */
    static long cpuNanos() {
        long sum = THREADS.getCurrentThreadCpuTime();
        for (java.lang.management.ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith("xdlink-device-")) {
                long t = THREADS.getThreadCpuTime(info.getThreadId());
                if (t > 0) {
                    sum += t;
                }
            }
        }
        return sum;
    }

    static double copyRate(MemorySegment src, MemorySegment dst, long msg, double seconds) {
        long bytes = 0;
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long start = System.nanoTime();
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        long off = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 64; i++) {
                MemorySegment.copy(src, off, dst, off, msg);
                off = (off + msg) % (src.byteSize() - msg + 1);
                bytes += msg;
            }
        }
        double wall = bytes / ((System.nanoTime() - start) / 1e9);
        double cpu = bytes / ((THREADS.getCurrentThreadCpuTime() - cpu0) / 1e9);
        System.out.printf("MemorySegment.copy: %.2f GB/s wall, %.2f GB/s per CPU-second%n", wall / 1e9, cpu / 1e9);
        return cpu;
    }

    static double engineRate(int rails, MemorySegment src, MemorySegment dst, long msg, double seconds,
                             boolean spin, boolean invoker) throws Exception {
        List<RailTransport> as = new ArrayList<>();
        List<RailTransport> bs = new ArrayList<>();
        for (int i = 0; i < rails; i++) {
            RailInfo info = new RailInfo("m" + i, "c" + i, LinkState.of(Generation.GEN4, 2), false);
            InMemoryRailPair p = Boolean.getBoolean("byReference")
                    ? InMemoryRailPair.createByReference(info, 1024, io.xdlink.rails.inmemory.RailFaultPlan.NONE)
                    : InMemoryRailPair.create(info, 1024);
            as.add(p.a());
            bs.add(p.b());
        }
        IdleStrategy ia = spin ? new BusySpinIdleStrategy() : new BackoffIdleStrategy();
        IdleStrategy ib = spin ? new BusySpinIdleStrategy() : new BackoffIdleStrategy();
        DeviceConfig.Builder ca = DeviceConfig.builder().id(new UUID(7, 1)).settings(RailsSettings.defaults())
                .seed(1);
        DeviceConfig.Builder cb = DeviceConfig.builder().id(new UUID(7, 2)).settings(RailsSettings.defaults())
                .seed(2);
        if (invoker) {
            ca.invoker();
            cb.invoker();
        } else {
            ca.thread(ia);
            cb.thread(ib);
        }
        try (Device a = Device.open(ca.build(), as); Device b = Device.open(cb.build(), bs)) {
            Runnable step = invoker ? () -> {
                a.agent().doWork();
                b.agent().doWork();
            } : Thread::yield;
            CompletionQueue cqA = a.createCq(4096);
            CompletionQueue cqB = b.createCq(4096);
            ProtectionDomain pdA = a.allocPd();
            ProtectionDomain pdB = b.allocPd();
            Listener l = a.listen();
            Connecting c = b.connect(l.handle(), QpAttributes.of(pdB, cqB));
            QueuePair qpA = null;
            while (qpA == null) {
                qpA = l.accept(QpAttributes.of(pdA, cqA));
                step.run();
            }
            QueuePair qpB;
            while ((qpB = c.poll()) == null) {
                step.run();
            }
            MemoryRegion s = pdB.register(src);
            MemoryRegion d = pdA.register(dst, Access.REMOTE_WRITE);
            long slots = src.byteSize() / msg;
            long posted = 0;
            long done = 0;
            long start = 0;
            long startDone = 0;
            long cpuStart = 0;
            long warm = System.nanoTime() + (long) (seconds * 0.3e9);
            long end = warm + (long) (seconds * 1e9);
            while (true) {
                while (posted - done < Integer.getInteger("outstanding", 64)) {
                    long at = (posted % slots) * msg;
                    if (!qpB.postWrite(posted, s, at, msg, d.address() + at, d.rkey(), true)) {
                        break;
                    }
                    posted++;
                }
                Completion x;
                while ((x = cqB.poll()) != null) {
                    if (!x.isSuccess()) {
                        throw new IllegalStateException(x.toString());
                    }
                    done++;
                }
                long now = System.nanoTime();
                if (start == 0 && now >= warm) {
                    start = now;
                    startDone = done;
                    cpuStart = cpuNanos();
                }
                if (now >= end) {
                    double bytes = (double) (done - startDone) * msg;
                    double cpu = (cpuNanos() - cpuStart) / 1e9;
                    System.out.printf("engine: %.2f GB/s wall, %.2f GB/s per CPU-second (%.2f CPU-seconds for "
                            + "%.1f wall); %d data frames sent, %d retransmitted, %d ACKs%n", bytes / ((now - start)
                            / 1e9) / 1e9, bytes / cpu / 1e9, cpu, (now - start) / 1e9, b.stats().dataFramesSent(),
                            b.stats().retransmittedFrames(), a.stats().ackFramesSent());
                    return bytes / cpu;
                }
                step.run();
            }
        }
    }
}
