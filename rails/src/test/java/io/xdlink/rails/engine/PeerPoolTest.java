package io.xdlink.rails.engine;

import io.xdlink.rails.ForwardingRailTransport;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.agent.VirtualTimeDriver;
import io.xdlink.rails.frame.FrameFlags;
import io.xdlink.rails.frame.FrameView;
import io.xdlink.rails.frame.Opcode;
import io.xdlink.rails.inmemory.InMemoryRailPair;
import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceConfig;
import io.xdlink.rails.verbs.DeviceStats;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.RailStats;
import io.xdlink.rails.verbs.TwoDevices;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.VirtualScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Striping over a pool of rails, and the coalesced acknowledgements that travel back on one of them. */
class PeerPoolTest {

    /** Devices joined by rails on different cables: two rails on an 80 Gb/s cable, 20 and 40 Gb/s cables alone. */
    private static final class Pool implements AutoCloseable {
        final VirtualScheduler clock = new VirtualScheduler();
        final VirtualTimeDriver driver = new VirtualTimeDriver(clock);
        final Device a;
        final Device b;
        final TwoDevices.Connected link;

        Pool(RailsSettings s) throws Exception {
            record R(String cable, LinkState state) {
            }
            List<R> rails = List.of(new R("fast", LinkState.of(Generation.GEN4, 2)),
                    new R("fast", LinkState.of(Generation.GEN4, 2)), new R("slow", LinkState.of(Generation.GEN3, 1)),
                    new R("mid", LinkState.of(Generation.GEN3, 2)));
            List<RailTransport> as = new ArrayList<>();
            List<RailTransport> bs = new ArrayList<>();
            for (int i = 0; i < rails.size(); i++) {
                InMemoryRailPair p = InMemoryRailPair.create(new RailInfo("r" + i, rails.get(i).cable(),
                        rails.get(i).state(), false), s.railWindowFrames());
                as.add(p.a());
                bs.add(p.b());
            }
            a = Device.open(DeviceConfig.builder().id(new UUID(3, 1)).settings(s).clock(clock).invoker().seed(1)
                    .build(), as);
            b = Device.open(DeviceConfig.builder().id(new UUID(3, 2)).settings(s).clock(clock).invoker().seed(2)
                    .build(), bs);
            driver.add(a.agent()).add(b.agent());
            link = TwoDevices.connect(driver, a, b);
        }

        long[] framesPerRail(Device d) {
            return d.stats().rails().stream().mapToLong(RailStats::dataFramesSent).toArray();
        }

        @Override
        public void close() {
            a.close();
            b.close();
        }
    }

    @Test
    void aLargeWriteIsCutInBlocksSizedByEachRailsShareOfItsLink() throws Exception {
        try (Pool p = new Pool(RailsSettings.defaults()); Arena arena = Arena.ofShared()) {
            MemorySegment src = arena.allocate(64 << 20);
            MemorySegment dst = arena.allocate(64 << 20);
            MemoryRegion s = p.link.pdB().register(src);
            MemoryRegion d = p.link.pdA().register(dst, Access.REMOTE_WRITE);
            p.link.qpB().postWrite(1, s, 0, 64 << 20, d.address(), d.rkey());
            p.driver.runUntil(() -> p.link.cqB().poll() != null, 10_000_000_000L);
            long[] frames = p.framesPerRail(p.b);
            long total = java.util.Arrays.stream(frames).sum();
            // Two rails share one 80 Gb/s cable (40 each), then 20 and 40: shares 2/7, 2/7, 1/7, 2/7.
            double[] expected = {2 / 7.0, 2 / 7.0, 1 / 7.0, 2 / 7.0};
            for (int i = 0; i < 4; i++) {
                assertThat((double) frames[i] / total).as("rail %d of %s", i, java.util.Arrays.toString(frames))
                        .isCloseTo(expected[i], within(0.005));
            }
            assertThat(dst.mismatch(src)).isEqualTo(-1);
        }
    }

    @Test
    void writesBelowTheStripeMinimumGoWholeToTheLeastLoadedRail() throws Exception {
        try (Pool p = new Pool(RailsSettings.defaults()); Arena arena = Arena.ofShared()) {
            MemorySegment src = arena.allocate(1 << 20);
            MemoryRegion s = p.link.pdB().register(src);
            MemoryRegion d = p.link.pdA().register(arena.allocate(1 << 20), Access.REMOTE_WRITE);
            long stripe = p.b.settings().stripeMinBytes();
            // One alone goes whole to one rail.
            p.link.qpB().postWrite(0, s, 0, stripe - 1, d.address(), d.rkey());
            p.driver.runUntil(() -> p.link.cqB().poll() != null, 10_000_000_000L);
            assertThat(java.util.Arrays.stream(p.framesPerRail(p.b)).filter(f -> f > 0).count()).isEqualTo(1);
            // Many at once spread over the rails by load, each still whole.
            for (int i = 1; i <= 40; i++) {
                p.link.qpB().postWrite(i, s, 0, stripe - 1, d.address(), d.rkey());
            }
            int[] done = new int[1];
            p.driver.runUntil(() -> {
                while (p.link.cqB().poll() != null) {
                    done[0]++;
                }
                return done[0] == 40;
            }, 10_000_000_000L);
            long[] all = p.framesPerRail(p.b);
            long perWrite = (stripe - 1 + 4043) / 4044;
            assertThat(java.util.Arrays.stream(all).sum()).isEqualTo(41 * perWrite);
            assertThat(java.util.Arrays.stream(all).allMatch(f -> f % perWrite == 0)).as("whole writes: %s",
                    java.util.Arrays.toString(all)).isTrue();
            assertThat(java.util.Arrays.stream(all).allMatch(f -> f > 0)).as("every rail got some: %s",
                    java.util.Arrays.toString(all)).isTrue();
            long before = java.util.Arrays.stream(p.framesPerRail(p.b)).sum();
            p.link.qpB().postWrite(99, s, 0, stripe, d.address(), d.rkey());
            p.driver.runUntil(() -> p.link.cqB().poll() != null, 10_000_000_000L);
            assertThat(java.util.Arrays.stream(p.framesPerRail(p.b)).sum() - before)
                    .isEqualTo((stripe + 4043) / 4044);
        }
    }

    @Test
    void acknowledgementsAreAtMostOneInSixteenDataFramesAndTravelOnOneRail() throws Exception {
        try (Pool p = new Pool(RailsSettings.defaults()); Arena arena = Arena.ofShared()) {
            MemorySegment src = arena.allocate(16 << 20);
            MemoryRegion s = p.link.pdB().register(src);
            MemoryRegion d = p.link.pdA().register(arena.allocate(16 << 20), Access.REMOTE_WRITE);
            int posted = 0;
            int done = 0;
            while (done < 32) {
                while (posted < 32 && posted - done < 4) {
                    p.link.qpB().postWrite(posted++, s, 0, 16 << 20, d.address(), d.rkey());
                }
                p.driver.stepUntilIdle();
                while (p.link.cqB().poll() != null) {
                    done++;
                }
                p.driver.advance();
            }
            DeviceStats rx = p.a.stats();
            assertThat(rx.internalErrors()).as("internal errors, last %s", p.a.lastError()).isZero();
            assertThat(rx.dataFramesReceived()).isGreaterThan(100_000);
            assertThat(rx.ackFramesSent() * 16).isLessThanOrEqualTo(rx.dataFramesReceived());
            // Every ACK went out on one rail: the first, the control rail.
            List<RailStats> rails = rx.rails();
            assertThat(rails.get(0).framesSent()).isGreaterThanOrEqualTo(rx.ackFramesSent());
            assertThat(rails.subList(1, 4)).allMatch(r -> r.framesSent() < 10);
        }
    }

    /** The data frames a device offers to one rail, as the peer would read them. */
    private static final class Recorder extends ForwardingRailTransport {
        record Sent(int msn, int psn, long offset, int length, boolean ackRequest) {
        }

        final List<Sent> data = new ArrayList<>();
        /** Frames asked for and taken by each run offered ({@link #offerRun}). */
        final List<int[]> runs = new ArrayList<>();
        private final FrameView view = new FrameView();

        Recorder(RailTransport inner) {
            super(inner);
        }

        /** Every data frame with a payload comes here, a single one as a run of one. */
        @Override
        public int offerRun(int headLength, FrameRun run, MemorySegment payload, int count) {
            int sent = inner.offerRun(headLength, run, payload, count);
            runs.add(new int[]{count, sent});
            for (int i = 0; i < sent; i++) {
                // Writing has no side effect beyond the bytes: laid out a second time here, it reads as the peer's.
                run.frame(i);
                MemorySegment head = MemorySegment.ofArray(new byte[headLength]);
                run.write(head, 0);
                try {
                    record(view.wrap(head, 0, headLength, payload, run.payloadOffset(), run.payloadLength()));
                } catch (io.xdlink.rails.frame.FrameException e) {
                    throw new AssertionError("the device offered a malformed frame", e);
                }
            }
            return sent;
        }

        private void record(FrameView v) {
            if (v.opcode().isData()) {
                data.add(new Sent(v.msn(), v.psn(), v.offset(), v.payloadLength(), v.hasFlag(FrameFlags.ACK_REQUEST)));
            }
        }

        @Override
        public boolean offer(int length, FrameWriter writer) {
            boolean ok = inner.offer(length, writer);
            if (ok) {
                // Writing has no side effect beyond the bytes: laid out a second time here, it reads as the peer's.
                MemorySegment copy = MemorySegment.ofArray(new byte[length]);
                writer.write(copy, 0);
                FrameView v;
                try {
                    v = view.wrap(copy, 0, length);
                } catch (io.xdlink.rails.frame.FrameException e) {
                    throw new AssertionError("the device offered a malformed frame", e);
                }
                record(v);
            }
            return ok;
        }
    }

    /**
     * Every rail is offered a block's frames as runs ({@link RailTransport#offerRun}), whether it keeps payloads by
     * reference or copies them: the frames on the wire are the same either way.
     */
    @ParameterizedTest(name = "by reference: {0}")
    @ValueSource(booleans = {false, true})
    void framesOfABlockGoOutInRunsThatStopAtTheBudgetAndResumeInOrder(boolean byReference) throws Exception {
        // 64 KiB in flight at most: 16 full frames, so every run of a block's frames is cut short by the budget and
        // resumes when ACKs settle frames. Two WRITEs of 100 frames each are queued at once, the second ending in a
        // short frame.
        RailsSettings s = RailsSettings.of("inflight_bytes", "65536");
        VirtualScheduler clock = new VirtualScheduler();
        VirtualTimeDriver driver = new VirtualTimeDriver(clock);
        RailInfo info = new RailInfo("r0", "c", LinkState.of(Generation.GEN3, 2), false);
        InMemoryRailPair pair = byReference ? InMemoryRailPair.createByReference(info, s.railWindowFrames(),
                io.xdlink.rails.inmemory.RailFaultPlan.NONE) : InMemoryRailPair.create(info, s.railWindowFrames());
        Recorder rail = new Recorder(pair.b());
        Device a = Device.open(DeviceConfig.builder().id(new UUID(4, 1)).settings(s).clock(clock).invoker().seed(1)
                .build(), List.of(pair.a()));
        Device b = Device.open(DeviceConfig.builder().id(new UUID(4, 2)).settings(s).clock(clock).invoker().seed(2)
                .build(), List.of(rail));
        try (a; b; Arena arena = Arena.ofShared()) {
            driver.add(a.agent()).add(b.agent());
            TwoDevices.Connected link = TwoDevices.connect(driver, a, b);
            int payload = Opcode.WRITE.maxPayload(s.frameBytes());
            long first = 100L * payload;
            long second = 99L * payload + 1000;
            MemorySegment src = arena.allocate(first + second);
            for (long i = 0; i < src.byteSize(); i++) {
                src.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + 7));
            }
            MemorySegment dst = arena.allocate(src.byteSize());
            MemoryRegion from = link.pdB().register(src);
            MemoryRegion to = link.pdA().register(dst, Access.REMOTE_WRITE);
            rail.data.clear();
            assertThat(link.qpB().postWrite(1, from, 0, first, to.address(), to.rkey())).isTrue();
            assertThat(link.qpB().postWrite(2, from, first, second, to.address() + first, to.rkey())).isTrue();
            List<Completion> done = new ArrayList<>();
            assertThat(driver.runUntil(() -> {
                for (Completion c; (c = link.cqB().poll()) != null; ) {
                    done.add(c);
                }
                return done.size() == 2;
            }, 10_000_000_000L)).isTrue();
            assertThat(done).allMatch(Completion::isSuccess);
            assertThat(dst.mismatch(src)).isEqualTo(-1);

            // Each frame once, in order: message, packet sequence, offset and length follow from the frame's place.
            List<Recorder.Sent> sent = rail.data;
            assertThat(sent.size()).isEqualTo(200);
            for (int i = 0; i < sent.size(); i++) {
                Recorder.Sent f = sent.get(i);
                int k = i < 100 ? i : i - 100;
                long length = i < 100 ? first : second;
                assertThat(f.psn()).as("frame %d", i).isEqualTo(i);
                assertThat(f.offset()).as("frame %d", i).isEqualTo((long) k * payload);
                assertThat(f.length()).as("frame %d", i).isEqualTo((int) Math.min(payload, length - (long) k * payload));
                // Only the last frame queued asks for an ACK at once: the sender has nothing more to send.
                assertThat(f.ackRequest()).as("frame %d", i).isEqualTo(i == sent.size() - 1);
            }
            assertThat(sent.get(100).msn()).isEqualTo(sent.get(0).msn() + 1);
            assertThat(b.stats().maxInflightBytes()).isLessThanOrEqualTo(65536);
            assertThat(b.stats().retransmittedFrames()).isZero();
            // Each block's first frame goes alone (a run of one), the rest in runs that the budget (16 frames) bounds.
            List<int[]> runs = rail.runs.stream().filter(r -> r[0] > 1).toList();
            assertThat(runs).isNotEmpty().allSatisfy(r -> {
                assertThat(r[0]).isBetween(2, 16);
                assertThat(r[1]).isEqualTo(r[0]);
            });
            assertThat(runs.stream().mapToInt(r -> r[1]).sum()).isGreaterThan(150);
            assertThat(rail.runs.stream().mapToInt(r -> r[1]).sum()).isEqualTo(200);
        }
    }
}
