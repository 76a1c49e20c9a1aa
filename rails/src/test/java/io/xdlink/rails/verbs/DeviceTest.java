package io.xdlink.rails.verbs;

import io.xdlink.rails.ForwardingRailTransport;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.agent.BackoffIdleStrategy;
import io.xdlink.rails.inmemory.InMemoryRailPair;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

class DeviceTest {

    /** A rail that only counts who asked to be woken on arrivals. */
    private static final class WatchedRail extends ForwardingRailTransport {
        volatile int arrivalWatches;

        WatchedRail(RailTransport inner) {
            super(inner);
        }

        @Override
        public void onArrival(Runnable wake) {
            arrivalWatches++;
            super.onArrival(wake);
        }
    }

    @Test
    void theLastFrameOfABurstAsksForItsAckSoNothingIsLeftOwedAtTheEnd() throws Exception {
        try (TwoDevices t = TwoDevices.simple(1).connect(); Arena arena = Arena.ofShared()) {
            MemoryRegion src = t.pdB.register(arena.allocate(64));
            MemoryRegion dst = t.pdA.register(arena.allocate(64), Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            long at = t.clock.nanoTime();
            assertThat(t.qpB().postWrite(1, src, 0, 64, dst.address(), dst.rkey())).isTrue();
            for (int i = 0; i < 4; i++) {
                t.b.agent().doWork();
                t.a.agent().doWork();
            }
            // The write completes without virtual time reaching any ACK delay: the frame asked for its ACK.
            assertThat(t.cqB.poll()).isEqualTo(new Completion(1, WorkOpcode.WRITE, CompletionStatus.SUCCESS, 64, 0,
                    false, t.qpB().qpn()));
            assertThat(t.clock.nanoTime()).isEqualTo(at);
            long acks = t.a.stats().ackFramesSent();
            // Nothing is owed any more, so settling before an exit sends nothing.
            assertThat(t.a.acknowledgeNow(0)).isTrue();
            assertThat(t.a.stats().ackFramesSent()).isEqualTo(acks);
            t.a.close();
            assertThat(t.a.acknowledgeNow(0)).as("a closed device owes nothing it can send").isFalse();
        }
    }

    @Test
    void onlyAnEngineWithAThreadOfItsOwnAsksItsRailsToWakeIt() {
        InMemoryRailPair p = InMemoryRailPair.create(new RailInfo("mem0", "c", LinkState.of(Generation.GEN3, 2),
                false), 64);
        WatchedRail invoked = new WatchedRail(p.a());
        WatchedRail threaded = new WatchedRail(p.b());
        try (Device a = Device.open(DeviceConfig.builder().invoker().build(), List.of(invoked));
             Device b = Device.open(DeviceConfig.builder().thread(new BackoffIdleStrategy()).build(),
                     List.of(threaded))) {
            a.agent().doWork();
            assertThat(a.stats().rails()).hasSize(1);
            // The invoker's owner steps it and waits its own way: a watch would only cost wake-ups.
            assertThat(invoked.arrivalWatches).isZero();
            for (int i = 0; i < 30_000 && threaded.arrivalWatches == 0; i++) {
                Thread.onSpinWait();
                Thread.yield();
            }
            assertThat(threaded.arrivalWatches).isEqualTo(1);
        }
    }

    @Test
    void aWriteWithImmediateArrivesAndCompletesOnBothSides() throws Exception {
        try (TwoDevices t = TwoDevices.simple(1).connect(); Arena arena = Arena.ofShared()) {
            MemorySegment src = arena.allocate(10_000);
            for (int i = 0; i < 10_000; i++) {
                src.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7));
            }
            MemorySegment dst = arena.allocate(10_000);
            MemoryRegion mrB = t.pdB.register(src);
            MemoryRegion mrA = t.pdA.register(dst, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            assertThat(t.qpA().postRecv(5, null, 0, 0)).isTrue();
            assertThat(t.qpB().postWriteWithImm(9, mrB, 0, 10_000, mrA.address(), mrA.rkey(), 1234)).isTrue();
            Completion sent = t.next(t.cqB);
            assertThat(sent).isEqualTo(new Completion(9, WorkOpcode.WRITE_WITH_IMM, CompletionStatus.SUCCESS, 10_000,
                    0, false, t.qpB().qpn()));
            Completion recv = t.next(t.cqA);
            assertThat(recv).isEqualTo(new Completion(5, WorkOpcode.RECV_WRITE_WITH_IMM, CompletionStatus.SUCCESS,
                    10_000, 1234, true, t.qpA().qpn()));
            assertThat(dst.mismatch(src)).isEqualTo(-1);
        }
    }

    @Test
    void sendLandsInThePostedReceive() throws Exception {
        try (TwoDevices t = TwoDevices.simple(2).connect(); Arena arena = Arena.ofShared()) {
            MemorySegment src = arena.allocate(100);
            src.fill((byte) 3);
            MemorySegment dst = arena.allocate(200);
            MemoryRegion mrA = t.pdA.register(src);
            MemoryRegion mrB = t.pdB.register(dst, Access.LOCAL_WRITE);
            t.qpB().postRecv(77, mrB, 50, 150);
            t.qpA().postSendWithImm(8, mrA, 0, 100, 99);
            assertThat(t.next(t.cqA).status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(t.next(t.cqB)).isEqualTo(new Completion(77, WorkOpcode.RECV, CompletionStatus.SUCCESS, 100, 99,
                    true, t.qpB().qpn()));
            assertThat(dst.asSlice(50, 100).mismatch(src)).isEqualTo(-1);
            assertThat(dst.get(ValueLayout.JAVA_BYTE, 49)).isZero();
        }
    }

    /** Waits for a condition the threads will make true; the limit only stops a broken run from hanging. */
    static void await(BooleanSupplier done, String what) throws InterruptedException {
        for (int i = 0; i < 60_000 && !done.getAsBoolean(); i++) {
            Thread.sleep(1);
        }
        if (!done.getAsBoolean()) {
            throw new AssertionError("never happened: " + what);
        }
    }

    private static List<InMemoryRailPair> rails(int n) {
        List<InMemoryRailPair> pairs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            pairs.add(InMemoryRailPair.create(new RailInfo("t" + i, "cable" + i, LinkState.of(Generation.GEN3, 2),
                    false), 1024));
        }
        return pairs;
    }

    private static Device open(UUID id, List<RailTransport> ends) {
        return Device.open(DeviceConfig.builder().id(id).settings(RailsSettings.defaults())
                .thread(new BackoffIdleStrategy()).seed(id.getLeastSignificantBits()).build(), ends);
    }

    @Test
    void closingADeviceWhileTrafficRunsFailsEveryRequestAndStopsItsThread() throws Exception {
        List<InMemoryRailPair> pairs = rails(2);
        Device a = open(new UUID(0, 1), List.of(pairs.get(0).a(), pairs.get(1).a()));
        Device b = open(new UUID(0, 2), List.of(pairs.get(0).b(), pairs.get(1).b()));
        try (Arena arena = Arena.ofShared()) {
            CompletionQueue cqA = a.createCq(4096);
            CompletionQueue cqB = b.createCq(4096);
            Listener l = a.listen();
            Connecting c = b.connect(l.handle(), QpAttributes.of(b.allocPd(), cqB));
            QueuePair[] acc = new QueuePair[1];
            ProtectionDomain pdA = a.allocPd();
            await(() -> (acc[0] = acc[0] != null ? acc[0] : l.accept(QpAttributes.of(pdA, cqA))) != null,
                    "accept");
            await(() -> {
                try {
                    return c.poll() != null && acc[0].state() == QpState.READY;
                } catch (ConnectionFailedException e) {
                    throw new AssertionError(e);
                }
            }, "connect");
            QueuePair qpB = c.queuePair();
            MemorySegment src = arena.allocate(8 << 20);
            MemoryRegion s = qpB.pd().register(src);
            MemorySegment dst = arena.allocate(8 << 20);
            MemoryRegion d = pdA.register(dst, Access.REMOTE_WRITE, Access.LOCAL_WRITE);
            for (int i = 0; i < 100; i++) {
                acc[0].postRecv(1000 + i, d, 0, 64);
            }
            int posted = 0;
            for (int i = 0; i < 200; i++) {
                if (qpB.postWrite(i, s, 0, 8 << 20, d.address(), d.rkey())) {
                    posted++;
                }
            }
            // Let some complete, then pull the plug on both devices in the middle of the stream.
            int[] ok = new int[1];
            await(() -> {
                Completion x;
                while ((x = cqB.poll()) != null) {
                    assertThat(x.status()).isEqualTo(CompletionStatus.SUCCESS);
                    ok[0]++;
                }
                return ok[0] >= 3;
            }, "first completions");
            b.close();
            a.close();
            int errors = 0;
            Completion x;
            while ((x = cqB.poll()) != null) {
                if (x.isSuccess()) {
                    ok[0]++;
                } else {
                    assertThat(x.status()).isEqualTo(CompletionStatus.WR_FLUSH_ERROR);
                    errors++;
                }
            }
            assertThat(ok[0] + errors).isEqualTo(posted);
            assertThat(errors).isPositive();
            assertThat(qpB.sendOutstanding()).isZero();
            int recvFlushed = 0;
            while ((x = cqA.poll()) != null) {
                assertThat(x.status()).isEqualTo(CompletionStatus.WR_FLUSH_ERROR);
                recvFlushed++;
            }
            assertThat(recvFlushed).isEqualTo(100);
            assertThat(pairs).allSatisfy(p -> {
                assertThat(p.a().isOpen()).isFalse();
                assertThat(p.b().isOpen()).isFalse();
            });
            assertThat(Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("xdlink-device-")).toList()).isEmpty();
            // After close, posting still answers at once, with an error.
            assertThat(qpB.postWrite(9, s, 0, 8, d.address(), d.rkey())).isTrue();
            assertThat(cqB.poll().status()).isEqualTo(CompletionStatus.WR_FLUSH_ERROR);
            assertThat(a.lastError()).isNull();
            assertThat(b.lastError()).isNull();
        }
    }

    /**
     * One end of an in-memory rail that its fabric can fail: from then on every call throws, marking the whole peer
     * lost or only this rail, as the host fabric does when a peer's session or only a rail's connection is gone.
     */
    private static final class FailingRail extends ForwardingRailTransport {
        private final boolean peerLost;
        volatile boolean failed;

        FailingRail(RailTransport inner, boolean peerLost) {
            super(inner);
            this.peerLost = peerLost;
        }

        private void check() {
            if (failed) {
                throw new io.xdlink.rails.RailClosedException(info().name() + ": peer session lost", null, peerLost);
            }
        }

        @Override
        public int offerRun(int headLength, FrameRun run, MemorySegment payload, int count) {
            check();
            return super.offerRun(headLength, run, payload, count);
        }

        @Override
        public boolean offer(int length, FrameWriter writer) {
            check();
            return super.offer(length, writer);
        }

        @Override
        public int poll(FrameReceiver receiver, int limit) {
            check();
            return super.poll(receiver, limit);
        }

        @Override
        public int flush() {
            check();
            return super.flush();
        }

        @Override
        public boolean isOpen() {
            return !failed && super.isOpen();
        }
    }

    /** B posts three WRITEs to A and a receive, then its only rail fails; returns B's completions and the time. */
    private static List<Completion> failTheRailUnderThreeWrites(boolean peerLost, long[] elapsed) throws Exception {
        InMemoryRailPair p = InMemoryRailPair.create(new RailInfo("mem0", "c", LinkState.of(Generation.GEN3, 2),
                false), 1024);
        FailingRail bEnd = new FailingRail(p.b(), peerLost);
        try (TwoDevices t = new TwoDevices(List.of(p.a()), List.of(bEnd), RailsSettings.defaults(), 3).connect();
             Arena arena = Arena.ofShared()) {
            MemoryRegion src = t.pdB.register(arena.allocate(65_536));
            MemoryRegion dst = t.pdA.register(arena.allocate(65_536), Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            assertThat(t.qpB().postRecv(10, null, 0, 0)).isTrue();
            bEnd.failed = true;
            long start = t.clock.nanoTime();
            for (int i = 1; i <= 3; i++) {
                assertThat(t.qpB().postWrite(i, src, 0, 65_536, dst.address(), dst.rkey())).isTrue();
            }
            List<Completion> got = new ArrayList<>();
            while (got.size() < 4) {
                got.add(t.next(t.cqB));
            }
            elapsed[0] = t.clock.nanoTime() - start;
            assertThat(t.qpB().state()).isEqualTo(QpState.ERROR);
            return got;
        }
    }

    @Test
    void aLostPeerFailsEveryRequestOutstandingToItAtOnce() throws Exception {
        long[] elapsed = new long[1];
        List<Completion> got = failTheRailUnderThreeWrites(true, elapsed);
        assertThat(got).extracting(Completion::wrId, Completion::status).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple(1L, CompletionStatus.RETRY_EXCEEDED_ERROR),
                org.assertj.core.groups.Tuple.tuple(2L, CompletionStatus.WR_FLUSH_ERROR),
                org.assertj.core.groups.Tuple.tuple(3L, CompletionStatus.WR_FLUSH_ERROR),
                org.assertj.core.groups.Tuple.tuple(10L, CompletionStatus.WR_FLUSH_ERROR));
        assertThat(elapsed[0]).as("virtual time to fail them").isLessThan(RailsSettings.defaults()
                .retransmitNanos());
    }

    @Test
    void aRailLostWithoutItsPeerLeavesTheRequestsToThePeerTimeout() throws Exception {
        long[] elapsed = new long[1];
        List<Completion> got = failTheRailUnderThreeWrites(false, elapsed);
        assertThat(got).extracting(Completion::wrId, Completion::status).contains(
                org.assertj.core.groups.Tuple.tuple(1L, CompletionStatus.RETRY_EXCEEDED_ERROR));
        assertThat(elapsed[0]).as("virtual time to fail them").isGreaterThanOrEqualTo(RailsSettings.defaults()
                .peerTimeoutNanos());
    }

    @Test
    void aRailThatCarriesSmallerFramesThanTheDeviceSendsIsRefusedAndClosed() {
        RailInfo info = new RailInfo("mem0", "link0", LinkState.of(Generation.GEN3, 2), false);
        InMemoryRailPair pair = InMemoryRailPair.create(info, 64);
        DeviceConfig config = DeviceConfig.builder().id(new UUID(1, 1)).settings(RailsSettings.of("frame_bytes",
                "16384")).invoker().build();
        try (Device d = Device.open(config, List.of())) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> d.addRail(pair.a()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("rail mem0 carries frames of at most 4096 bytes; this device sends frames of up to "
                            + "16384 (frame_bytes)");
            assertThat(pair.a().isOpen()).isFalse();
        }
    }
}
