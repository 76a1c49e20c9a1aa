package io.xdlink.rails.tcp;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SpinWindowTest {
    private static final long US = 1_000;

    @Test
    void startsAtItsBaseAndWorkWithoutASleepLeavesItThere() {
        SpinWindow w = new SpinWindow(100);
        w.worked(0);
        w.worked(10 * SpinWindow.QUICK_NANOS);
        assertThat(w.spins()).isEqualTo(100);
        assertThat(w.sleptSinceWork()).isFalse();
    }

    @Test
    void anAnswerThatCameSoonAfterTheSleepDoublesTheWindowUpToItsCap() {
        SpinWindow w = new SpinWindow(100);
        long t = 1_000_000;
        int[] seen = new int[5];
        for (int i = 0; i < seen.length; i++) {
            w.sleeping(t);
            assertThat(w.sleptSinceWork()).isTrue();
            t += 65 * US; // a late wake-up of the peer's, as measured on a virtual machine
            w.worked(t);
            seen[i] = w.spins();
        }
        assertThat(seen).containsExactly(200, 400, 800, 800, 800);
        assertThat(w.sleptSinceWork()).isFalse();
    }

    @Test
    void aSleepThatWorkEndsOnlyLateHalvesTheWindowBackTowardsItsBase() {
        SpinWindow w = grown(800);
        w.sleeping(0);
        w.worked(SpinWindow.QUICK_NANOS + 1);
        assertThat(w.spins()).isEqualTo(400);
        w.sleeping(10_000_000);
        w.worked(20_000_000);
        assertThat(w.spins()).isEqualTo(200);
        for (int i = 0; i < 5; i++) {
            w.sleeping(30_000_000L * (i + 1));
            w.worked(30_000_000L * (i + 1) + 2 * SpinWindow.QUICK_NANOS);
        }
        assertThat(w.spins()).isEqualTo(100);
    }

    @Test
    void sleepAfterSleepWithNoWorkShrinksItAsTheLinkGoesQuiet() {
        SpinWindow w = grown(800);
        long t = 0;
        w.sleeping(t);
        t += 400 * US; // woken with nothing to do, within the quick time: no verdict yet
        w.sleeping(t);
        assertThat(w.spins()).isEqualTo(800);
        t += 200 * US; // 600 us since this run of sleeps began: quiet
        w.sleeping(t);
        assertThat(w.spins()).isEqualTo(400);
        for (int i = 0; i < 10; i++) {
            t += 1_000 * US; // the selector's 1 ms timeouts on an idle link
            w.sleeping(t);
        }
        assertThat(w.spins()).isEqualTo(100);
        // Work that ends this quiet run long after it began does not grow it again.
        w.worked(t + 100 * US);
        assertThat(w.spins()).isEqualTo(100);
    }

    @Test
    void theWorkThatEndsAQuietSpellDoesNotGrowItButTheNextQuickAnswerDoes() {
        SpinWindow w = grown(200);
        w.sleeping(0);
        w.sleeping(5 * SpinWindow.QUICK_NANOS); // quiet: halved once
        assertThat(w.spins()).isEqualTo(100);
        w.worked(5 * SpinWindow.QUICK_NANOS + 50 * US); // 50 us into a sleep, but news, not an answer
        assertThat(w.spins()).isEqualTo(100);
        w.sleeping(10 * SpinWindow.QUICK_NANOS);
        w.worked(10 * SpinWindow.QUICK_NANOS + 50 * US);
        assertThat(w.spins()).isEqualTo(200);
    }

    @Test
    void aWindowOfNoSpinsNeverGrows() {
        SpinWindow w = new SpinWindow(0);
        w.sleeping(0);
        w.worked(US);
        assertThat(w.spins()).isZero();
    }

    @Test
    void aHugeWindowGrowsNoFurtherThanAnIntHolds() {
        SpinWindow w = new SpinWindow(Integer.MAX_VALUE / 3);
        for (int i = 0; i < 4; i++) {
            w.sleeping(i * 10_000_000L);
            w.worked(i * 10_000_000L + US);
        }
        assertThat(w.spins()).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void aNegativeWindowIsRefused() {
        assertThatThrownBy(() -> new SpinWindow(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a spin window cannot be negative: -1");
    }

    @Test
    void whileWaitingForAnAnswerAWakeUpUpTo2msLateStillGrowsTheWindowTo64TimesItsBase() {
        SpinWindow w = new SpinWindow(100);
        w.awaiting(true);
        long t = 0;
        for (int i = 0; i < 8; i++) {
            w.sleeping(t);
            t += 1_100 * US; // the late wake-ups of a virtual machine's bad spells
            w.worked(t);
            t += 10 * US;
        }
        assertThat(w.spins()).isEqualTo(100 * SpinWindow.AWAITING_GROWTH);
        // Later than that is news even while waiting: the window halves.
        w.sleeping(t);
        w.worked(t + SpinWindow.AWAITING_QUICK_NANOS + 1);
        assertThat(w.spins()).isEqualTo(50 * SpinWindow.AWAITING_GROWTH);
    }

    @Test
    void aThreadNotWaitingForAnAnswerKeepsTheNarrowBounds() {
        SpinWindow w = new SpinWindow(100);
        w.sleeping(0);
        w.worked(1_100 * US); // as late as above, but nobody said an answer was due: halved (already at its base)
        assertThat(w.spins()).isEqualTo(100);
        long t = 10_000 * US;
        for (int i = 0; i < 8; i++) {
            w.sleeping(t);
            t += 10 * US;
            w.worked(t);
        }
        assertThat(w.spins()).isEqualTo(100 * SpinWindow.GROWTH);
    }

    @Test
    void aSleepIsJudgedByTheBoundsInForceWhenItBegan() {
        SpinWindow w = new SpinWindow(100);
        w.awaiting(true);
        w.sleeping(0);
        w.awaiting(false); // said after the sleep began: this run of sleeps still waits for an answer
        w.sleeping(1_500 * US); // 1.5 ms of nothing: not yet quiet for a thread that waits
        w.worked(1_600 * US);
        assertThat(w.spins()).isEqualTo(200);
        w.sleeping(10_000 * US); // now begun not waiting: 1.1 ms later is news
        w.worked(11_100 * US);
        assertThat(w.spins()).isEqualTo(100);
    }

    @Test
    void aWindowGrownWhileWaitingComesBackToTheNarrowCapOnTheNextQuickAnswerWithout() {
        SpinWindow w = new SpinWindow(100);
        w.awaiting(true);
        long t = 0;
        while (w.spins() < 100 * SpinWindow.AWAITING_GROWTH) {
            w.sleeping(t);
            t += 10 * US;
            w.worked(t);
        }
        w.awaiting(false);
        w.sleeping(t);
        w.worked(t + 10 * US);
        assertThat(w.spins()).isEqualTo(100 * SpinWindow.GROWTH);
    }

    /** A window of base 100 grown to {@code spins} by quick answers. */
    private static SpinWindow grown(int spins) {
        SpinWindow w = new SpinWindow(100);
        long t = 0;
        while (w.spins() < spins) {
            w.sleeping(t);
            t += 10 * US;
            w.worked(t);
        }
        assertThat(w.spins()).isEqualTo(spins);
        return w;
    }
}
