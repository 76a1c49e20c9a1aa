package io.xdlink.rails.engine;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InflightBudgetTest {

    @Test
    void aFrameGoesWhileItFitsAndAlwaysWhenNothingIsInFlight() {
        InflightBudget b = new InflightBudget(10_000);
        // Larger than the whole budget, but nothing is in flight: it goes, or it could never go.
        assertThat(b.allows(20_000)).isTrue();
        assertThat(b.room(4096)).isEqualTo(2);
        assertThat(b.room(20_000)).as("at least one when nothing is in flight").isEqualTo(1);
        b.sent(8192);
        assertThat(b.allows(1808)).isTrue();
        assertThat(b.allows(1809)).isFalse();
        assertThat(b.room(1000)).isEqualTo(1);
        assertThat(b.room(2000)).isZero();
        b.sent(1808);
        assertThat(b.bytes()).isEqualTo(10_000);
        assertThat(b.allows(1)).isFalse();
        b.settled(4096);
        assertThat(b.bytes()).isEqualTo(5904);
        assertThat(b.allows(4096)).isTrue();
        b.settled(5904);
        assertThat(b.bytes()).isZero();
        assertThat(b.maxBytes()).as("the high-water mark stays").isEqualTo(10_000);
    }

    @Test
    void queuedFramesCountPostsLessWhatWentOrWasDropped() {
        InflightBudget b = new InflightBudget(1);
        b.queued(16);
        b.queued(-15);
        assertThat(b.queuedFrames()).as("the last frame to leave asks for an ACK").isEqualTo(1);
        b.queued(-1);
        assertThat(b.queuedFrames()).isZero();
    }
}
