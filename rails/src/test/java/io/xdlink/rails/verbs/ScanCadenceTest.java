package io.xdlink.rails.verbs;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ScanCadenceTest {
    private static final long FIRST = ScanCadence.FIRST_NANOS;

    @Test
    void theFirstReadIsDueAtOnce() {
        ScanCadence c = new ScanCadence();
        assertThat(c.due(Long.MIN_VALUE, false)).isTrue();
        assertThat(c.due(0, false)).isTrue();
    }

    @Test
    void settledReadsDoubleTheWaitUpToTheMost() {
        ScanCadence c = new ScanCadence();
        long now = 0;
        c.read(now, true);
        assertThat(c.interval()).isEqualTo(2 * FIRST);
        assertThat(c.due(now + 2 * FIRST - 1, false)).isFalse();
        assertThat(c.due(now + 2 * FIRST, false)).isTrue();
        for (int i = 0; i < 10; i++) {
            now += c.interval();
            c.read(now, true);
        }
        assertThat(c.interval()).isEqualTo(ScanCadence.MAX_NANOS);
    }

    @Test
    void aReadThatFoundARailMissingStartsTheCadenceOver() {
        ScanCadence c = new ScanCadence();
        c.read(0, true);
        c.read(400, true);
        c.read(800, false);
        assertThat(c.interval()).isEqualTo(FIRST);
        assertThat(c.due(800 + FIRST, false)).isTrue();
    }

    @Test
    void aClosedRailMakesAReadDueAtOnce() {
        ScanCadence c = new ScanCadence();
        c.read(0, true);
        assertThat(c.due(1, false)).isFalse();
        assertThat(c.due(1, true)).isTrue();
    }

    @Test
    void theClockMayWrapAround() {
        ScanCadence c = new ScanCadence();
        long now = Long.MAX_VALUE - FIRST / 2;
        c.read(now, false);
        assertThat(c.due(now + FIRST - 1, false)).isFalse();
        assertThat(c.due(now + FIRST, false)).isTrue();
    }
}
