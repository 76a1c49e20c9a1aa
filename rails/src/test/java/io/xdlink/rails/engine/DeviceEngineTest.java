package io.xdlink.rails.engine;

import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.inmemory.RailFaultPlan;
import io.xdlink.rails.testing.Seeds;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceStats;
import io.xdlink.rails.verbs.TwoDevices;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's promise under faults: 100,000 messages (log-uniform 1 byte to 1 MiB, and a hundred of up to 16 MiB)
 * over four rails on two cables arrive exactly once, in order, byte for byte, while frames are lost, reordered,
 * duplicated and corrupted and a rail drops and returns; afterwards no credit is missing on any rail.
 */
class DeviceEngineTest {
    private static final int MESSAGES = 100_000;

    static long[] sizes(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long[] s = new long[MESSAGES + 100];
        for (int i = 0; i < MESSAGES; i++) {
            s[i] = Math.max(1, Math.min(1L << 20, (long) Math.exp(r.nextDouble() * Math.log((1 << 20) + 1))));
        }
        for (int k = 0; k < 100; k++) {
            s[MESSAGES + k] = (1L << 20) + r.nextLong(15L << 20);
        }
        // The large ones go to random places in the stream.
        for (int k = 0; k < 100; k++) {
            int at = r.nextInt(MESSAGES + k + 1);
            long big = s[MESSAGES + k];
            System.arraycopy(s, at, s, at + 1, MESSAGES + k - at);
            s[at] = big;
        }
        return s;
    }

    private void run(double loss, String name, boolean byReference) throws Exception {
        long seed = Seeds.seed("DeviceEngineTest." + name);
        try (TwoDevices t = new TwoDevices(List.of("c0", "c0", "c1", "c1"), LinkState.of(Generation.GEN3, 2), true,
                RailsSettings.of("qp_max_recv_wr", "1024", "rail_timeout_ms", "20"), 1024, seed, byReference)
                .connect()) {
            t.faults(new RailFaultPlan(loss, 0.01, 0.01, 0.005, seed));
            long[] sizes = sizes(seed);
            long bytes;
            try (MessageStream s = new MessageStream(t, sizes.length, i -> sizes[i], 32 << 20, 64 << 20, seed)) {
                s.runUntil(sizes.length / 3, Long.MAX_VALUE / 4);
                t.pairs.get(2).blackhole(true);
                s.runUntil(sizes.length / 2, Long.MAX_VALUE / 4);
                t.pairs.get(2).blackhole(false);
                bytes = s.run(Long.MAX_VALUE / 4);
            }
            t.faults(RailFaultPlan.NONE);
            t.settle(2_000_000_000L);
            System.out.printf("%s: %d messages, %d bytes, %.3f s virtual%n", name, sizes.length, bytes,
                    t.clock.nanoTime() / 1e9);
            for (Device d : List.of(t.a, t.b)) {
                DeviceStats st = d.stats();
                System.out.println(name + " " + d.id() + ": " + st);
                assertThat(st.rails()).as("seed %d", seed).hasSize(4).allSatisfy(r -> {
                    assertThat(r.state()).isEqualTo("UP");
                    assertThat(r.credits()).as("credits of %s", r.name()).isEqualTo(r.window());
                    assertThat(r.unsettled()).isZero();
                });
                assertThat(st.inflightBytes()).isZero();
                // Retransmission would cover for a frame whose handling threw: the count says whether one did.
                assertThat(st.internalErrors()).as("seed %d: internal errors, last %s", seed, d.lastError())
                        .isZero();
            }
            DeviceStats rx = t.a.stats();
            DeviceStats tx = t.b.stats();
            assertThat(tx.retransmittedFrames()).as("seed %d: losses were recovered", seed).isPositive();
            assertThat(rx.corruptFrames()).as("seed %d: corruption was caught", seed).isPositive();
            assertThat(tx.rails().get(2).failovers() + rx.rails().get(2).failovers()).isPositive();
            assertThat(rx.ackFramesSent() * 16).as("seed %d: acknowledgements per data frame", seed)
                    .isLessThanOrEqualTo(rx.dataFramesReceived());
        }
    }

    @Test
    void oneInAHundredLost() throws Exception {
        run(0.01, "loss1", false);
    }

    @Test
    void fiveInAHundredLost() throws Exception {
        // The payloads travel by reference here, the other way above: both paths meet every fault.
        run(0.05, "loss5", true);
    }
}
