package io.xdlink.rails.engine;

import io.xdlink.rails.RailsSettings;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the coalesced ACK falls due. The duty-cycle tests pin the same rules end to end, in frames on a rail; these
 * pin them on the coalescer itself, one rule at a time.
 */
class AckCoalescerTest {
    private static final int EVERY = 16;
    private static final long DELAY = 50_000;

    private final AckCoalescer acks = new AckCoalescer(
            RailsSettings.of("ack_every_frames", "16", "ack_delay_us", "50"), new EngineCounters());

    @Test
    void fewFramesWaitForTheDelayWhichStartsWithTheFirst() {
        assertThat(acks.onData(1, false, false, 1_000)).as("the timer to arm").isEqualTo(1_000 + DELAY);
        assertThat(acks.onData(3, false, false, 2_000)).as("already armed").isEqualTo(Long.MAX_VALUE);
        assertThat(acks.due(1_000 + DELAY - 1)).isFalse();
        assertThat(acks.due(1_000 + DELAY)).isTrue();
        assertThat(acks.owed()).as("not owed before a NAK until the delay ran out").isFalse();
        assertThat(acks.onTimer(1_000 + DELAY - 1)).isEqualTo(1_000 + DELAY);
        assertThat(acks.onTimer(1_000 + DELAY)).isEqualTo(1_000 + 2 * DELAY);
        assertThat(acks.owed()).isTrue();
    }

    @Test
    void ackEveryFramesMakeItDueAtTheNextCycleStartNotAtOnce() {
        assertThat(acks.onData(EVERY - 1, false, false, 0)).isEqualTo(DELAY);
        assertThat(acks.onData(1, false, false, 10)).isEqualTo(Long.MAX_VALUE);
        assertThat(acks.due(10)).as("asked, but it waits for the next cycle").isFalse();
        acks.cycleStarted(true);
        assertThat(acks.due(10)).isTrue();
    }

    @Test
    void anAckRequestMakesItDueAtTheNextCycleStart() {
        assertThat(acks.onData(1, true, false, 0)).as("its delay runs too").isEqualTo(DELAY);
        assertThat(acks.due(0)).isFalse();
        acks.cycleStarted(true);
        assertThat(acks.due(0)).isTrue();
    }

    @Test
    void aStandbysCycleLeavesAnAskedAckToTheNextCycleOrItsDelay() {
        assertThat(acks.onData(1, true, false, 0)).isEqualTo(DELAY);
        acks.cycleStarted(false);
        assertThat(acks.due(0)).as("a standby's cycle does not send it").isFalse();
        assertThat(acks.due(DELAY)).as("its delay does").isTrue();
        acks.cycleStarted(true);
        assertThat(acks.due(1)).as("the owner's next cycle does, before the delay").isTrue();
    }

    @Test
    void twiceAckEveryFramesMakeItDueAtOnce() {
        acks.onData(2 * EVERY - 1, false, false, 0);
        assertThat(acks.due(0)).as("asked only").isFalse();
        acks.onData(1, false, false, 0);
        assertThat(acks.due(0)).isTrue();
        assertThat(acks.owed()).isTrue();
    }

    @Test
    void framesThatAllSayTheirAckMayWaitWaitAQuarterOfTheRetransmitTimeout() {
        AckCoalescer lazy = new AckCoalescer(RailsSettings.of("ack_every_frames", "16", "ack_delay_us", "50",
                "retransmit_timeout_us", "2000"), new EngineCounters());
        assertThat(lazy.onData(1, false, true, 1_000)).as("the timer to arm").isEqualTo(1_000 + 500_000);
        assertThat(lazy.onData(1, false, true, 2_000)).as("already armed").isEqualTo(Long.MAX_VALUE);
        lazy.cycleStarted(true);
        assertThat(lazy.due(1_000 + DELAY)).as("not at ack_delay").isFalse();
        assertThat(lazy.due(1_000 + 500_000)).isTrue();
    }

    @Test
    void aFrameThatDoesNotSaySoBringsTheAckBackToItsOwnDelay() {
        AckCoalescer lazy = new AckCoalescer(RailsSettings.of("ack_delay_us", "50", "retransmit_timeout_us", "2000"),
                new EngineCounters());
        assertThat(lazy.onData(1, false, true, 0)).isEqualTo(500_000);
        assertThat(lazy.onData(1, false, false, 10)).as("sooner: the timer to arm again").isEqualTo(10 + DELAY);
        assertThat(lazy.due(10 + DELAY)).isTrue();
        assertThat(lazy.onData(1, false, true, 20)).as("a lazy frame never puts it off").isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void lazyFramesStillCountTowardAckEveryFrames() {
        AckCoalescer lazy = new AckCoalescer(RailsSettings.of("ack_every_frames", "16", "retransmit_timeout_us",
                "2000"), new EngineCounters());
        lazy.onData(EVERY - 1, false, true, 0);
        lazy.cycleStarted(true);
        assertThat(lazy.due(0)).isFalse();
        lazy.onData(1, false, true, 0);
        lazy.cycleStarted(true);
        assertThat(lazy.due(0)).as("asked by the count, sent with the next cycle's post").isTrue();
    }

    @Test
    void theLazyDelayIsNeverShorterThanAckDelay() {
        AckCoalescer lazy = new AckCoalescer(RailsSettings.of("ack_delay_us", "50", "retransmit_timeout_us", "100"),
                new EngineCounters());
        assertThat(lazy.onData(1, false, true, 0)).isEqualTo(DELAY);
    }

    @Test
    void nothingArrivedNothingIsOwed() {
        assertThat(acks.due(Long.MAX_VALUE - 1)).isFalse();
        assertThat(acks.unacknowledged()).isFalse();
        acks.cycleStarted(true);
        assertThat(acks.due(0)).isFalse();
        acks.dueBeforeControl();
        assertThat(acks.owed()).as("no queue pair moved: a NAK need not wait").isFalse();
        assertThat(acks.onTimer(0)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void framesNotYetDueAreStillOwedToADeviceAboutToClose() {
        acks.onData(1, false, false, 0);
        assertThat(acks.due(0)).isFalse();
        assertThat(acks.unacknowledged()).isTrue();
    }

    @Test
    void withNoRailUpNothingIsSentAndTheAckStaysOwed() {
        acks.onData(2 * EVERY, false, false, 0);
        assertThat(acks.send(new FrameOut(), 0, List.of())).isZero();
        assertThat(acks.due(0)).isTrue();
        assertThat(acks.via()).isNull();
    }
}
