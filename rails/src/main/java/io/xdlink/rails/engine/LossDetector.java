package io.xdlink.rails.engine;

/**
 * Which of a rail's unsettled frames the peer saw and which it lost. An ACK line settles what its map says arrived
 * (on a rail that cannot lose, everything below its position) and, on a lossy rail, loses a frame unseen
 * {@link Rail#REORDER_THRESHOLD} or more below the position; a frame unsettled past the backed-off retransmission
 * timeout is lost too. A lost frame's bytes go back to the engine ({@link RailEvents#dataLost}), to be sent again on
 * whichever rail of the pool sends next, under a new sequence. Each settled frame gives the {@link RttEstimator} a
 * sample. Engine thread only.
 */
final class LossDetector {
    private static final int MAX_BACKOFF = 6;

    private final Rail rail;
    private final RailSendLog log;
    private final RttEstimator rtt;
    private final RailEvents events;
    /** Timeouts in a row without progress: each doubles the retransmission timeout, up to a limit. */
    private int backoff;
    private long lostFrames;

    /** Watches {@code rail}'s log, samples into {@code rtt}, and hands lost frames to {@code events}. */
    LossDetector(Rail rail, RttEstimator rtt, RailEvents events) {
        this.log = rail.log;
        this.rail = rail;
        this.events = events;
        this.rtt = rtt;
    }

    /** {@code base} doubled {@code times} times, at most {@value #MAX_BACKOFF}: a timeout backed off. */
    static long backedOff(long base, int times) {
        return base << Math.min(times, MAX_BACKOFF);
    }

    /**
     * The peer saw the sequences its ACK line's {@code map} marks below {@code position}: settles them, loses what
     * it skipped. Returns true when that settled or lost anything (progress: the backoff starts over).
     */
    boolean onAck(int position, long map, long now) {
        if (!rail.lossy && seenAll(position - log.low(), map)) {
            // The common case on a rail that neither loses nor reorders: everything below the position arrived,
            // settled in one pass over the log.
            if (log.settleBelow(position) > 0) {
                events.dataSettled(log.lastSettledBytes());
                rtt.sample(now - log.lastSettledSentAt());
                backoff = 0;
                return true;
            }
            return false;
        }
        boolean settled = false;
        long newestSentAt = Long.MIN_VALUE;
        for (int s = log.low(); s - position < 0; s++) {
            if (!log.isData(s)) {
                continue;
            }
            int k = position - 1 - s;
            if ((k < 64 && ((map >>> k) & 1) != 0) || (!rail.lossy && k >= 64)) {
                // Seen by the peer; on a rail that cannot lose, whatever lies below the map arrived too.
                newestSentAt = log.sentAt(s);
                long bytes = log.length(s);
                log.settle(s);
                events.dataSettled(bytes);
                settled = true;
            } else if (rail.lossy && k >= Rail.REORDER_THRESHOLD) {
                lose(s);
                settled = true;
            }
        }
        if (newestSentAt != Long.MIN_VALUE) {
            rtt.sample(now - newestSentAt);
        }
        if (settled) {
            backoff = 0;
        }
        return settled;
    }

    /** True when the map says the peer saw each of the {@code span} sequences below the position it acknowledged. */
    private static boolean seenAll(int span, long map) {
        if (span <= 0) {
            return span == 0;
        }
        long need = span >= 64 ? -1L : (1L << span) - 1;
        return (map & need) == need;
    }

    /**
     * Loses every frame sent longer ago than the retransmission timeout ({@code base}, backed off) and backs off
     * once more; returns true when the oldest had waited that long.
     */
    boolean expire(long now, long base) {
        long rto = backedOff(base, backoff);
        if (now - log.oldestSentAt() < rto) {
            return false;
        }
        long cutoff = now - rto;
        for (int q = log.low(); q != log.high() && log.sentAt(q) <= cutoff; q++) {
            if (log.isData(q)) {
                lose(q);
            }
        }
        backoff++;
        return true;
    }

    /** When the oldest unsettled frame times out, for a retransmission timeout of {@code base}. */
    long nextExpiry(long base) {
        return log.oldestSentAt() + backedOff(base, backoff);
    }

    /** Loses every unsettled data frame: the rail fails over or starts a new epoch. */
    void loseAll() {
        for (int s = log.low(); s != log.high(); s++) {
            if (log.isData(s)) {
                lose(s);
            }
        }
    }

    /** A new epoch: no backoff. */
    void reset() {
        backoff = 0;
    }

    long lostFrames() {
        return lostFrames;
    }

    private void lose(int seq) {
        lostFrames++;
        int qpn = log.qpn(seq);
        int msn = log.msn(seq);
        int psn = log.psn(seq);
        long offset = log.offset(seq);
        int length = log.length(seq);
        log.settle(seq);
        events.dataLost(rail, qpn, msn, psn, offset, length);
    }
}
