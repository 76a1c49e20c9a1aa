package io.xdlink.cli.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class LatencyStatisticsTest {

    @Test
    void samplesAreHalfRoundTripsWithTheTwoLargestDropped() {
        // Round trips 10, 20, 30, 40, 50 us; kept: 10, 20, 30 (one-way 5, 10, 15).
        long[] stamps = {0, 10_000, 30_000, 60_000, 100_000, 150_000};
        LatencyResult r = LatencyStatistics.compute(2, stamps, 6, 2);
        assertThat(r.min()).isCloseTo(5.0, within(1e-12));
        assertThat(r.typical()).isCloseTo(10.0, within(1e-12));
        assertThat(r.average()).isCloseTo(10.0, within(1e-12));
        assertThat(r.stdev()).isCloseTo(Math.sqrt(50.0 / 3), within(1e-12));
        // perftest prints d[n] as t_max: the smaller dropped sample, 40 us round trip.
        assertThat(r.max()).isCloseTo(20.0, within(1e-12));
        // ceil(3 x 0.99) = 3: d[3] again.
        assertThat(r.p99()).isCloseTo(20.0, within(1e-12));
        assertThat(r.p999()).isCloseTo(20.0, within(1e-12));
        assertThat(r.iterations()).isEqualTo(6);
    }

    @Test
    void anEvenKeptCountTakesTheMeanOfTheMiddleTwoInIntegerNanoseconds() {
        // Round trips 1, 2, 4, 7, 100, 200 ns: kept 1, 2, 4, 7 -> median (2 + 4) / 2 = 3 ns.
        long[] stamps = {0, 1, 3, 7, 14, 114, 314};
        LatencyResult r = LatencyStatistics.compute(2, stamps, 7, 1);
        assertThat(r.typical()).isCloseTo(0.003, within(1e-12));
    }

    @Test
    void sortsBeforeTrimming() {
        long[] stamps = {0, 50_000, 60_000, 80_000, 110_000, 150_000};
        // Round trips 50, 10, 20, 30, 40: the 50 is dropped wherever it came.
        LatencyResult r = LatencyStatistics.compute(2, stamps, 6, 2);
        assertThat(r.min()).isCloseTo(5.0, within(1e-12));
        assertThat(r.average()).isCloseTo(10.0, within(1e-12));
    }

    @Test
    void durationModeIsTheMeanHalfRoundTripAndTransactionsPerSecond() {
        double[] d = LatencyStatistics.duration(2_000_000_000L, 100_000, 2);
        assertThat(d[0]).isCloseTo(10.0, within(1e-12));
        assertThat(d[1]).isCloseTo(50_000.0, within(1e-9));
    }

    @Test
    void rejectsTooFewIterations() {
        assertThatThrownBy(() -> LatencyStatistics.compute(2, new long[] {0, 1, 2}, 3, 2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 4");
        assertThatThrownBy(() -> LatencyStatistics.compute(2, new long[] {0, 1, 2, 3}, 4, 3))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LatencyStatistics.duration(0, 0, 2)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void roundTripsGiveWhatTheStampsTheyCameFromGive() {
        long[] stamps = {0, 10_000, 30_000, 60_000, 100_000, 150_000, 151_000};
        long[] rt = {10_000, 20_000, 30_000, 40_000, 50_000, 1_000};
        assertThat(LatencyStatistics.ofRoundTrips(8, 7, rt, 2))
                .isEqualTo(LatencyStatistics.compute(8, stamps, 7, 2));
    }

    @Test
    void tooFewRoundTripsOrABadFactorAreRefused() {
        assertThatThrownBy(() -> LatencyStatistics.ofRoundTrips(8, 2, new long[] {1, 2}, 2))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("need at least 3 round trips, got 2");
        assertThatThrownBy(() -> LatencyStatistics.ofRoundTrips(8, 3, new long[] {1, 2, 3}, 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("rtt factor must be 1 or 2: 3");
    }
}
