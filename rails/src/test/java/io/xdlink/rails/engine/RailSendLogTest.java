package io.xdlink.rails.engine;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RailSendLogTest {

    @Test
    void settlingInAnyOrderAdvancesTheLowMarkOverControlFramesAndKeepsTheBytesRight() {
        RailSendLog log = new RailSendLog();
        log.reset(64);
        assertThat(log.capacity()).isEqualTo(128);
        log.recordData(1, 0, 0, 0, 100, 10);
        log.recordControl();
        log.recordData(1, 0, 1, 100, 200, 20);
        log.recordData(1, 1, 2, 0, 300, 30);
        assertThat(log.unsettled()).isEqualTo(3);
        assertThat(log.unsettledBytes()).isEqualTo(600);
        assertThat(log.oldestSentAt()).isEqualTo(10);
        log.settle(2);
        assertThat(log.low()).isZero();
        log.settle(0);
        assertThat(log.low()).isEqualTo(3);
        assertThat(log.oldestSentAt()).isEqualTo(30);
        log.settle(3);
        log.settle(3);
        assertThat(log.unsettled()).isZero();
        assertThat(log.unsettledBytes()).isZero();
        assertThat(log.low()).isEqualTo(log.high()).isEqualTo(4);
        assertThat(log.oldestSentAt()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void settlingEverythingBelowAPositionAtOnceCountsWhatItSettledAndStopsThere() {
        RailSendLog log = new RailSendLog();
        log.reset(64);
        log.recordData(1, 0, 0, 0, 100, 10);
        log.recordControl();
        log.recordData(1, 0, 1, 100, 200, 20);
        log.recordData(1, 1, 2, 0, 300, 30);
        log.recordData(1, 1, 3, 300, 400, 40);
        log.settle(2);
        assertThat(log.settleBelow(4)).isEqualTo(2); // sequences 0 and 3; 1 is control, 2 was settled already
        assertThat(log.lastSettledBytes()).isEqualTo(400);
        assertThat(log.lastSettledSentAt()).isEqualTo(30);
        assertThat(log.low()).isEqualTo(4);
        assertThat(log.unsettled()).isEqualTo(1);
        assertThat(log.unsettledBytes()).isEqualTo(400);
        assertThat(log.oldestSentAt()).isEqualTo(40);
        assertThat(log.settleBelow(4)).isZero();
        assertThat(log.settleBelow(6)).as("beyond what was sent").isZero();
        assertThat(log.unsettled()).isEqualTo(1);
        assertThat(log.settleBelow(5)).isEqualTo(1);
        assertThat(log.lastSettledBytes()).isEqualTo(400);
        assertThat(log.unsettledBytes()).isZero();
        assertThat(log.low()).isEqualTo(log.high()).isEqualTo(5);
    }

    @Test
    void aRunIsRecordedAsItsFramesOneByOneWouldBe() {
        RailSendLog byRun = new RailSendLog();
        RailSendLog byFrame = new RailSendLog();
        byRun.reset(64);
        byFrame.reset(64);
        byRun.recordControl();
        byFrame.recordControl();
        // Seven frames of 1000 bytes from offset 3000 of a 9500-byte request: the last one is the request's short end.
        assertThat(byRun.recordDataRun(5, 9, 40, 3000, 1000, 9500, 7, 77)).isEqualTo(6500);
        for (int k = 0; k < 7; k++) {
            byFrame.recordData(5, 9, 40 + k, 3000 + 1000L * k, (int) Math.min(1000, 9500 - (3000 + 1000L * k)), 77);
        }
        assertThat(byRun.high()).isEqualTo(byFrame.high()).isEqualTo(8);
        assertThat(byRun.unsettled()).isEqualTo(byFrame.unsettled()).isEqualTo(7);
        assertThat(byRun.unsettledBytes()).isEqualTo(byFrame.unsettledBytes()).isEqualTo(6500);
        for (int s = 1; s < 8; s++) {
            assertThat(byRun.isData(s)).isTrue();
            assertThat(byRun.qpn(s)).isEqualTo(byFrame.qpn(s)).isEqualTo(5);
            assertThat(byRun.msn(s)).isEqualTo(byFrame.msn(s)).isEqualTo(9);
            assertThat(byRun.psn(s)).isEqualTo(byFrame.psn(s));
            assertThat(byRun.offset(s)).isEqualTo(byFrame.offset(s));
            assertThat(byRun.length(s)).isEqualTo(byFrame.length(s));
            assertThat(byRun.sentAt(s)).isEqualTo(77);
        }
        assertThat(byRun.length(7)).isEqualTo(500);
        assertThat(byRun.settleBelow(8)).isEqualTo(7);
        assertThat(byRun.lastSettledBytes()).isEqualTo(6500);
    }

    @Test
    void theLogRefusesMoreThanItHolds() {
        RailSendLog log = new RailSendLog();
        log.reset(32);
        int n = 0;
        while (log.hasRoom()) {
            log.recordData(1, 0, n, 0, 1, n);
            n++;
        }
        assertThat(n).isEqualTo(64);
        log.settle(0);
        assertThat(log.hasRoom()).isTrue();
    }

    @Test
    void sequencesWrapAroundTheIntegerRange() {
        RailSendLog log = new RailSendLog();
        log.reset(64);
        for (int i = 0; i < 10; i++) {
            log.recordControl();
        }
        assertThat(log.isData(5)).isFalse();
        assertThat(log.isData(100)).isFalse();
    }
}
