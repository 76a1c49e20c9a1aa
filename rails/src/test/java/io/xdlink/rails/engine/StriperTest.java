package io.xdlink.rails.engine;

import io.xdlink.rails.testing.Seeds;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class StriperTest {

    @Test
    void sharesFollowTheWeightsAndAddUpExactly() {
        assertThat(Striper.split(700, new double[] {40, 40, 20, 40})).containsExactly(200, 200, 100, 200);
        assertThat(Striper.split(1, new double[] {1, 3})).containsExactly(0, 1);
        assertThat(Striper.split(0, new double[] {1, 1})).containsExactly(0, 0);
        assertThat(Striper.split(5, new double[0])).isEmpty();
    }

    @Test
    void everySplitIsWithinOneFrameOfItsExactShare() {
        long seed = Seeds.seed("StriperTest.split");
        SplittableRandom r = new SplittableRandom(seed);
        for (int c = 0; c < 10_000; c++) {
            double[] w = new double[1 + r.nextInt(8)];
            for (int i = 0; i < w.length; i++) {
                w[i] = 1 + r.nextInt(80_000);
            }
            int frames = r.nextInt(100_000);
            int[] counts = Striper.split(frames, w);
            double total = Arrays.stream(w).sum();
            assertThat(Arrays.stream(counts).sum()).as("seed %d", seed).isEqualTo(frames);
            for (int i = 0; i < w.length; i++) {
                assertThat(Math.abs(counts[i] - frames * w[i] / total)).as("seed %d", seed).isLessThan(1.0);
            }
        }
    }
}
