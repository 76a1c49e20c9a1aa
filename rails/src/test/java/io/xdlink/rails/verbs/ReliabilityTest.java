package io.xdlink.rails.verbs;

import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.inmemory.FaultPlan;
import io.xdlink.rails.testing.Seeds;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class ReliabilityTest {

    private static TwoDevices lossyPair(long seed) {
        return new TwoDevices(List.of("c0", "c0", "c1", "c1"), LinkState.of(Generation.GEN3, 2), true,
                RailsSettings.of("qp_max_recv_wr", "1024"), 1024, seed);
    }

    private static long[] logUniformSizes(int n, long max, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long[] s = new long[n];
        for (int i = 0; i < n; i++) {
            s[i] = Math.max(1, Math.min(max, (long) Math.exp(r.nextDouble() * Math.log(max + 1))));
        }
        return s;
    }

    @Test
    void messagesSurviveLossReorderingDuplicationAndCorruption() throws Exception {
        long seed = Seeds.seed("ReliabilityTest.faults");
        try (TwoDevices t = lossyPair(seed).connect()) {
            t.faults(new FaultPlan(0.05, 0.02, 0.02, 0.01, seed));
            long[] sizes = logUniformSizes(2000, 1 << 20, seed);
            try (MessageStream s = new MessageStream(t, sizes.length, i -> sizes[i], 16 << 20, 32 << 20, seed)) {
                long bytes = s.run(600_000_000_000L);
                assertThat(bytes).isPositive();
            }
            t.settle(1_000_000_000L);
            for (Device d : List.of(t.a, t.b)) {
                DeviceStats st = d.stats();
                System.out.println(st);
                assertThat(st.rails()).as("seed %d", seed).allSatisfy(r -> {
                    assertThat(r.state()).isEqualTo("UP");
                    assertThat(r.credits()).isEqualTo(r.window());
                    assertThat(r.unsettled()).isZero();
                });
                assertThat(st.inflightBytes()).isZero();
            }
        }
    }
}
