package io.xdlink.rails.engine;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The receive position and map a rail's ACK lines carry, and what each arrival does to them. */
class ReceiveWindowTest {
    private final ReceiveWindow rx = new ReceiveWindow(128);

    @Test
    void aGapMovesThePositionPastItAndALateFrameFillsItsBitOnce() {
        assertThat(rx.book(0)).isEqualTo(ReceiveWindow.NEW);
        assertThat(rx.book(3)).as("1 and 2 missing").isEqualTo(ReceiveWindow.NEW);
        assertThat(rx.position()).isEqualTo(4);
        assertThat(rx.map()).as("bit k: sequence position-1-k").isEqualTo(0b1001L);
        assertThat(rx.book(1)).isEqualTo(ReceiveWindow.LATE);
        assertThat(rx.map()).isEqualTo(0b1101L);
        assertThat(rx.book(1)).isEqualTo(ReceiveWindow.DUPLICATE);
        assertThat(rx.book(3)).isEqualTo(ReceiveWindow.DUPLICATE);
        assertThat(rx.credit()).isEqualTo(4 + 128);
    }

    @Test
    void aSequenceThePeerHadNoCreditForIsRefused() {
        assertThat(rx.book(128)).isEqualTo(ReceiveWindow.OUT_OF_WINDOW);
        assertThat(rx.book(127)).isEqualTo(ReceiveWindow.NEW);
        assertThat(rx.position()).isEqualTo(128);
        assertThat(rx.map()).as("a jump of 64 or more leaves only itself").isEqualTo(1L);
    }

    @Test
    void aRunIsBookedAsThatManyFramesInOrder() {
        ReceiveWindow one = new ReceiveWindow(128);
        rx.book(0);
        one.book(0);
        rx.acceptRun(70);
        for (int s = 1; s <= 70; s++) {
            one.book(s);
        }
        assertThat(rx.position()).isEqualTo(one.position()).isEqualTo(71);
        assertThat(rx.map()).isEqualTo(one.map()).isEqualTo(-1L);
        assertThat(rx.expectsNext(71)).isTrue();
        assertThat(rx.expectsNext(72)).isFalse();
    }

    @Test
    void aCreditsNextSequenceGivesUpWhatNeverCameWithinTheWindowOnly() {
        rx.book(0);
        assertThat(rx.skipTo(5)).isTrue();
        assertThat(rx.position()).isEqualTo(5);
        assertThat(rx.map()).as("0 seen, 1 to 4 given up").isEqualTo(0b10000L);
        assertThat(rx.skipTo(5)).isFalse();
        assertThat(rx.skipTo(4)).as("behind").isFalse();
        assertThat(rx.skipTo(5 + 129)).as("beyond the window").isFalse();
    }

    @Test
    void thePositionIsStaleUntilAFrameCarriesItAndHalfAWindowUntoldIsWorthACredit() {
        assertThat(rx.staleSince()).isEqualTo(Long.MAX_VALUE);
        rx.acceptRun(63);
        assertThat(rx.markStale(100)).as("just became stale").isTrue();
        assertThat(rx.markStale(200)).isFalse();
        assertThat(rx.staleSince()).isEqualTo(100);
        assertThat(rx.halfUntold()).isFalse();
        rx.acceptRun(1);
        assertThat(rx.halfUntold()).isTrue();
        rx.advertised();
        assertThat(rx.staleSince()).isEqualTo(Long.MAX_VALUE);
        assertThat(rx.halfUntold()).isFalse();
        rx.reset();
        assertThat(rx.position()).isZero();
        assertThat(rx.map()).isZero();
    }
}
