package io.xdlink.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The harnesses' arguments: defaults, overrides, and every bad input refused with a line naming it. */
class HarnessArgsTest {

    @Test
    void defaultsHoldUntilAnArgumentNamesAnOption() {
        assertThat(SideBySide.Options.parse("TcpLatency", new String[0], 60, 2000, 5))
                .isEqualTo(new SideBySide.Options(60, 2000, 5));
        assertThat(SideBySide.Options.parse("TcpLatency", new String[] {"--ops", "7", "--warmup-rounds=0"}, 60,
                2000, 5)).isEqualTo(new SideBySide.Options(60, 7, 0));
        CclLatency.Args a = CclLatency.Args.parse(new String[] {"--rounds", "3", "--calls", "9"});
        assertThat(a.rounds).isEqualTo(3);
        assertThat(a.trips).isEqualTo(500);
        assertThat(a.warmups).isEqualTo(5);
        assertThat(a.calls).isEqualTo(9);
    }

    @Test
    void unknownOptionsMissingValuesAndBadNumbersAreRefusedByName() {
        assertThatThrownBy(() -> SideBySide.Options.parse("SimBandwidth", new String[] {"--opps", "3"}, 1, 1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("SimBandwidth: ")
                .hasMessageContaining("--opps");
        assertThatThrownBy(() -> SideBySide.Options.parse("SimBandwidth", new String[] {"--rounds"}, 1, 1, 1))
                .hasMessageContaining("--rounds");
        assertThatThrownBy(() -> CclLatency.Args.parse(new String[] {"--calls", "many"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--calls")
                .hasMessageContaining("many");
        assertThatThrownBy(() -> CclLatency.Args.parse(new String[] {"--round-trips", "99999999999999"}))
                .hasMessageContaining("--round-trips");
        assertThatThrownBy(() -> CclLatency.Args.parse(new String[] {"stray"}))
                .hasMessageContaining("stray");
    }

    @Test
    void countsBelowTheirLeastAreRefused() {
        assertThatThrownBy(() -> SideBySide.Options.parse("TcpBandwidth", new String[] {"--rounds", "0"}, 1, 1, 1))
                .hasMessage("--rounds must be at least 1, got 0");
        assertThatThrownBy(() -> SideBySide.Options.parse("TcpBandwidth", new String[] {"--warmup-rounds", "-1"},
                1, 1, 1)).hasMessage("--warmup-rounds must be at least 0, got -1");
        assertThatThrownBy(() -> CclLatency.Args.parse(new String[] {"--calls", "0"}))
                .hasMessage("--calls must be at least 1, got 0");
    }

    @Test
    void helpPrintsUsageAndAsksTheCallerToStop() {
        assertThat(SideBySide.Options.parse("TcpLatency", new String[] {"--help"}, 1, 1, 1)).isNull();
        assertThat(CclLatency.Args.parse(new String[] {"-h"})).isNull();
    }
}
