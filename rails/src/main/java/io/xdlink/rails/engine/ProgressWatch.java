package io.xdlink.rails.engine;

/**
 * Whether a rail still makes progress: when the peer last raised its credit or settled a frame, and the probes (a
 * CREDIT asking for an answer) sent while the peer's advertised position lags behind what was sent, backed off
 * from one retransmission timeout. A rail without progress for the rail timeout is silent, and fails over.
 * Engine thread only.
 */
final class ProgressWatch {
    private long lastProgressAt;
    private int probeBackoff;
    private long lastProbeAt;
    private boolean probeDue;

    /** The peer settled frames, or a frame went out on a rail with nothing unanswered. */
    void progressed(long now) {
        lastProgressAt = now;
    }

    /** The peer raised its credit: progress, and probes start over. */
    void creditRaised(long now) {
        lastProgressAt = now;
        probeBackoff = 0;
    }

    /** A new epoch: progress now, no probe owed. */
    void restart(long now) {
        probeBackoff = 0;
        lastProgressAt = now;
        probeDue = false;
    }

    /** The engine was not running for {@code gap}: that time does not count as the peer's silence. */
    void paused(long gap) {
        lastProgressAt += gap;
        lastProbeAt += gap;
    }

    /** No progress for {@code timeout}. */
    boolean silent(long now, long timeout) {
        return now - lastProgressAt >= timeout;
    }

    /** When silence for {@code timeout} would begin to count as the rail's failure. */
    long silentAt(long timeout) {
        return lastProgressAt + timeout;
    }

    /**
     * Owes a probe when one is due at {@code now} (probes back off from {@code base}); returns when the next is
     * due.
     */
    long probeDeadline(long now, long base) {
        long due = Math.max(lastProgressAt, lastProbeAt) + LossDetector.backedOff(base, probeBackoff);
        if (now >= due) {
            probeDue = true;
            lastProbeAt = now;
            probeBackoff++;
            due = now + LossDetector.backedOff(base, probeBackoff);
        }
        return due;
    }

    /** A probe is owed at once (frames timed out). */
    void probe() {
        probeDue = true;
    }

    boolean probeDue() {
        return probeDue;
    }

    /** The probe went, or is no longer owed. */
    void probeDone() {
        probeDue = false;
    }
}
