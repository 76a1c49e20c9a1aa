package io.xdlink.rails.engine;

import io.xdlink.rails.ForwardingRailTransport;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.frame.Frame;
import io.xdlink.rails.frame.FrameCodec;
import io.xdlink.rails.frame.FrameFlags;
import io.xdlink.rails.frame.FrameLayout;
import io.xdlink.rails.frame.Opcode;
import io.xdlink.rails.inmemory.RailFaultPlan;
import io.xdlink.rails.inmemory.InMemoryRailPair;
import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.CompletionStatus;
import io.xdlink.rails.verbs.DeviceStats;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.TwoDevices;
import io.xdlink.rails.verbs.WorkOpcode;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WRITE's (or WRITE_WITH_IMM's) frames that follow each other in order take the short way in ({@link ReceiveRun});
 * whatever breaks a run (another queue pair's frames, a lost, reordered or duplicated frame, a new message, a region
 * that goes) sends the frame the full way, and every byte lands where it belongs, once.
 */
class ReceiveRunTest {
    private static final long SEED = Long.getLong("xdlink.test.seed", 20261201L);

    /** A by-reference in-memory rail end that says it delivers intact, as the simulator's does: runs apply. */
    private static final class Intact extends ForwardingRailTransport {
        Intact(RailTransport inner) {
            super(inner);
        }

        @Override
        public RailInfo info() {
            return inner.info().withIntact(true);
        }
    }

    private record Fixture(TwoDevices t, List<InMemoryRailPair> pairs) implements AutoCloseable {
        long runFrames() {
            return ((DeviceEngine) t.a.agent()).counters.runFrames + ((DeviceEngine) t.b.agent()).counters.runFrames;
        }

        /** One WRITE of {@code size} random bytes from B to A; asserts it completed and landed byte for byte. */
        void writeOnce(Arena arena, int size, long seed) {
            MemorySegment src = random(arena, size, seed);
            MemorySegment dst = arena.allocate(size);
            MemoryRegion s = t.pdB.register(src);
            MemoryRegion d = t.pdA.register(dst, Access.REMOTE_WRITE);
            assertThat(t.qpB().postWrite(1, s, 0, size, d.address(), d.rkey())).isTrue();
            assertThat(t.next(t.cqB).status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(dst.mismatch(src)).as("target, seed " + seed).isEqualTo(-1);
        }

        @Override
        public void close() {
            t.close();
        }
    }

    private static Fixture fixture(int rails, boolean intact, RailFaultPlan faults) throws Exception {
        List<InMemoryRailPair> pairs = new ArrayList<>();
        List<RailTransport> ends = new ArrayList<>();
        List<RailTransport> others = new ArrayList<>();
        for (int i = 0; i < rails; i++) {
            RailInfo info = new RailInfo("mem" + i, "cable" + i, LinkState.of(Generation.GEN3, 2),
                    faults != RailFaultPlan.NONE);
            InMemoryRailPair p = InMemoryRailPair.createByReference(info, 256, faults.withSeed(faults.seed() + i));
            pairs.add(p);
            ends.add(intact ? new Intact(p.a()) : p.a());
            others.add(intact ? new Intact(p.b()) : p.b());
        }
        TwoDevices t = new TwoDevices(ends, others, RailsSettings.defaults(), SEED);
        return new Fixture(t.connect(), pairs);
    }

    private static MemorySegment random(Arena arena, int size, long seed) {
        MemorySegment s = arena.allocate(size, 8);
        SplittableRandom r = new SplittableRandom(seed);
        for (long i = 0; i + 8 <= size; i += 8) {
            s.set(ValueLayout.JAVA_LONG_UNALIGNED, i, r.nextLong());
        }
        return s;
    }

    @Test
    void aWriteOverAnIntactRailTakesTheShortWayAndLandsByteForByte() throws Exception {
        int size = 1 << 20;
        try (Fixture f = fixture(1, true, RailFaultPlan.NONE); Arena arena = Arena.ofShared()) {
            TwoDevices t = f.t();
            MemorySegment src = random(arena, size, SEED);
            MemorySegment dst = arena.allocate(size + 8192);
            dst.fill((byte) 0x33);
            MemoryRegion s = t.pdB.register(src);
            MemoryRegion d = t.pdA.register(dst, Access.REMOTE_WRITE);
            assertThat(t.qpB().postWrite(1, s, 0, size, d.address() + 4096, d.rkey())).isTrue();
            assertThat(t.next(t.cqB).status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(dst.asSlice(4096, size).mismatch(src)).as("target, seed " + SEED).isEqualTo(-1);
            assertThat(dst.asSlice(0, 4096).mismatch(arena.allocate(4096).fill((byte) 0x33))).isEqualTo(-1);
            assertThat(dst.asSlice(4096 + size).mismatch(arena.allocate(4096).fill((byte) 0x33))).isEqualTo(-1);
            // A run goes on from one poll to the next: every frame of the message but its first and at most one more
            // took the short way. When each poll ended its run, one frame a poll went the full way (17 of these 260).
            long frames = t.a.stats().dataFramesReceived();
            assertThat(f.runFrames()).as("frames of %d taken the short way", frames)
                    .isGreaterThanOrEqualTo(frames - 2);
            // The count a watcher on another thread reads holds the short way's frames too.
            assertThat(t.a.dataFramesReceived()).isEqualTo(frames).isPositive();
        }
    }

    @Test
    void writesBothWaysAtOnceKeepTheirRunsThroughTheAcknowledgementsBetweenTheirFrames() throws Exception {
        int size = 4 << 20;
        try (Fixture f = fixture(1, true, RailFaultPlan.NONE); Arena arena = Arena.ofShared()) {
            TwoDevices t = f.t();
            MemorySegment fromA = random(arena, size, SEED + 11);
            MemorySegment fromB = random(arena, size, SEED + 12);
            MemorySegment intoA = arena.allocate(size);
            MemorySegment intoB = arena.allocate(size);
            MemoryRegion sa = t.pdA.register(fromA);
            MemoryRegion sb = t.pdB.register(fromB);
            MemoryRegion da = t.pdA.register(intoA, Access.REMOTE_WRITE);
            MemoryRegion db = t.pdB.register(intoB, Access.REMOTE_WRITE);
            for (int i = 0; i < 4; i++) {
                int at = i * (size / 4);
                assertThat(t.qpA().postWrite(i, sa, at, size / 4, db.address() + at, db.rkey())).isTrue();
                assertThat(t.qpB().postWrite(i, sb, at, size / 4, da.address() + at, da.rkey())).isTrue();
            }
            for (int i = 0; i < 4; i++) {
                assertThat(t.next(t.cqA).status()).isEqualTo(CompletionStatus.SUCCESS);
                assertThat(t.next(t.cqB).status()).isEqualTo(CompletionStatus.SUCCESS);
            }
            assertThat(intoA.mismatch(fromB)).as("into A, seed " + SEED).isEqualTo(-1);
            assertThat(intoB.mismatch(fromA)).as("into B, seed " + SEED).isEqualTo(-1);
            long frames = t.a.stats().dataFramesReceived() + t.b.stats().dataFramesReceived();
            long acks = t.a.stats().ackFramesReceived() + t.b.stats().ackFramesReceived();
            assertThat(acks).as("acknowledgements came between the data frames").isPositive();
            // The first frame of each of the eight messages goes the full way, and a few more; an acknowledgement
            // between two frames of a message does not end its run (when it did, 41 of these 2080 went the full way).
            assertThat(f.runFrames()).as("frames of %d taken the short way", frames)
                    .isGreaterThanOrEqualTo(frames - 2 * 8);
        }
    }

    @Test
    void aStripedWritesLaterBlockTakesTheShortWayAheadOfTheFirstAndLandsByteForByte() throws Exception {
        int size = 4 << 20;
        try (Fixture f = fixture(2, true, RailFaultPlan.NONE); Arena arena = Arena.ofShared()) {
            f.writeOnce(arena, size, SEED + 5);
            DeviceStats a = f.t().a.stats();
            // Cut in two (stripe_min_bytes is 64K here): each rail carried half, the second ahead of the first.
            assertThat(a.rails()).allSatisfy(r -> assertThat(r.dataFramesReceived()).isGreaterThan(300));
            assertThat(a.duplicateFrames()).isZero();
            // Not just the first rail's frames, which arrive in order: the second's too took the short way.
            long frames = a.dataFramesReceived();
            assertThat(f.runFrames()).as("frames of %d taken the short way", frames).isGreaterThan(frames * 3 / 4);
        }
    }

    /**
     * WRITE_WITH_IMMs in a row, a collective library's messages, each into its own place and consuming its own
     * receive: over one intact rail most frames take the short way; over two lossy ones the faults cut the runs.
     * Either way each receive completes once, in order, with its immediate and length, its bytes all there by then.
     */
    @ParameterizedTest(name = "lossy {0}")
    @ValueSource(booleans = {false, true})
    void writesWithImmediateTakeTheShortWayAndEachCompletesItsOwnReceiveOnce(boolean lossy) throws Exception {
        int size = 300_000;
        int messages = 6;
        RailFaultPlan faults = lossy ? new RailFaultPlan(0.01, 0.02, 0.01, 0, SEED + 6) : RailFaultPlan.NONE;
        try (Fixture f = fixture(lossy ? 2 : 1, true, faults); Arena arena = Arena.ofShared()) {
            TwoDevices t = f.t();
            MemorySegment src = random(arena, size * messages, SEED + 7);
            long stride = size + 4096;
            MemorySegment dst = arena.allocate(stride * messages);
            MemoryRegion s = t.pdB.register(src);
            MemoryRegion d = t.pdA.register(dst, Access.REMOTE_WRITE);
            for (int m = 0; m < messages; m++) {
                assertThat(t.qpA().postRecv(10 + m, null, 0, 0)).isTrue();
            }
            for (int m = 0; m < messages; m++) {
                assertThat(t.qpB().postWriteWithImm(m, s, (long) m * size, size, d.address() + m * stride, d.rkey(),
                        100 + m)).isTrue();
            }
            for (int m = 0; m < messages; m++) {
                Completion c = t.next(t.cqA);
                assertThat(c.status()).as("receive %d, seed %d", m, SEED).isEqualTo(CompletionStatus.SUCCESS);
                assertThat(c.wrId()).isEqualTo(10 + m);
                assertThat(c.opcode()).isEqualTo(WorkOpcode.RECV_WRITE_WITH_IMM);
                assertThat(c.imm()).isEqualTo(100 + m);
                assertThat(c.hasImm()).isTrue();
                assertThat(c.byteLen()).isEqualTo(size);
                assertThat(dst.asSlice(m * stride, size).mismatch(src.asSlice((long) m * size, size)))
                        .as("message %d when its receive completed, seed %d", m, SEED).isEqualTo(-1);
                assertThat(t.next(t.cqB).status()).isEqualTo(CompletionStatus.SUCCESS);
            }
            MemorySegment gap = arena.allocate(stride - size);
            for (int m = 0; m < messages; m++) {
                assertThat(dst.asSlice(m * stride + size, stride - size).mismatch(gap)).isEqualTo(-1);
            }
            t.settle(1_000_000_000L);
            assertThat(t.cqA.poll()).as("no receive completes twice").isNull();
            assertThat(t.a.stats().internalErrors()).as("A's internal errors, last %s", t.a.lastError()).isZero();
            long frames = t.a.stats().dataFramesReceived();
            if (lossy) {
                assertThat(t.b.stats().retransmittedFrames()).as("the fault plan lost frames").isPositive();
                assertThat(f.runFrames()).as("runs cut by the faults").isPositive().isLessThan(frames);
            } else {
                assertThat(f.runFrames()).as("frames of %d taken the short way", frames).isGreaterThan(frames / 2);
            }
        }
    }

    /** Four WRITEs in a row, then the rails' and devices' books as the receiving side kept them. */
    private static List<Object> booksAfterWrites(boolean intact) throws Exception {
        int size = 700_000;
        try (Fixture f = fixture(1, intact, RailFaultPlan.NONE); Arena arena = Arena.ofShared()) {
            TwoDevices t = f.t();
            MemorySegment src = random(arena, size, SEED + 9);
            MemorySegment dst = arena.allocate(size);
            MemoryRegion s = t.pdB.register(src);
            MemoryRegion d = t.pdA.register(dst, Access.REMOTE_WRITE);
            for (int i = 0; i < 4; i++) {
                t.qpB().postWrite(i, s, 0, size, d.address(), d.rkey());
            }
            for (int i = 0; i < 4; i++) {
                assertThat(t.next(t.cqB).status()).isEqualTo(CompletionStatus.SUCCESS);
            }
            assertThat(dst.mismatch(src)).isEqualTo(-1);
            t.settle(1_000_000_000L);
            Rail rail = ((DeviceEngine) t.a.agent()).rails().getFirst();
            DeviceStats a = t.a.stats();
            DeviceStats b = t.b.stats();
            // The short way catches what a run's placement throws: nothing may have been caught on either side.
            assertThat(a.internalErrors()).as("A's internal errors, last %s", t.a.lastError()).isZero();
            assertThat(b.internalErrors()).as("B's internal errors, last %s", t.b.lastError()).isZero();
            return List.of(f.runFrames() > 0, rail.rxPosition(), rail.rxMap(), a.rails().getFirst().framesReceived(),
                    a.rails().getFirst().dataFramesReceived(), a.dataFramesReceived(), a.ackFramesSent(),
                    a.creditFramesSent(), a.duplicateFrames(), b.ackFramesReceived(), b.rails().getFirst().credits());
        }
    }

    @Test
    void framesTakenTheShortWayAreBookedAsTheFullWayBooksThem() throws Exception {
        List<Object> shortWay = booksAfterWrites(true);
        List<Object> fullWay = booksAfterWrites(false);
        assertThat(shortWay.getFirst()).isEqualTo(true);
        assertThat(fullWay.getFirst()).isEqualTo(false);
        // Sequence, map of recent sequences, counts, and every acknowledgement and credit update sent: the same.
        assertThat(shortWay.subList(1, shortWay.size())).isEqualTo(fullWay.subList(1, fullWay.size()));
    }

    @Test
    void aRailThatMayDamageFramesKeepsEveryFrameOnTheFullWay() throws Exception {
        int size = 256 << 10;
        try (Fixture f = fixture(1, false, RailFaultPlan.NONE); Arena arena = Arena.ofShared()) {
            f.writeOnce(arena, size, SEED + 1);
            assertThat(f.runFrames()).as("a frame whose CRC is checked is never taken unchecked").isZero();
        }
    }

    /** On one rail the two queue pairs' blocks take turns; on two, each write is also cut over both rails. */
    @ParameterizedTest(name = "{0} rail(s)")
    @ValueSource(ints = {1, 2})
    void writesOfTwoQueuePairsInterleavedLandEachInItsOwnPlace(int rails) throws Exception {
        int size = 300_000;
        int messages = 6;
        try (Fixture f = fixture(rails, true, RailFaultPlan.NONE); Arena arena = Arena.ofShared()) {
            TwoDevices t = f.t();
            TwoDevices.Connected second = TwoDevices.connect(t.driver, t.a, t.b);
            MemorySegment src1 = random(arena, size * messages, SEED + 2);
            MemorySegment src2 = random(arena, size * messages, SEED + 3);
            // Targets apart, with gaps between messages: each message lands at its own place, the gaps stay.
            long stride = size + 1000;
            MemorySegment dst1 = arena.allocate(stride * messages);
            MemorySegment dst2 = arena.allocate(stride * messages);
            MemoryRegion s1 = t.pdB.register(src1);
            MemoryRegion s2 = second.pdB().register(src2);
            MemoryRegion d1 = t.pdA.register(dst1, Access.REMOTE_WRITE);
            MemoryRegion d2 = second.pdA().register(dst2, Access.REMOTE_WRITE);
            for (int m = 0; m < messages; m++) {
                // Posted alternately, so frames of the two queue pairs share the rail, block by block.
                assertThat(t.qpB().postWrite(m, s1, (long) m * size, size, d1.address() + m * stride, d1.rkey()))
                        .isTrue();
                assertThat(second.qpB().postWrite(m, s2, (long) m * size, size, d2.address() + m * stride,
                        d2.rkey())).isTrue();
            }
            for (int m = 0; m < messages; m++) {
                assertThat(t.next(t.cqB).status()).isEqualTo(CompletionStatus.SUCCESS);
                assertThat(t.next(second.cqB()).status()).isEqualTo(CompletionStatus.SUCCESS);
            }
            for (int m = 0; m < messages; m++) {
                assertThat(dst1.asSlice(m * stride, size).mismatch(src1.asSlice((long) m * size, size)))
                        .as("queue pair 1 message %d, seed %d", m, SEED).isEqualTo(-1);
                assertThat(dst2.asSlice(m * stride, size).mismatch(src2.asSlice((long) m * size, size)))
                        .as("queue pair 2 message %d, seed %d", m, SEED).isEqualTo(-1);
                MemorySegment zeros = arena.allocate(stride - size);
                assertThat(dst1.asSlice(m * stride + size, stride - size).mismatch(zeros)).isEqualTo(-1);
                assertThat(dst2.asSlice(m * stride + size, stride - size).mismatch(zeros)).isEqualTo(-1);
            }
            assertThat(f.runFrames()).isPositive();
        }
    }

    @Test
    void lostReorderedAndDuplicatedFramesCutRunsAndEveryByteLandsOnce() throws Exception {
        int size = 200_000;
        int messages = 8;
        RailFaultPlan faults = new RailFaultPlan(0.01, 0.02, 0.01, 0, SEED);
        try (Fixture f = fixture(2, true, faults); Arena arena = Arena.ofShared()) {
            TwoDevices t = f.t();
            MemorySegment src = random(arena, size * messages, SEED + 4);
            MemorySegment dst = arena.allocate((long) size * messages);
            MemoryRegion s = t.pdB.register(src);
            MemoryRegion d = t.pdA.register(dst, Access.REMOTE_WRITE);
            for (int m = 0; m < messages; m++) {
                assertThat(t.qpB().postWrite(m, s, (long) m * size, size, d.address() + (long) m * size, d.rkey()))
                        .isTrue();
            }
            for (int m = 0; m < messages; m++) {
                Completion c = t.next(t.cqB);
                assertThat(c.status()).as("message %d, seed %d", m, SEED).isEqualTo(CompletionStatus.SUCCESS);
                assertThat(c.wrId()).isEqualTo(m);
            }
            assertThat(dst.mismatch(src)).as("target, seed " + SEED).isEqualTo(-1);
            assertThat(t.b.stats().retransmittedFrames()).as("the fault plan lost frames").isPositive();
            assertThat(f.runFrames()).isPositive();
            assertThat(f.runFrames()).as("runs cut by the faults").isLessThan(t.a.stats().dataFramesReceived());
        }
    }

    @Test
    void aRegionDeregisteredWhileARunArrivesTakesNoMoreOfIt() throws Exception {
        int size = 4 << 20;
        try (Fixture f = fixture(1, true, RailFaultPlan.NONE); Arena arena = Arena.ofShared()) {
            TwoDevices t = f.t();
            MemorySegment src = arena.allocate(size);
            src.fill((byte) 0x5A);
            MemorySegment dst = arena.allocate(size);
            MemoryRegion s = t.pdB.register(src);
            MemoryRegion d = t.pdA.register(dst, Access.REMOTE_WRITE);
            t.qpB().postWrite(1, s, 0, size, d.address(), d.rkey());
            for (int i = 0; i < 1000 && dst.get(ValueLayout.JAVA_BYTE, 8192) == 0; i++) {
                t.b.agent().doWork();
                t.a.agent().doWork();
            }
            assertThat(f.runFrames()).as("the message's run had begun").isPositive();
            d.deregister();
            assertThat(t.next(t.cqB).status()).isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
            assertThat(t.next(t.cqA).status()).isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
            long landed = 0;
            while (landed < size && dst.get(ValueLayout.JAVA_BYTE, landed) != 0) {
                landed++;
            }
            assertThat(landed).as("bytes placed before the region went").isPositive().isLessThan(size);
            assertThat(dst.asSlice(landed).mismatch(arena.allocate(size - landed))).isEqualTo(-1);
        }
    }

    /** The heads of a run of WRITE_WITH_IMM frames of {@code lengths} payload bytes, each following the one before. */
    private static MemorySegment heads(int... lengths) {
        int head = Opcode.WRITE_WITH_IMM.headerBytes() + FrameLayout.TRAILER_BYTES;
        MemorySegment heads = MemorySegment.ofArray(new byte[head * lengths.length]);
        long offset = 0;
        for (int i = 0; i < lengths.length; i++) {
            Frame f = new Frame.WriteWithImm(new Frame.Header(FrameFlags.PAYLOAD_UNCHECKED, 3, 100 + i, 50, 0), 9, 4,
                    700 + i, offset, 1 << 20, 0x5151, 0x7000_0000L, 42, 6, new byte[lengths[i]]);
            MemorySegment.copy(MemorySegment.ofArray(FrameCodec.encode(f)), 0, heads, (long) i * head,
                    Opcode.WRITE_WITH_IMM.headerBytes());
            offset += lengths[i];
        }
        return heads;
    }

    private static void set(MemorySegment heads, int frame, long at, long value) {
        long o = (long) frame * (Opcode.WRITE_WITH_IMM.headerBytes() + FrameLayout.TRAILER_BYTES) + at;
        heads.set(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN), o, value);
    }

    private static long get(MemorySegment heads, int frame, long at) {
        long o = (long) frame * (Opcode.WRITE_WITH_IMM.headerBytes() + FrameLayout.TRAILER_BYTES) + at;
        return heads.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN), o);
    }

    /**
     * A run's heads whose first has no run to vouch for it (a message's first frame) are taken only when each head
     * after the first continues it word for word; truncated, out-of-bounds and hostile heads give no payload length,
     * so the run goes the full way, where every frame is checked alone.
     */
    @Test
    void aRunsHeadsMustEachContinueTheFirstToBeReadIntoPlace() {
        int head = Opcode.WRITE_WITH_IMM.headerBytes() + FrameLayout.TRAILER_BYTES;
        MemorySegment good = heads(16000, 16000, 900);
        assertThat(ReceiveRun.followOn(good, 0, head, 3)).isEqualTo(32900);
        assertThat(ReceiveRun.followOn(good, 0, head, 1)).as("a run of one").isEqualTo(16000);
        assertThat(ReceiveRun.followOn(good, 0, head, 0)).isEqualTo(-1);
        assertThat(ReceiveRun.followOn(good, 0, head, 4)).as("more heads than there are").isEqualTo(-1);
        assertThat(ReceiveRun.followOn(good, -1, head, 3)).isEqualTo(-1);
        assertThat(ReceiveRun.followOn(good, head, head, 3)).as("past the end").isEqualTo(-1);
        assertThat(ReceiveRun.followOn(good, 0, FrameLayout.WRITE_HEADER - 1, 3)).as("a truncated head")
                .isEqualTo(-1);
        assertThat(ReceiveRun.followOn(heads(0, 16000), 0, head, 2)).as("a frame of no bytes").isEqualTo(-1);
        assertThat(ReceiveRun.followOn(heads(16000, 0), 0, head, 2)).isEqualTo(-1);

        // Each word a later head could lie in: another queue pair or message, a packet or offset out of step, another
        // total, key, address, immediate or receive, another opcode, a rail sequence out of step.
        long[][] lies = {
            {FrameLayout.OFF_QPN, 1L << 32}, {FrameLayout.OFF_QPN, 1}, {FrameLayout.OFF_PSN, 1L << 32},
            {FrameLayout.OFF_PSN, 1}, {FrameLayout.OFF_TOTAL, 1L << 32}, {FrameLayout.OFF_TOTAL, 1},
            {FrameLayout.OFF_RADDR, 1}, {FrameLayout.OFF_WRITE_IMM, 1L << 32}, {FrameLayout.OFF_WRITE_IMM, 1},
            {FrameLayout.OFF_VERSION, 1L << 48}, {FrameLayout.OFF_VERSION, 1},
        };
        for (long[] lie : lies) {
            for (int frame = 1; frame < 3; frame++) {
                MemorySegment hostile = heads(16000, 16000, 900);
                set(hostile, frame, lie[0], get(hostile, frame, lie[0]) + lie[1]);
                assertThat(ReceiveRun.followOn(hostile, 0, head, 3))
                        .as("head %d's word at %d off by %d", frame, lie[0], lie[1]).isEqualTo(-1);
            }
        }
        // Only the flags may differ: the frame that asks for an acknowledgement.
        MemorySegment asks = heads(16000, 16000, 900);
        long first = get(asks, 2, FrameLayout.OFF_VERSION);
        set(asks, 2, FrameLayout.OFF_VERSION, first | (long) FrameFlags.ACK_REQUEST << 40);
        assertThat(ReceiveRun.followOn(asks, 0, head, 3)).isEqualTo(32900);
    }
}
