package io.xdlink.cli.bench;

import org.junit.jupiter.api.Test;

import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** --turns: how a size's iterations are shared out, and how each side's turns become one row. */
class TurnsTest {

    @Test
    void sharesAddUpToTheIterationsAndTheFirstTurnsTakeTheRemainder() {
        assertThat(LongStream.range(0, 4).map(k -> Turns.share(10, 4, (int) k)).toArray())
                .containsExactly(3, 3, 2, 2);
        assertThat(LongStream.range(0, 3).map(k -> Turns.share(9, 3, (int) k)).toArray()).containsExactly(3, 3, 3);
        assertThat(Turns.share(5000, 1, 0)).isEqualTo(5000);
        for (long iterations : new long[] {7, 1000, 99_999}) {
            for (int turns : new int[] {1, 2, 7}) {
                long sum = 0;
                for (int k = 0; k < turns; k++) {
                    sum += Turns.share(iterations, turns, k);
                }
                assertThat(sum).as("%d in %d turns", iterations, turns).isEqualTo(iterations);
            }
        }
    }

    @Test
    void aTurnOutsideTheRunIsRefused() {
        for (int[] bad : new int[][] {{0, 0}, {3, 3}, {3, -1}}) {
            assertThatThrownBy(() -> Turns.share(10, bad[0], bad[1])).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("turn " + bad[1] + " of " + bad[0]);
        }
    }

    @Test
    void roundTripsAreTheGapsBetweenStampsTheLastEndedByAStampOfItsOwn() {
        assertThat(Turns.roundTrips(new long[] {100, 130, 190, 200})).containsExactly(30, 60, 10);
        assertThat(Turns.roundTrips(new long[] {5})).isEmpty();
    }

    @Test
    void aLatencyRowIsPerftestsStatisticsOverEveryTurnsRoundTripsAsOneRun() {
        Turns.Tally t = new Turns.Tally(64, 5, true);
        // Round trips 10, 20, 30 us in one turn and 40, 50 in the next: the two largest are dropped, as in one run.
        t.add(new long[] {10_000, 20_000, 30_000});
        t.add(new long[] {50_000, 40_000});
        LatencyResult r = ((BenchResult.Lat) t.row()).r();
        assertThat(r.iterations()).isEqualTo(5);
        assertThat(r.min()).isEqualTo(5.0);
        assertThat(r.typical()).isEqualTo(10.0);
        assertThat(r.max()).isEqualTo(20.0);
        assertThat(r).isEqualTo(LatencyStatistics.ofRoundTrips(64, 5,
                new long[] {40_000, 10_000, 50_000, 30_000, 20_000}, 2));
        // Room for fewer round trips than came (a share counted short) grows; room for more is left out.
        Turns.Tally small = new Turns.Tally(64, 2, true);
        small.add(new long[] {10_000, 20_000, 30_000});
        small.add(new long[] {50_000, 40_000});
        assertThat(small.row()).isEqualTo(new BenchResult.Lat(r));
        Turns.Tally large = new Turns.Tally(64, 9, true);
        large.add(new long[] {10_000, 20_000, 30_000, 50_000, 40_000});
        assertThat(large.row()).isEqualTo(new BenchResult.Lat(r));
    }

    @Test
    void aBandwidthRowIsTheTurnsMessagesOverTheirSummedTimes() {
        Turns.Tally t = new Turns.Tally(1 << 20, 400, false);
        // 100 messages of 1 MiB in 0.1 s, then 300 in 0.1 s: 400 MiB in 0.2 s.
        t.add(BwStatistics.duration(1 << 20, 100, 100_000_000, ReportUnit.MIB_PER_SEC));
        t.add(BwStatistics.duration(1 << 20, 300, 100_000_000, ReportUnit.MIB_PER_SEC));
        BwResult r = ((BenchResult.Bw) t.row()).r();
        assertThat(r.iterations()).isEqualTo(400);
        assertThat(r.average()).isCloseTo(2000.0, within(1e-6));
        assertThat(r.msgRateMpps()).isCloseTo(0.002, within(1e-12));
        assertThat(r.peakMeasured()).isFalse();
        assertThat(r.size()).isEqualTo(1 << 20);
        assertThat(r.unit()).isEqualTo(ReportUnit.MIB_PER_SEC);
    }
}
