package io.xdlink.cli.bench;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** When a bandwidth warm-up stops: rates as the two-host lab showed them, climbing, level, noisy and paced. */
class WarmUpPlateauTest {
    private static final long ROUND = WarmUpPlateau.ROUND_NANOS;

    /** Feeds rounds of the given Gb/s, each one round long, and returns after how many it was level (or -1). */
    private static int levelAfter(double... gbps) {
        WarmUpPlateau p = new WarmUpPlateau();
        for (double g : gbps) {
            p.round((long) (g / 8 * ROUND), ROUND, 0);
            if (p.level()) {
                return p.rounds();
            }
        }
        return -1;
    }

    @Test
    void aClimbingRunIsNotLevelUntilItsLastRoundsStopGaining() {
        // Half-second cable counters of a 64 KiB write_bw in the lab: 5 to 20-28 Gb/s over its first seconds.
        assertThat(levelAfter(5, 7, 7, 10, 12, 10, 15, 19, 21, 18, 24, 22, 18, 27, 30, 24, 26, 28, 26, 16))
                .isEqualTo(19);
        assertThat(levelAfter(1, 4, 7, 7, 18, 19, 22, 22, 20, 19, 21, 22)).isEqualTo(12);
    }

    @Test
    void aPacedCableIsLevelAsSoonAsBothSpansAreThere() {
        assertThat(levelAfter(0.94, 0.95, 0.94, 0.94, 0.95, 0.94, 0.95, 0.94, 0.95)).isEqualTo(2 * WarmUpPlateau.SPAN);
    }

    /**
     * A round is at least a TX depth of messages: 128 writes of 1 MiB on a 500 Mbit/s cable take 2.1 s a round, so
     * one round on each side covers what four quarter-second rounds do.
     */
    @Test
    void longRoundsOnAPacedCableAreComparedOneAgainstOne() {
        long twoSeconds = 2_100_000_000L;
        WarmUpPlateau p = new WarmUpPlateau();
        p.round(64L << 20, 1_070_000_000L, 0); // the first round: 64 MiB
        assertThat(p.level()).isFalse();
        p.round(128L << 20, twoSeconds, 0);
        assertThat(p.level()).as("the first round was slower by less than the gain allowed").isTrue();

        WarmUpPlateau climbing = new WarmUpPlateau();
        climbing.round(32L << 20, twoSeconds, 0);
        climbing.round(128L << 20, twoSeconds, 0);
        assertThat(climbing.level()).as("four times the rate of the round before").isFalse();
        climbing.round(130L << 20, twoSeconds, 0);
        assertThat(climbing.level()).isTrue();

        // Half-second rounds: two on each side.
        WarmUpPlateau half = new WarmUpPlateau();
        for (int i = 0; i < 3; i++) {
            half.round(30L << 20, 500_000_000L, 0);
            assertThat(half.level()).as("round %d", i + 1).isFalse();
        }
        half.round(30L << 20, 500_000_000L, 0);
        assertThat(half.level()).isTrue();
    }

    @Test
    void aLevelRateWhileTheCompilersStillWorkIsAPauseInTheClimb() {
        WarmUpPlateau p = new WarmUpPlateau();
        for (int i = 0; i < 2 * WarmUpPlateau.SPAN; i++) {
            p.round(250_000_000, ROUND, ROUND / 2);
        }
        assertThat(p.level()).as("compiling half of every round").isFalse();
        for (int i = 1; i < WarmUpPlateau.SPAN; i++) {
            p.round(250_000_000, ROUND, (long) (ROUND * WarmUpPlateau.COMPILING));
            assertThat(p.level()).as("%d quiet rounds of the %d compared", i, WarmUpPlateau.SPAN).isFalse();
        }
        p.round(250_000_000, ROUND, (long) (ROUND * WarmUpPlateau.COMPILING));
        assertThat(p.level()).as("a whole span compiling no more than the share allowed").isTrue();
        p.round(250_000_000, ROUND, ROUND / 5);
        assertThat(p.level()).as("one busy round starts the count again").isFalse();
    }

    /**
     * The peer's compilers count as this process's: rounds while the server compiles again are not level, however
     * level their rate, and every round costs one question (and one before the first).
     */
    @Test
    void aWarmUpGoesOnWhileThePeersCompilersWork() {
        // One round on each side: the span a pace of two shrinks to whenever a round runs long (a busy test host),
        // so the counts below hold however the rounds are timed.
        WarmUpPlateau.Pace pace = new WarmUpPlateau.Pace(2_000_000L, 1, 30_000_000_000L);
        int busyAnswers = 6;
        AtomicInteger questions = new AtomicInteger();
        // A running total that grows by a second at each of the first answers: far above any round's share.
        LongSupplier peer = () -> 1000L * Math.min(questions.incrementAndGet(), busyAnswers);
        AtomicInteger rounds = new AtomicInteger();
        WarmUpPlateau.run(pace, 100, 1, peer, n -> spin(rounds, n));
        assertThat(rounds.get()).as("rounds 1-%d saw the peer compiling; then a span of quiet ones", busyAnswers - 1)
                .isGreaterThanOrEqualTo(busyAnswers - 1 + pace.span());
        assertThat(questions.get()).isEqualTo(rounds.get() + 1);

        // A peer whose running total jumps to the largest value it may send after the first round, then back: that
        // round reads as busy, never as a negative share of it (which the plateau refuses with an exception).
        AtomicInteger asked = new AtomicInteger();
        LongSupplier jumping = () -> asked.incrementAndGet() == 2 ? Long.MAX_VALUE : 0;
        AtomicInteger afterJump = new AtomicInteger();
        WarmUpPlateau.run(pace, 100, 1, jumping, n -> spin(afterJump, n));
        assertThat(afterJump.get()).as("the jump's round, then a span of quiet ones").isGreaterThanOrEqualTo(
                1 + pace.span());

        AtomicInteger quiet = new AtomicInteger();
        WarmUpPlateau.run(pace, 100, 1, WarmUpPlateau.NO_PEER, n -> spin(quiet, n));
        assertThat(quiet.get()).as("no peer to wait for: level after both spans")
                .isGreaterThanOrEqualTo(2 * pace.span());
    }

    /** A round of {@code n} messages at one a microsecond, counted in {@code rounds}. */
    private static void spin(AtomicInteger rounds, long n) {
        rounds.incrementAndGet();
        long until = System.nanoTime() + n * 1000;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    @Test
    void noiseAroundALevelRateEndsIt() {
        assertThat(levelAfter(22, 15, 29, 24, 15, 15, 24, 3)).isEqualTo(8);
    }

    @Test
    void aRateThatKeepsClimbingStopsAtTheTimeLimit() {
        WarmUpPlateau p = new WarmUpPlateau();
        double g = 1;
        long rounds = WarmUpPlateau.MAX_NANOS / ROUND;
        for (int i = 0; i < rounds - 1; i++, g *= 1.2) {
            p.round((long) (g / 8 * ROUND), ROUND, 0);
            assertThat(p.level()).as("round %d", i + 1).isFalse();
        }
        p.round((long) (g / 8 * ROUND), ROUND, 0);
        assertThat(p.level()).isTrue();
    }

    @Test
    void theNextRoundTakesAboutARoundAtTheLastRate() {
        WarmUpPlateau p = new WarmUpPlateau();
        assertThat(p.nextMessages(65536, 128)).as("no rate yet").isEqualTo(128);
        p.round(8L << 20, 1_000_000, 0); // 8 MiB in 1 ms: 8 GiB/s
        assertThat(p.nextMessages(65536, 128)).isEqualTo((long) (8.0 * (1 << 20) / 1_000_000 * ROUND / 65536));
        assertThat(p.nextMessages(1L << 30, 128)).as("never under the floor").isEqualTo(128);
        assertThat(p.nextMessages(1, 128)).as("never over the most a round may keep stamps for")
                .isEqualTo(WarmUpPlateau.MAX_ROUND_MESSAGES);
    }

    @Test
    void impossibleRoundsAreRefused() {
        WarmUpPlateau p = new WarmUpPlateau();
        assertThatThrownBy(() -> p.round(1, 0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0 ns");
        assertThatThrownBy(() -> p.round(-1, 5, 0)).isInstanceOf(IllegalArgumentException.class);
    }
    /**
     * A later size of {@code -a} warms up at the brief pace: fifty-millisecond rounds, two compared on each side, two
     * seconds at most, so 22 later sizes add seconds to a table rather than most of a minute; the first size keeps
     * the long pace.
     */
    @Test
    void aLaterSizeIsLevelAfterFourBriefRoundsAndStopsWithinTwoSeconds() {
        WarmUpPlateau.Pace again = WarmUpPlateau.Pace.AGAIN;
        assertThat(again.roundNanos()).isLessThan(WarmUpPlateau.Pace.FIRST.roundNanos());
        WarmUpPlateau level = new WarmUpPlateau(again);
        for (int i = 0; i < 3; i++) {
            level.round(250_000_000, again.roundNanos(), 0);
            assertThat(level.level()).as("round %d of 4", i + 1).isFalse();
        }
        level.round(250_000_000, again.roundNanos(), 0);
        assertThat(level.level()).isTrue();
        assertThat(level.nextMessages(1000, 1)).as("the next round is sized to the brief round").isEqualTo(250_000);

        WarmUpPlateau climbing = new WarmUpPlateau(again);
        long bytes = 1_000_000;
        int rounds = 0;
        while (!climbing.level()) {
            climbing.round(bytes, again.roundNanos(), 0);
            bytes = bytes * 3 / 2;
            rounds++;
        }
        assertThat((long) rounds * again.roundNanos()).isEqualTo(again.maxNanos());

        WarmUpPlateau compiling = new WarmUpPlateau(again);
        for (int i = 0; i < 4; i++) {
            compiling.round(250_000_000, again.roundNanos(), (long) (again.roundNanos() * WarmUpPlateau.COMPILING) + 1);
        }
        assertThat(compiling.level()).as("this process's compilers still busy").isFalse();
    }
}
