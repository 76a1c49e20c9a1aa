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
}
