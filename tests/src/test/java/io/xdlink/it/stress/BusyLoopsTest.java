package io.xdlink.it.stress;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Whether loops burn beside a test is known through nested sets: an inner set's close leaves the outer one counted. */
class BusyLoopsTest {

    @Test
    void anInnerSetClosingLeavesTheOuterOneActive() {
        boolean before = BusyLoops.active();
        // Closed by hand, twice, to show a second close changes nothing; the finally only guards a failed assertion.
        BusyLoops outer = BusyLoops.start(1, Duration.ofSeconds(30));
        try {
            assertThat(BusyLoops.active()).isTrue();
            try (BusyLoops inner = BusyLoops.start(1, Duration.ofSeconds(30))) {
                assertThat(inner.count()).isEqualTo(1);
                assertThat(BusyLoops.active()).isTrue();
            }
            assertThat(BusyLoops.active()).as("after the inner set closed, the outer one still burns").isTrue();
            outer.close();
            outer.close();
            assertThat(BusyLoops.active()).isEqualTo(before);
        } finally {
            outer.close();
        }
        assertThat(BusyLoops.active()).isEqualTo(before);
        try (BusyLoops none = BusyLoops.start(0, Duration.ofSeconds(1))) {
            assertThat(none.count()).isZero();
            assertThat(BusyLoops.active()).as("no loops, nothing burns").isEqualTo(before);
        }
    }
}
