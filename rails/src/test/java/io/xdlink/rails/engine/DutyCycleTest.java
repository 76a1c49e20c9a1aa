package io.xdlink.rails.engine;

import io.xdlink.rails.ForwardingRailTransport;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.inmemory.InMemoryRailPair;
import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.CompletionStatus;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.TwoDevices;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What one duty cycle of the engine does, and in what order, where that decides how many system calls and wake-ups
 * a round trip costs on a rail such as TCP (one write per flush, one wake-up per arriving batch).
 */
class DutyCycleTest {

    /** A rail that writes down its calls: "offer", "flush:N" for a flush that carried N frames, "poll". */
    private static class RecordedRail extends ForwardingRailTransport {
        final List<String> calls = new ArrayList<>();
        private int offered;

        RecordedRail(RailTransport inner) {
            super(inner);
        }

        @Override
        public boolean offer(int length, FrameWriter writer) {
            boolean ok = super.offer(length, writer);
            if (ok) {
                offered++;
                calls.add("offer");
            }
            return ok;
        }

        @Override
        public int offerRun(int headLength, FrameRun run, MemorySegment payload, int count) {
            int sent = super.offerRun(headLength, run, payload, count);
            for (int i = 0; i < sent; i++) {
                offered++;
                calls.add("offer");
            }
            return sent;
        }

        @Override
        public int flush() {
            if (offered > 0) {
                calls.add("flush:" + offered);
                offered = 0;
            }
            return super.flush();
        }

        @Override
        public int poll(FrameReceiver receiver, int limit) {
            calls.add("poll");
            return super.poll(receiver, limit);
        }

        /** The frame counts of the flushes since the last call. */
        List<Integer> takeFlushes() {
            List<Integer> f = calls.stream().filter(c -> c.startsWith("flush:"))
                    .map(c -> Integer.parseInt(c.substring(6))).toList();
            calls.clear();
            return f;
        }
    }

    private static TwoDevices recorded(RecordedRail[] out) {
        InMemoryRailPair p = InMemoryRailPair.create(new RailInfo("mem0", "cable0", LinkState.of(Generation.GEN3, 2),
                false), 1024);
        out[0] = new RecordedRail(p.a());
        out[1] = new RecordedRail(p.b());
        return new TwoDevices(List.of(out[0]), List.of(out[1]), RailsSettings.defaults(), 42);
    }

    /**
     * 4 bytes fit one frame; 64 KiB take more frames than {@code ack_every_frames}, whose count must not send the
     * ACK on its own just before the answer.
     */
    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {4, 65536})
    void aPingPongReplyCarriesTheAckItsRequestAskedForInOneFlush(int size) throws Exception {
        RecordedRail[] rails = new RecordedRail[2];
        try (TwoDevices t = recorded(rails).connect(); Arena arena = Arena.ofShared()) {
            MemoryRegion atA = t.pdA.register(arena.allocate(2L * size), Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion atB = t.pdB.register(arena.allocate(2L * size), Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            t.settle(1_000_000_000L); // whatever the connection owed is sent and acknowledged
            rails[0].takeFlushes();
            rails[1].takeFlushes();
            int rounds = 50;
            int last = size - 4; // the marker goes in the message's last word, which lands last
            int frames = -1;
            for (int round = 1; round <= rounds; round++) {
                // B writes to A; A answers with a write as soon as it sees the bytes, as perftest's latency test does.
                atB.segment().set(ValueLayout.JAVA_INT, last, round);
                assertThat(t.qpB().postWrite(round, atB, 0, size, atA.address(), atA.rkey())).isTrue();
                t.b.agent().doWork();
                List<Integer> pings = rails[1].takeFlushes();
                assertThat(pings).as("round %d: B's request leaves in the cycle it was posted in", round)
                        .hasSize(1);
                if (round == 1) {
                    frames = pings.getFirst(); // the data frames alone: B owed nothing yet
                } else {
                    assertThat(pings).as("round %d: B's request and the ACK A asked for, one flush", round)
                            .containsExactly(frames + 1);
                }
                while (atA.segment().get(ValueLayout.JAVA_INT, last) != round) {
                    t.a.agent().doWork();
                }
                List<Integer> beforeAnswer = rails[0].takeFlushes();
                assertThat(beforeAnswer).as("round %d: A sends nothing between the arrival and its answer", round)
                        .isEmpty();
                atA.segment().set(ValueLayout.JAVA_INT, size + last, round);
                assertThat(t.qpA().postWrite(round, atA, size, size, atB.address() + size, atB.rkey())).isTrue();
                t.a.agent().doWork();
                assertThat(rails[0].takeFlushes()).as("round %d: the answer and the ACK B asked for, one flush",
                        round).containsExactly(frames + 1);
                while (atB.segment().get(ValueLayout.JAVA_INT, size + last) != round) {
                    t.b.agent().doWork();
                }
                assertThat(rails[1].takeFlushes()).as("round %d: B sends nothing between the answer and its next "
                        + "request", round).isEmpty();
            }
            assertThat(t.a.stats().ackFramesSent()).isEqualTo(rounds);
            for (int i = 0; i < rounds; i++) {
                assertThat(t.next(t.cqB).status()).isEqualTo(CompletionStatus.SUCCESS);
            }
        }
    }

    /**
     * Writes posted to be acknowledged lazily (a send its poster reported done already) do not each cost the answer
     * an ACK: A's answers carry one only once {@code ack_every_frames} frames came in, nothing leaves either side
     * between an arrival and its answer, and every write still completes once the lazy delay has run out.
     */
    @Test
    void aLazilyAcknowledgedPingPongCarriesAnAckOnlyEveryAckEveryFrames() throws Exception {
        RecordedRail[] rails = new RecordedRail[2];
        try (TwoDevices t = recorded(rails).connect(); Arena arena = Arena.ofShared()) {
            int rounds = 48;
            int every = RailsSettings.defaults().ackEveryFrames();
            MemoryRegion atA = t.pdA.register(arena.allocate(8), Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion atB = t.pdB.register(arena.allocate(8), Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            for (int i = 0; i < rounds; i++) {
                assertThat(t.qpA().postRecv(i, null, 0, 0)).isTrue();
                assertThat(t.qpB().postRecv(i, null, 0, 0)).isTrue();
            }
            t.settle(1_000_000_000L);
            rails[0].takeFlushes();
            rails[1].takeFlushes();
            for (int round = 1; round <= rounds; round++) {
                atB.segment().set(ValueLayout.JAVA_INT, 0, round);
                assertThat(t.qpB().postWriteWithImmLazily(round, atB, 0, 4, atA.address(), atA.rkey(), round))
                        .isTrue();
                t.b.agent().doWork();
                assertThat(rails[1].takeFlushes()).as("round %d: B's write, and the ACK it owes once A's answers "
                        + "reached the count", round).containsExactly(round > 1 && (round - 1) % every == 0 ? 2 : 1);
                while (atA.segment().get(ValueLayout.JAVA_INT, 0) != round) {
                    t.a.agent().doWork();
                }
                assertThat(rails[0].takeFlushes()).as("round %d: A sends nothing between the arrival and its answer",
                        round).isEmpty();
                atA.segment().set(ValueLayout.JAVA_INT, 4, round);
                assertThat(t.qpA().postWriteWithImmLazily(round, atA, 4, 4, atB.address() + 4, atB.rkey(), round))
                        .isTrue();
                t.a.agent().doWork();
                assertThat(rails[0].takeFlushes()).as("round %d: the answer, with an ACK only once %d frames came",
                        round, every).containsExactly(round % every == 0 ? 2 : 1);
                while (atB.segment().get(ValueLayout.JAVA_INT, 4) != round) {
                    t.b.agent().doWork();
                }
                assertThat(rails[1].takeFlushes()).as("round %d: B sends nothing between the answer and its next "
                        + "write", round).isEmpty();
            }
            assertThat(t.a.stats().ackFramesSent()).isEqualTo(rounds / every);
            // The last answers' ACK goes once the lazy delay runs out; every write then completes, none twice.
            t.settle(1_000_000_000L);
            for (int i = 0; i < 2 * rounds; i++) {
                assertThat(t.next(t.cqA).status()).isEqualTo(CompletionStatus.SUCCESS);
                assertThat(t.next(t.cqB).status()).isEqualTo(CompletionStatus.SUCCESS);
            }
            assertThat(t.cqA.poll()).isNull();
            assertThat(t.cqB.poll()).isNull();
            assertThat(t.a.stats().retransmittedFrames() + t.b.stats().retransmittedFrames()).isZero();
        }
    }

    @Test
    void aFreshRequestLeavesBeforeTheRailsAreRead() throws Exception {
        RecordedRail[] rails = new RecordedRail[2];
        try (TwoDevices t = recorded(rails).connect(); Arena arena = Arena.ofShared()) {
            MemoryRegion atA = t.pdA.register(arena.allocate(64), Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion atB = t.pdB.register(arena.allocate(64));
            rails[1].calls.clear();
            assertThat(t.qpB().postWrite(1, atB, 0, 8, atA.address(), atA.rkey())).isTrue();
            t.b.agent().doWork();
            assertThat(rails[1].calls).startsWith("offer", "flush:1", "poll");
        }
    }

    /**
     * A post's cycle for an owner that looks again at once ({@code doWorkPosting}) sends what was posted and leaves
     * the rails to that look; with nothing posted it reads them as any cycle does, and what it left is read by the
     * next cycle, the answer included.
     */
    @Test
    void aPostingCycleSendsWithoutReadingAndTheNextLookReads() throws Exception {
        RecordedRail[] rails = new RecordedRail[2];
        try (TwoDevices t = recorded(rails).connect(); Arena arena = Arena.ofShared()) {
            MemoryRegion atA = t.pdA.register(arena.allocate(64), Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion atB = t.pdB.register(arena.allocate(64), Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            t.settle(1_000_000_000L);
            rails[1].calls.clear();
            assertThat(t.qpB().postWrite(1, atB, 0, 8, atA.address(), atA.rkey())).isTrue();
            t.b.agent().doWorkPosting();
            assertThat(rails[1].calls).as("the post's cycle").containsExactly("offer", "flush:1");
            while (t.a.stats().dataFramesReceived() == 0) {
                t.a.agent().doWork();
            }
            atA.segment().set(ValueLayout.JAVA_LONG, 8, 0x5EED_0001L);
            assertThat(t.qpA().postWrite(2, atA, 8, 8, atB.address() + 8, atB.rkey())).isTrue();
            t.a.agent().doWork();
            rails[1].calls.clear();
            t.b.agent().doWorkPosting();
            assertThat(rails[1].calls).as("a posting cycle with nothing posted reads").contains("poll");
            assertThat(atB.segment().get(ValueLayout.JAVA_LONG, 8)).as("the answer was read and placed")
                    .isEqualTo(0x5EED_0001L);
        }
    }

    /**
     * A cycle for an owner that polls stops reading after the round of slices in which a message arrived in full, so
     * the owner sees it and answers before more is read: a message longer than a slice is read to its end, the frames
     * behind it wait for the next call, and a full cycle ({@code doWork}) reads all that waits.
     */
    @Test
    void aPolledCycleStopsReadingOnceAMessageArrivedInFull() throws Exception {
        RecordedRail[] rails = new RecordedRail[2];
        try (TwoDevices t = recorded(rails).connect(); Arena arena = Arena.ofShared()) {
            int every = RailsSettings.defaults().ackEveryFrames();
            int big = 4 * every * 4096; // several slices of frames
            int smalls = 3 * every; // one frame each
            MemoryRegion atA = t.pdA.register(arena.allocate(big + 8L * smalls), Access.LOCAL_WRITE,
                    Access.REMOTE_WRITE);
            MemoryRegion atB = t.pdB.register(arena.allocate(big + 8L * smalls));
            t.settle(1_000_000_000L);
            for (int i = 0; i < big; i += 8) {
                atB.segment().set(ValueLayout.JAVA_LONG, i, 0x5EED_0000_0000L + i);
            }
            for (int i = 0; i < smalls; i++) {
                atB.segment().set(ValueLayout.JAVA_LONG, big + 8L * i, i + 1);
            }
            assertThat(t.qpB().postWrite(0, atB, 0, big, atA.address(), atA.rkey())).isTrue();
            for (int i = 0; i < smalls; i++) {
                assertThat(t.qpB().postWrite(i + 1, atB, big + 8L * i, 8, atA.address() + big + 8L * i,
                        atA.rkey())).isTrue();
            }
            long sent;
            do {
                sent = t.b.stats().dataFramesSent();
                t.b.agent().doWork(); // B only sends: A reads nothing until it is stepped below
            } while (t.b.stats().dataFramesSent() != sent);
            long frames = t.b.stats().dataFramesSent();
            assertThat(frames).as("the large write and every small one left").isGreaterThan(4L * every + smalls - 1);

            t.a.agent().doWorkPolled();
            assertThat(atA.segment().asSlice(0, big).mismatch(atB.segment().asSlice(0, big)))
                    .as("the message longer than a slice was read to its end").isEqualTo(-1);
            int afterPolled = arrived(atA, big, smalls);
            assertThat(afterPolled).as("small writes read in the round the large one ended in, and no more")
                    .isLessThan(every);
            long read = t.a.stats().dataFramesReceived();
            assertThat(read).as("frames read by the polled cycle").isLessThan(frames);

            t.a.agent().doWorkStandingBy();
            int afterLook = arrived(atA, big, smalls);
            assertThat(afterLook - afterPolled).as("a look reads one slice, which brought whole messages")
                    .isEqualTo(every);
            assertThat(t.a.stats().dataFramesReceived() - read).isEqualTo(every);

            t.a.agent().doWork();
            assertThat(arrived(atA, big, smalls)).as("a full cycle reads all that waits").isEqualTo(smalls);
            assertThat(t.a.stats().dataFramesReceived()).isEqualTo(frames);
        }
    }

    /** How many of the small writes behind {@code big} bytes reached {@code at}: each wrote its number, from 1. */
    private static int arrived(MemoryRegion at, int big, int smalls) {
        int n = 0;
        for (int i = 0; i < smalls; i++) {
            n += at.segment().get(ValueLayout.JAVA_LONG, big + 8L * i) == i + 1 ? 1 : 0;
        }
        return n;
    }

    @Test
    void aRailThatHandedOverLessThanASliceIsNotPolledAgainInTheSameCycle() throws Exception {
        RecordedRail[] rails = new RecordedRail[2];
        try (TwoDevices t = recorded(rails).connect(); Arena arena = Arena.ofShared()) {
            MemoryRegion atA = t.pdA.register(arena.allocate(64), Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion atB = t.pdB.register(arena.allocate(64));
            assertThat(t.qpB().postWrite(1, atB, 0, 8, atA.address(), atA.rkey())).isTrue();
            t.b.agent().doWork();
            rails[0].calls.clear();
            t.a.agent().doWork();
            assertThat(rails[0].calls).containsOnlyOnce("poll");
        }
    }

    /** A recorded rail whose empty poll costs a system call, as a TCP rail's read does. */
    private static final class CallingRail extends RecordedRail {
        CallingRail(RailTransport inner) {
            super(inner);
        }

        @Override
        public boolean emptyPollIsACall() {
            return true;
        }
    }

    /** Two devices over two cables, each end's rails recorded: {@code a[i]} and {@code b[i]} are cable i's ends. */
    private static TwoDevices twoCables(RecordedRail[] a, RecordedRail[] b, boolean calling) {
        return twoCables(a, b, calling, false);
    }

    /** As above; {@code crossed}: B numbers the cables the other way round from A (its rail 0 is cable 1). */
    private static TwoDevices twoCables(RecordedRail[] a, RecordedRail[] b, boolean calling, boolean crossed) {
        for (int i = 0; i < 2; i++) {
            InMemoryRailPair p = InMemoryRailPair.create(new RailInfo("mem" + i, "cable" + i,
                    LinkState.of(Generation.GEN3, 2), false), 1024);
            a[i] = calling ? new CallingRail(p.a()) : new RecordedRail(p.a());
            b[i] = calling ? new CallingRail(p.b()) : new RecordedRail(p.b());
        }
        return new TwoDevices(List.of(a), crossed ? List.of(b[1], b[0]) : List.of(b), RailsSettings.defaults(), 42);
    }

    /**
     * On two cables a ping-pong of small writes keeps to one rail at both ends, its acknowledgements with it: one
     * write per turn, as on one cable, also where the two sides numbered their rails the other way round. Each turn posts two writes, as the plugin's host posts a receive's
     * advertisement and then its answer: spread by load alone, the second went to the other rail, behind the first,
     * and each turn took a write on each cable.
     */
    @ParameterizedTest(name = "crossed {0}")
    @ValueSource(booleans = {false, true})
    void aSmallPingPongOnTwoCablesKeepsToTheFirstRail(boolean crossed) throws Exception {
        RecordedRail[] a = new RecordedRail[2];
        RecordedRail[] b = new RecordedRail[2];
        try (TwoDevices t = twoCables(a, b, false, crossed).connect(); Arena arena = Arena.ofShared()) {
            MemoryRegion atA = t.pdA.register(arena.allocate(64), Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion atB = t.pdB.register(arena.allocate(64), Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            t.settle(1_000_000_000L);
            for (RecordedRail r : List.of(a[0], a[1], b[0], b[1])) {
                r.takeFlushes();
            }
            int rounds = 40;
            for (int round = 1; round <= rounds; round++) {
                atB.segment().set(ValueLayout.JAVA_INT, 0, round);
                assertThat(t.qpB().postWrite(2L * round, atB, 16, 8, atA.address() + 16, atA.rkey())).isTrue();
                assertThat(t.qpB().postWrite(2L * round + 1, atB, 0, 8, atA.address(), atA.rkey())).isTrue();
                t.b.agent().doWork();
                while (atA.segment().get(ValueLayout.JAVA_INT, 0) != round) {
                    t.a.agent().doWork();
                }
                atA.segment().set(ValueLayout.JAVA_INT, 8, round);
                assertThat(t.qpA().postWrite(2L * round, atA, 24, 8, atB.address() + 24, atB.rkey())).isTrue();
                assertThat(t.qpA().postWrite(2L * round + 1, atA, 8, 8, atB.address() + 8, atB.rkey())).isTrue();
                t.a.agent().doWork();
                while (atB.segment().get(ValueLayout.JAVA_INT, 8) != round) {
                    t.b.agent().doWork();
                }
            }
            // One cable at both ends, however B numbered them: the first in the order of A, whose identity is the
            // smaller.
            assertThat(b[0].takeFlushes()).as("B's pings, each with the ACK A asked for").hasSize(rounds);
            assertThat(a[0].takeFlushes()).as("A's answers, each with the ACK B asked for").hasSize(rounds);
            assertThat(b[1].takeFlushes()).as("B's end of the other cable").isEmpty();
            assertThat(a[1].takeFlushes()).as("A's end of the other cable").isEmpty();
        }
    }

    /**
     * Small writes stay on the first rail only while it holds less than {@link Striper#SMALL_WRITE_SLACK} more than
     * the other: a stream of them, nothing acknowledged meanwhile, moves to the second rail once the first is that far
     * ahead, and from then on the two share it.
     */
    @Test
    void aStreamOfSmallWritesSpreadsOnceTheFirstRailIsFarAhead() throws Exception {
        RecordedRail[] a = new RecordedRail[2];
        RecordedRail[] b = new RecordedRail[2];
        int size = 16 * 1024;
        try (TwoDevices t = twoCables(a, b, false).connect(); Arena arena = Arena.ofShared()) {
            MemoryRegion atA = t.pdA.register(arena.allocate(size), Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion atB = t.pdB.register(arena.allocate(size));
            t.settle(1_000_000_000L);
            b[0].calls.clear();
            b[1].calls.clear();
            int writes = 24;
            for (int i = 0; i < writes; i++) {
                assertThat(t.qpB().postWrite(i, atB, 0, size, atA.address(), atA.rkey())).isTrue();
            }
            t.b.agent().doWork(); // A reads nothing meanwhile, so nothing is acknowledged
            long first = b[0].calls.stream().filter("offer"::equals).count();
            long second = b[1].calls.stream().filter("offer"::equals).count();
            assertThat((first + second) % writes).as("every write's frames left, as many each").isZero();
            long perWrite = (first + second) / writes;
            // The first rail takes writes until it holds the slack more, then the two take turns.
            long ahead = Striper.SMALL_WRITE_SLACK / size;
            assertThat(first / perWrite).as("writes on the first rail").isEqualTo((writes + ahead) / 2);
            assertThat(second / perWrite).as("writes on the second rail").isEqualTo((writes - ahead) / 2);
        }
    }

    /**
     * In an owner's looks a second rail that is idle, and whose empty read is a system call, is read once per
     * {@link DeviceEngine#IDLE_RAIL_LOOK_NANOS}; the first rail, which carries the small writes, in every look; and
     * every cycle that is not a look reads both.
     */
    @Test
    void anIdleSecondRailIsReadOncePerIntervalInLooksAndInEveryFullCycle() throws Exception {
        RecordedRail[] a = new RecordedRail[2];
        RecordedRail[] b = new RecordedRail[2];
        try (TwoDevices t = twoCables(a, b, true).connect()) {
            t.settle(1_000_000_000L);
            t.clock.advance(2 * DeviceEngine.IDLE_RAIL_NANOS); // nothing arrives meanwhile: no cycle runs
            a[0].calls.clear();
            a[1].calls.clear();
            for (int i = 0; i < 10; i++) {
                t.a.agent().doWorkStandingBy();
            }
            assertThat(a[0].calls.stream().filter("poll"::equals)).as("the first rail").hasSize(10);
            assertThat(a[1].calls.stream().filter("poll"::equals)).as("the idle second rail").hasSize(1);
            t.clock.advance(DeviceEngine.IDLE_RAIL_LOOK_NANOS);
            t.a.agent().doWorkStandingBy();
            t.a.agent().doWorkStandingBy();
            assertThat(a[1].calls.stream().filter("poll"::equals)).as("an interval later").hasSize(2);
            t.a.agent().doWork();
            assertThat(a[1].calls.stream().filter("poll"::equals)).as("a full cycle").hasSize(3);
        }
    }

    /** Rails whose empty read costs nothing, such as the simulator's rings, are read in every look. */
    @Test
    void railsWhoseEmptyReadIsNoCallAreReadInEveryLook() throws Exception {
        RecordedRail[] a = new RecordedRail[2];
        RecordedRail[] b = new RecordedRail[2];
        try (TwoDevices t = twoCables(a, b, false).connect()) {
            t.settle(1_000_000_000L);
            t.clock.advance(2 * DeviceEngine.IDLE_RAIL_NANOS);
            a[1].calls.clear();
            for (int i = 0; i < 10; i++) {
                t.a.agent().doWorkStandingBy();
            }
            assertThat(a[1].calls.stream().filter("poll"::equals)).hasSize(10);
        }
    }
}
