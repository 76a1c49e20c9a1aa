package io.xdlink.rails.engine;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The small parts of a rail's sending side: the round-trip estimate, the peer's credit, the unsequenced budget. */
class RailPartsTest {

    @Test
    void theTimeoutIsTheParameterUntilTheRoundTripAndItsVariationExceedIt() {
        RttEstimator rtt = new RttEstimator();
        assertThat(rtt.rto(500)).isEqualTo(500);
        rtt.sample(100);
        assertThat(rtt.smoothed()).isEqualTo(100);
        assertThat(rtt.rto(0)).as("100 + 4 * 50").isEqualTo(300);
        rtt.sample(900);
        // rttvar = (3 * 50 + 800) / 4 = 237, srtt = (7 * 100 + 900) / 8 = 200
        assertThat(rtt.smoothed()).isEqualTo(200);
        assertThat(rtt.rto(500)).isEqualTo(200 + 4 * 237);
        assertThat(rtt.rto(5_000)).isEqualTo(5_000);
    }

    @Test
    void dataStopsShortOfTheCreditByTheControlReserveAndTheUnsequencedBudget() {
        SendCredit c = new SendCredit();
        c.reset(64, 8);
        int reserve = 8 + Rail.UNSEQUENCED_BUDGET;
        assertThat(c.credits()).isEqualTo(64);
        c.advance(64 - reserve - 1);
        assertThat(c.dataRoom()).isEqualTo(1);
        assertThat(c.allowsData()).isTrue();
        c.advance(1);
        assertThat(c.allowsData()).isFalse();
        assertThat(c.allowsControl()).isTrue();
        c.advance(8);
        assertThat(c.allowsControl()).isFalse();
        assertThat(c.lagging()).isTrue();
        assertThat(c.beyondSent(c.nextSeq() + 1)).isTrue();
        assertThat(c.beyondSent(c.nextSeq())).isFalse();
    }

    @Test
    void onlyAGrantAboveTheLastAndWithinTheWindowRaisesTheCredit() {
        SendCredit c = new SendCredit();
        c.reset(64, 8);
        c.advance(10);
        assertThat(c.raise(64)).as("not above").isFalse();
        assertThat(c.raise(10 + 64 + 1)).as("beyond the window for what was sent").isFalse();
        assertThat(c.raise(10 + 64)).isTrue();
        assertThat(c.credits()).isEqualTo(64);
        assertThat(c.lagging()).isFalse();
    }

    @Test
    void unsequencedFramesWaitForTheEchoOrAreWrittenOffAfterAWhile() {
        UnsequencedBudget u = new UnsequencedBudget();
        for (int i = 0; i < Rail.UNSEQUENCED_BUDGET; i++) {
            assertThat(u.allows(0, 1_000)).isTrue();
            u.creditSent(i);
        }
        assertThat(u.allows(10, 1_000)).as("all unconfirmed").isFalse();
        u.onEcho(2);
        assertThat(u.allows(10, 1_000)).as("two confirmed by the echo").isTrue();
        u.helloSent();
        u.creditSent(20);
        assertThat(u.nextId()).isEqualTo(Rail.UNSEQUENCED_BUDGET + 3);
        assertThat(u.allows(20 + 999, 1_000)).isFalse();
        assertThat(u.allows(20 + 1_000, 1_000)).as("written off").isTrue();
        u.onReceived(0x1_0007);
        u.onReceived(5);
        assertThat(u.echo()).as("the highest id seen, sixteen bits").isEqualTo(7);
    }
}
