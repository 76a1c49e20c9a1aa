package io.xdlink.rails.verbs;

import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.agent.VirtualTimeDriver;
import io.xdlink.rails.inmemory.InMemoryRailPair;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.VirtualScheduler;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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
            assertThat(rx.dataFramesReceived()).isGreaterThan(100_000);
            assertThat(rx.ackFramesSent() * 16).isLessThanOrEqualTo(rx.dataFramesReceived());
            // Every ACK went out on one rail: the first, the control rail.
            List<RailStats> rails = rx.rails();
            assertThat(rails.get(0).framesSent()).isGreaterThanOrEqualTo(rx.ackFramesSent());
            assertThat(rails.subList(1, 4)).allMatch(r -> r.framesSent() < 10);
        }
    }
}
