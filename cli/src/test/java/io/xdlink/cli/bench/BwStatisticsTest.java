package io.xdlink.cli.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class BwStatisticsTest {
    private static final long[] POSTED = {0, 1, 2, 3};
    private static final long[] COMPLETED = {100, 150, 200, 500};

    @Test
    void averageIsBytesOverFirstPostToLastCompletion() {
        BwResult r = BwStatistics.compute(65536, POSTED, COMPLETED, 4, 2, true, ReportUnit.MIB_PER_SEC);
        // 4 x 64 KiB in 500 ns = 2^18 B / 500e-9 s = 500000 MiB/s.
        assertThat(r.average()).isCloseTo(500_000.0, within(1e-6));
        assertThat(r.msgRateMpps()).isCloseTo(8.0, within(1e-9));
        assertThat(r.iterations()).isEqualTo(4);
    }

    @Test
    void peakSearchesWindowsEndingOnModerationBoundariesOnly() {
        BwResult r = BwStatistics.compute(65536, POSTED, COMPLETED, 4, 2, true, ReportUnit.MIB_PER_SEC);
        // Windows (i, j) with j in {1, 3}: (0,1) gives 150/2 = 75 ns per message, the smallest.
        assertThat(r.peak()).isCloseTo(65536e9 / (75.0 * 1048576), within(1e-6));
        assertThat(r.peakMeasured()).isTrue();
    }

    @Test
    void aCompletionOffTheModerationGridStillEndsAWindow() {
        // 3 messages with moderation 2: the last completion (index 2) is signalled explicitly.
        long[] posted = {0, 0, 0};
        long[] completed = {300, 600, 330};
        BwResult r = BwStatistics.compute(1000, posted, completed, 3, 2, true, ReportUnit.GBIT_PER_SEC);
        // Windows: (0,1)=300, (0,2)=110, (1,1)=600, (1,2)=165, (2,2)=330: 110 ns per 1000 B.
        assertThat(r.peak()).isCloseTo(1000 * 1e9 / (110.0 * 125_000_000), within(1e-9));
    }

    @Test
    void windowTimesAreDividedInIntegerNanosecondsAsPerftestDividesCycles() {
        long[] posted = {0, 0, 0};
        long[] completed = {1000, 1000, 1000};
        BwResult r = BwStatistics.compute(100, posted, completed, 3, 1, true, ReportUnit.GBIT_PER_SEC);
        // 1000 / 3 = 333 (not 333.33): peak = 100 B / 333 ns.
        assertThat(r.peak()).isCloseTo(100 * 1e9 / (333.0 * 125_000_000), within(1e-12));
    }

    @Test
    void gigabitsUseTenToTheNinthBits() {
        long[] posted = {0};
        long[] completed = {1_000_000_000L};
        BwResult r = BwStatistics.compute(1_250_000_000L, posted, completed, 1, 100, true, ReportUnit.GBIT_PER_SEC);
        assertThat(r.average()).isCloseTo(10.0, within(1e-12));
    }

    @Test
    void noPeakInDurationModeOrBeyondTwentyThousandIterations() {
        BwResult duration = BwStatistics.compute(65536, POSTED, COMPLETED, 4, 2, false, ReportUnit.MIB_PER_SEC);
        assertThat(duration.peak()).isZero();
        assertThat(duration.peakMeasured()).isFalse();

        int n = BwStatistics.PEAK_ITERATION_LIMIT + 1;
        long[] posted = new long[n];
        long[] completed = new long[n];
        for (int i = 0; i < n; i++) {
            posted[i] = i * 10L;
            completed[i] = i * 10L + 5;
        }
        BwResult many = BwStatistics.compute(8, posted, completed, n, 100, true, ReportUnit.MIB_PER_SEC);
        assertThat(many.peakMeasured()).isFalse();
        assertThat(many.peak()).isZero();
        assertThat(many.average()).isPositive();
    }

    @Test
    void rejectsEmptyAndInconsistentInput() {
        assertThatThrownBy(() -> BwStatistics.compute(1, new long[0], new long[0], 0, 1, true, ReportUnit.MIB_PER_SEC))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("samples");
        assertThatThrownBy(() -> BwStatistics.compute(1, POSTED, COMPLETED, 5, 1, true, ReportUnit.MIB_PER_SEC))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BwStatistics.compute(1, POSTED, COMPLETED, 4, 0, true, ReportUnit.MIB_PER_SEC))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("moderation");
    }

    @Test
    void turnsCombineIntoOneRowOverTheirSummedTimesWithTheBestTurnsPeak() {
        // Two turns of 4 messages of 64 KiB: 1 ms and 3 ms, peaks 400 and 300 MB/s.
        BwResult a = new BwResult(65536, 4, 400, 250, 4e-3, ReportUnit.MIB_PER_SEC, true);
        BwResult b = new BwResult(65536, 4, 300, 250.0 / 3, 4.0 / 3 * 1e-3, ReportUnit.MIB_PER_SEC, true);
        BwResult r = BwStatistics.combine(List.of(a, b));
        assertThat(r.iterations()).isEqualTo(8);
        assertThat(r.msgRateMpps()).isCloseTo(2e-3, within(1e-12)); // 8 messages in 4 ms
        assertThat(r.average()).isCloseTo(65536 * 8 * 1e9 / (4e6 * ReportUnit.MIB_PER_SEC.bytesPerUnitSecond()),
                within(1e-9));
        assertThat(r.peak()).isEqualTo(400);
        assertThat(r.peakMeasured()).isTrue();
    }

    @Test
    void aTurnWithoutAPeakLeavesTheRowWithoutOne() {
        BwResult a = new BwResult(65536, 4, 400, 250, 4e-3, ReportUnit.MIB_PER_SEC, true);
        BwResult b = BwStatistics.duration(65536, 4, 1_000_000, ReportUnit.MIB_PER_SEC);
        BwResult r = BwStatistics.combine(List.of(a, b));
        assertThat(r.peakMeasured()).isFalse();
        assertThat(r.peak()).isZero();
    }

    @Test
    void turnsOfDifferentSizesOrUnitsOrNoneAreRefused() {
        BwResult a = new BwResult(65536, 4, 0, 250, 4e-3, ReportUnit.MIB_PER_SEC, false);
        assertThatThrownBy(() -> BwStatistics.combine(List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("no turns to combine");
        assertThatThrownBy(() -> BwStatistics.combine(List.of(a,
                new BwResult(4096, 4, 0, 250, 4e-3, ReportUnit.MIB_PER_SEC, false))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("turns of different sizes");
        assertThatThrownBy(() -> BwStatistics.combine(List.of(a,
                new BwResult(65536, 4, 0, 250, 4e-3, ReportUnit.GBIT_PER_SEC, false))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("turns of different sizes");
    }
}
