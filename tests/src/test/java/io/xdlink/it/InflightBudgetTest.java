package io.xdlink.it;

import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.agent.BackoffIdleStrategy;
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
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DESIGN rule 8: a transfer of any size streams through a fixed in-flight budget. 8 GiB go from one device to
 * another through the default 64 MiB budget (reusing one 64 MiB source and target, as an application streaming a
 * model would), and the process's memory is measured along the way: the budget itself (the engine's own count), the
 * application's buffers (an accounting arena), the heap after collection, the JVM's direct buffers, and the
 * resident set of the process. None may grow with the bytes moved.
 */
class InflightBudgetTest extends ResourceTest {
    private static final long MIB = 1L << 20;
    private static final long TOTAL = 8L << 30;
    private static final long MESSAGE = 16 * MIB;
    private static final long REGION = 64 * MIB;

    /** An arena that counts what it hands out, for the application's side of the ledger. */
    private static final class AccountingArena implements Arena {
        private final Arena delegate = Arena.ofShared();
        private long allocated;

        @Override
        public MemorySegment allocate(long byteSize, long byteAlignment) {
            allocated += byteSize;
            return delegate.allocate(byteSize, byteAlignment);
        }

        @Override
        public MemorySegment.Scope scope() {
            return delegate.scope();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }

    private record Sample(long moved, long heapAfterGc, long direct, long rss, long inflight) {
    }

    private static long direct() {
        long sum = 0;
        for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            sum += b.getMemoryUsed();
        }
        return sum;
    }

    /** Resident set of this process in bytes (Linux), or -1 where /proc is not there. */
    private static long rss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    private static Sample sample(long moved, Device sender) {
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        System.gc();
        return new Sample(moved, mem.getHeapMemoryUsage().getUsed(), direct(), rss(),
                sender.stats().maxInflightBytes());
    }

    @Test
    void eightGibibytesStreamThroughA64MibBudgetInBoundedMemory() throws Exception {
        // Four rails whose windows together hold more than the budget, and a packet window larger than it: the
        // in-flight budget, at its default, is what binds.
        RailsSettings settings = RailsSettings.of("rail_window_frames", "6144", "qp_psn_window", "65536");
        assertThat(settings.inflightBytes()).isEqualTo(64 * MIB);
        assertThat(4L * settings.railWindowFrames() * 4096).isGreaterThan(settings.inflightBytes());
        List<io.xdlink.rails.RailTransport> as = new ArrayList<>();
        List<io.xdlink.rails.RailTransport> bs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            InMemoryRailPair p = InMemoryRailPair.create(new RailInfo("mem" + i, "cable" + (i / 2),
                    LinkState.of(Generation.GEN4, 2), false), settings.railWindowFrames());
            as.add(closeLater(p.a()));
            bs.add(closeLater(p.b()));
        }
        Device target = closeLater(Device.open(DeviceConfig.builder().id(new UUID(8, 1)).settings(settings)
                .thread(new BackoffIdleStrategy()).seed(1).build(), as));
        Device sender = closeLater(Device.open(DeviceConfig.builder().id(new UUID(8, 2)).settings(settings)
                .thread(new BackoffIdleStrategy()).seed(2).build(), bs));
        AccountingArena arena = closeLater(new AccountingArena());
        MemorySegment src = arena.allocate(REGION, 4096);
        MemorySegment dst = arena.allocate(REGION, 4096);
        for (long o = 0; o < REGION; o += 8) {
            src.set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, o, o * 0x9E3779B97F4A7C15L);
        }
        ProtectionDomain pdT = target.allocPd();
        ProtectionDomain pdS = sender.allocPd();
        CompletionQueue cqT = target.createCq(1024);
        CompletionQueue cqS = sender.createCq(1024);
        MemoryRegion s = pdS.register(src);
        MemoryRegion d = pdT.register(dst, Access.REMOTE_WRITE);
        Listener l = closeLater(target.listen());
        Connecting c = sender.connect(l.handle(), QpAttributes.of(pdS, cqS));
        QueuePair[] accepted = new QueuePair[1];
        await(() -> (accepted[0] = accepted[0] != null ? accepted[0] : l.accept(QpAttributes.of(pdT, cqT)))
                != null, "accept");
        QueuePair[] qp = new QueuePair[1];
        await(() -> {
            try {
                return (qp[0] = c.poll()) != null;
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }, "connect");

        List<Sample> samples = new ArrayList<>();
        long posted = 0;
        long done = 0;
        long messages = TOTAL / MESSAGE;
        long nextSample = 0;
        long slots = REGION / MESSAGE;
        while (done < messages) {
            // Twice the budget requested at once: the budget, not the application, has to hold the line.
            while (posted < messages && posted - done < 8) {
                long at = (posted % slots) * MESSAGE;
                if (!qp[0].postWrite(posted, s, at, MESSAGE, d.address() + at, d.rkey())) {
                    break;
                }
                posted++;
            }
            Completion x;
            while ((x = cqS.poll()) != null) {
                assertThat(x.status()).isEqualTo(io.xdlink.rails.verbs.CompletionStatus.SUCCESS);
                done++;
            }
            if (done * MESSAGE >= nextSample) {
                samples.add(sample(done * MESSAGE, sender));
                nextSample += TOTAL / 8;
            }
            Thread.onSpinWait();
            Thread.yield();
        }
        samples.add(sample(TOTAL, sender));
        assertThat(dst.mismatch(src)).as("the last pass over the target holds the source").isEqualTo(-1);
        for (Sample x : samples) {
            System.out.printf("moved %5d MiB: heap after GC %4d MiB, direct %4d MiB, RSS %5d MiB, max in flight "
                    + "%.1f MiB%n", x.moved() / MIB, x.heapAfterGc() / MIB, x.direct() / MIB, x.rss() / MIB,
                    x.inflight() / (double) MIB);
        }
        Sample first = samples.get(1);
        Sample last = samples.getLast();
        assertThat(last.inflight()).as("the engine never had more than the budget in flight")
                .isLessThanOrEqualTo(settings.inflightBytes() + 4096)
                .as("and the budget is what held it back").isGreaterThan(settings.inflightBytes() / 2);
        assertThat(arena.allocated).as("the application's buffers").isEqualTo(2 * REGION);
        assertThat(last.heapAfterGc() - first.heapAfterGc()).as("heap growth from 1 to 8 GiB moved")
                .isLessThan(16 * MIB);
        assertThat(last.direct() - first.direct()).as("direct memory growth").isLessThan(MIB);
        if (first.rss() > 0) {
            assertThat(last.rss() - first.rss()).as("resident set growth from 1 to 8 GiB moved")
                    .isLessThan(64 * MIB);
        }
        assertThat(qp[0].sendOutstanding()).isZero();
    }

    private static void await(java.util.function.BooleanSupplier done, String what) throws InterruptedException {
        long end = System.nanoTime() + PATIENCE.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("never happened: " + what);
            }
            Thread.sleep(1);
        }
    }
}
