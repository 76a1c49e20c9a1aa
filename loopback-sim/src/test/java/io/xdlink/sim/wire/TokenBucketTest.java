package io.xdlink.sim.wire;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenBucketTest {

    @Test
    void aFrameOccupiesTheWireForItsBitsAtTheRate() {
        TokenBucket b = new TokenBucket(40_000, 0, 1_000);
        assertThat(b.servicePs(4096)).isEqualTo(819_200);
        long end = b.reserve(4096, 1_000);
        assertThat(end).isEqualTo(1_000 + 820); // 819.2 ns, rounded up
        long second = b.reserve(4096, 1_000);
        assertThat(second).isEqualTo(1_000 + 1639); // 1638.4 ns
    }

    @Test
    void backToBackFramesKeepTheExactRateOverAMillionFrames() {
        TokenBucket b = new TokenBucket(11_700, 0, 0);
        long end = 0;
        for (int i = 0; i < 1_000_000; i++) {
            end = b.reserve(4096, 0);
        }
        double mbps = 1_000_000 * 4096.0 * 8 / end * 1000;
        assertThat(mbps).isCloseTo(11_700, org.assertj.core.data.Percentage.withPercentage(0.001));
    }

    @Test
    void idleTimeEarnsAtMostTheBurst() {
        TokenBucket b = new TokenBucket(10_000, 2 * 4096, 0);
        // After a long idle spell, two frames may leave "in the past", the third waits its turn.
        long now = 1_000_000;
        long first = b.reserve(4096, now);
        long second = b.reserve(4096, now);
        long third = b.reserve(4096, now);
        assertThat(first).isEqualTo(now);
        assertThat(second).isEqualTo(now);
        assertThat(third).isEqualTo(now + 3277); // 3276.8 ns after now
    }

    @Test
    void nonsenseIsRefused() {
        assertThatThrownBy(() -> new TokenBucket(0, 0, 0)).hasMessageContaining("rate must be positive");
        assertThatThrownBy(() -> new TokenBucket(1, -1, 0)).hasMessageContaining("burst");
    }
}
