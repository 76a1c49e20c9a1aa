package io.xdlink.sim.wire;

import io.xdlink.xdomain.VirtualScheduler;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimControlChannelTest {
    private static final long SEED = Long.getLong("xdlink.seed", 7L);
    private final VirtualScheduler scheduler = new VirtualScheduler();

    @Test
    void packetsArriveAfterTheLatencyInOrderAndAsCopies() {
        SimControlChannel[] ends = SimControlChannel.pair("c", scheduler, 2_000, 0, new SplittableRandom(SEED));
        List<byte[]> got = new ArrayList<>();
        ends[1].receiver(got::add);
        byte[] p = {1, 2, 3, 4};
        ends[0].send(p);
        ends[0].send(new byte[] {5, 6, 7, 8});
        p[0] = 99;
        scheduler.advance(1_999);
        assertThat(got).isEmpty();
        scheduler.advance(1);
        assertThat(got).containsExactly(new byte[] {1, 2, 3, 4}, new byte[] {5, 6, 7, 8});
    }

    @Test
    void closingEitherEndStopsDeliveryIncludingPacketsInFlight() {
        SimControlChannel[] ends = SimControlChannel.pair("c", scheduler, 1_000, 0, new SplittableRandom(SEED));
        List<byte[]> got = new ArrayList<>();
        ends[1].receiver(got::add);
        ends[0].send(new byte[] {1});
        ends[1].close();
        assertThat(ends[0].isOpen()).isFalse();
        ends[0].send(new byte[] {2});
        scheduler.advance(10_000);
        assertThat(got).isEmpty();
    }

    @Test
    void aLossyRingLosesAboutItsRateAndNothingElse() {
        SimControlChannel[] ends = SimControlChannel.pair("c", scheduler, 1_000, 0.1, new SplittableRandom(SEED));
        int[] got = {0};
        ends[1].receiver(p -> got[0]++);
        for (int i = 0; i < 10_000; i++) {
            ends[0].send(new byte[] {(byte) i});
        }
        scheduler.advance(10_000);
        long[] counts = ends[0].counts();
        assertThat(counts[0]).isEqualTo(10_000);
        assertThat(got[0]).as("seed %d", SEED).isEqualTo(10_000 - counts[1]).isBetween(8_800, 9_200);
    }

    @Test
    void negativeLatencyIsRefused() {
        assertThatThrownBy(() -> SimControlChannel.pair("c", scheduler, -1, 0, new SplittableRandom(1)))
                .hasMessageContaining("latency");
    }
}
