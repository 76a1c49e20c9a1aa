package io.xdlink.rails.engine;

import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.inmemory.InMemoryRailPair;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an ACK line and the retransmission timer make of a rail's unsettled frames, seen through the only way a rail
 * reports: its {@link RailEvents}.
 */
class LossDetectorTest {

    /** Records what the rail reports: settled bytes, and the packet sequence of each lost frame. */
    private static final class Recorded implements RailEvents {
        long settled;
        final List<Integer> lost = new ArrayList<>();

        @Override
        public void armTimer(long at) {
        }

        @Override
        public void dataSent(int frames, long bytes) {
        }

        @Override
        public void dataSettled(long bytes) {
            settled += bytes;
        }

        @Override
        public void dataLost(Rail rail, int qpn, int msn, int psn, long offset, int length) {
            lost.add(psn);
        }

        @Override
        public void up(Rail rail, UUID peer) {
        }

        @Override
        public void peerChanged(Rail rail) {
        }

        @Override
        public void down(Rail rail) {
        }

        @Override
        public void released(Rail rail) {
        }

        @Override
        public void closed(Rail rail, RailClosedException cause) {
        }
    }

    private final Recorded events = new Recorded();

    /** A detector over a rail whose log holds data frames 0..n-1 (packet sequence = rail sequence), 100 bytes each. */
    private LossDetector detector(boolean lossy, int n) {
        RailInfo info = new RailInfo("r", "c", LinkState.of(Generation.GEN3, 1), lossy);
        Rail rail = new Rail(events, RailsSettings.defaults(), new UUID(0, 1),
                InMemoryRailPair.create(info, 64).a(), 0, 0);
        rail.log.reset(64);
        for (int s = 0; s < n; s++) {
            rail.log.recordData(7, 1, s, s * 100L, 100, 1_000 + s);
        }
        return new LossDetector(rail, new RttEstimator(), events);
    }

    @Test
    void onARailThatCannotLoseEverythingBelowThePositionIsSettledInOnePass() {
        LossDetector d = detector(false, 10);
        assertThat(d.onAck(6, 0b11_1111L, 5_000)).isTrue();
        assertThat(events.settled).isEqualTo(600);
        assertThat(d.onAck(6, 0b11_1111L, 5_000)).as("nothing new").isFalse();
        assertThat(events.lost).isEmpty();
    }

    @Test
    void onALossyRailAFrameUnseenPastTheReorderThresholdIsLostAndACloserOneWaits() {
        LossDetector d = detector(true, 8);
        // Seen: 0, 1, 3, 4, 6, 7 (bit k is sequence 7 - k). Unseen 2 is at k = 5, past the reorder threshold:
        // lost. Unseen 5 is at k = 2, within it: it may only be late.
        long map = 0b1101_1011L;
        assertThat(d.onAck(8, map, 5_000)).isTrue();
        assertThat(events.lost).containsExactly(2);
        assertThat(events.settled).isEqualTo(600);
        assertThat(d.lostFrames()).isEqualTo(1);
        // The next line sees 5 after all.
        assertThat(d.onAck(8, 0b1111_1111L, 6_000)).isTrue();
        assertThat(events.settled).isEqualTo(700);
        assertThat(events.lost).containsExactly(2);
    }

    @Test
    void framesOlderThanTheBackedOffTimeoutAreLostAndTheTimeoutDoubles() {
        LossDetector d = detector(true, 3);
        long base = 10_000;
        assertThat(d.expire(1_000 + base - 1, base)).isFalse();
        assertThat(d.nextExpiry(base)).isEqualTo(1_000 + base);
        assertThat(d.expire(1_001 + base, base)).as("frames sent at 1000 and 1001").isTrue();
        assertThat(events.lost).containsExactly(0, 1);
        assertThat(d.nextExpiry(base)).as("backed off once").isEqualTo(1_002 + 2 * base);
        d.loseAll();
        assertThat(events.lost).containsExactly(0, 1, 2);
        d.reset();
        assertThat(LossDetector.backedOff(base, 99)).as("at most 2^6").isEqualTo(base << 6);
    }

    @Test
    void progressAndProbesAreWatchedWithBackoff() {
        ProgressWatch w = new ProgressWatch();
        w.restart(0);
        assertThat(w.silent(999, 1_000)).isFalse();
        assertThat(w.silent(1_000, 1_000)).isTrue();
        assertThat(w.probeDeadline(50, 100)).as("not yet").isEqualTo(100);
        assertThat(w.probeDue()).isFalse();
        assertThat(w.probeDeadline(100, 100)).as("probed, next after twice the base").isEqualTo(300);
        assertThat(w.probeDue()).isTrue();
        w.probeDone();
        w.creditRaised(150);
        assertThat(w.probeDeadline(200, 100)).as("progress starts the backoff over").isEqualTo(250);
        w.paused(500);
        assertThat(w.silentAt(1_000)).isEqualTo(150 + 500 + 1_000);
    }
}
