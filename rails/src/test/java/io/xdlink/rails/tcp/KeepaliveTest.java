package io.xdlink.rails.tcp;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeepaliveTest {
    static final long MS = 1_000_000;

    @Test
    void aQuietSessionBeatsOncePerIntervalAndAPeerSilentForTheTimeoutIsDead() {
        Keepalive k = new Keepalive(10 * MS, 100 * MS, 0);
        assertThat(k.heartbeatDue(9 * MS)).isFalse();
        assertThat(k.heartbeatDue(10 * MS)).isTrue();
        k.sent(10 * MS);
        assertThat(k.untilNextCheck(10 * MS)).isEqualTo(10 * MS);
        k.heard(50 * MS);
        assertThat(k.expired(149 * MS)).isFalse();
        assertThat(k.expired(150 * MS)).isTrue();
        assertThat(k.silentFor(150 * MS)).isEqualTo(100 * MS);
    }

    @Test
    void theNextCheckIsWhicheverFallsDueFirst() {
        Keepalive k = new Keepalive(10 * MS, 30 * MS, 0);
        k.sent(25 * MS);
        assertThat(k.untilNextCheck(25 * MS)).as("death at 30 before the beat at 35").isEqualTo(5 * MS);
        assertThat(k.untilNextCheck(40 * MS)).isZero();
    }

    @Test
    void aTimeoutNotLongerThanTheIntervalIsRefused() {
        assertThatThrownBy(() -> new Keepalive(10 * MS, 10 * MS, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0 < interval < timeout");
    }

    @Test
    void aDeadPeerIsFoundWithinTheTimeoutWhenCheckedAsScheduled() {
        // Drive the keepalive as the loop does, in virtual time: check at each untilNextCheck, never hear back.
        Keepalive k = new Keepalive(10 * MS, 100 * MS, 0);
        long now = 0;
        int beats = 0;
        while (!k.expired(now)) {
            if (k.heartbeatDue(now)) {
                k.sent(now);
                beats++;
            }
            now += Math.max(k.untilNextCheck(now), 1);
        }
        assertThat(now).isEqualTo(100 * MS);
        assertThat(beats).isEqualTo(9);
    }

    @Test
    void aLoopThatWasItselfStalledReadsTheSocketBeforeItBlamesThePeer() {
        Keepalive k = new Keepalive(10 * MS, 100 * MS, 0);
        k.heard(5 * MS);
        // The loop wakes at 400 ms from a stall of its own: the timeout is long gone, but only suspected.
        assertThat(k.dead(400 * MS)).isFalse();
        assertThat(k.untilNextCheck(400 * MS)).as("check again as soon as the socket was read").isZero();
        // The read finds the heartbeat the peer sent meanwhile: alive, and the suspicion is over.
        k.heard(400 * MS);
        assertThat(k.dead(400 * MS)).isFalse();
        assertThat(k.dead(499 * MS)).isFalse();
        // Real silence is still found: once suspected at the timeout, dead at the next check with nothing heard.
        assertThat(k.dead(500 * MS)).isFalse();
        assertThat(k.dead(500 * MS + 100_000)).isTrue();
    }

    @Test
    void aSuspicionEndsWhenTheTimeoutNoLongerHolds() {
        Keepalive k = new Keepalive(10 * MS, 100 * MS, 0);
        assertThat(k.dead(100 * MS)).isFalse();
        k.heard(101 * MS);
        assertThat(k.dead(150 * MS)).isFalse();
        // A new silence starts a new suspicion instead of inheriting the old one.
        assertThat(k.dead(201 * MS)).isFalse();
        assertThat(k.dead(202 * MS)).isTrue();
    }
}
