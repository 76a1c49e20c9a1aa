package io.xdlink.rails.engine;

import java.util.Arrays;

/**
 * What a rail has sent and not yet settled, by rail sequence: for each data frame, which bytes of which message it
 * carried and when it left, so a loss can be sent again (on any rail) without keeping the frame itself. Control
 * frames take a sequence but are settled the moment they leave: what they said is said again when needed. Arrays,
 * not objects: nothing is allocated per frame.
 */
final class RailSendLog {
    private static final byte FREE = 0;
    private static final byte DATA = 1;

    private byte[] kind = new byte[0];
    private int[] qpn = new int[0];
    private int[] msn = new int[0];
    private int[] psn = new int[0];
    private int[] offset = new int[0];
    private int[] length = new int[0];
    private long[] sentAt = new long[0];
    private int mask = -1;

    /** Oldest sequence not yet settled (every one below is). */
    private int low;
    /** Next sequence to be recorded. */
    private int high;
    private int unsettled;
    private long unsettledBytes;
    private long lastSettledSentAt = Long.MIN_VALUE;
    private long lastSettledBytes;

    /**
     * Empties the log for a new epoch whose sequence starts at 0 and whose window is {@code window} frames. It holds
     * two windows: settling can lag the credit position (acknowledgements lost while credit updates got through).
     */
    void reset(int window) {
        int capacity = Integer.highestOneBit(Math.max(2, 2 * window - 1)) << 1;
        if (kind.length != capacity) {
            kind = new byte[capacity];
            qpn = new int[capacity];
            msn = new int[capacity];
            psn = new int[capacity];
            offset = new int[capacity];
            length = new int[capacity];
            sentAt = new long[capacity];
            mask = capacity - 1;
        } else {
            Arrays.fill(kind, FREE);
        }
        low = 0;
        high = 0;
        unsettled = 0;
        unsettledBytes = 0;
    }

    int capacity() {
        return kind.length;
    }

    /** True when one more frame can be recorded. */
    boolean hasRoom() {
        return high - low < kind.length;
    }

    /** Frames that can be recorded before the log is full. */
    int room() {
        return kind.length - (high - low);
    }

    /** Records a data frame sent with sequence {@link #high()}. */
    void recordData(int qp, int m, int p, long off, int len, long now) {
        int i = high & mask;
        kind[i] = DATA;
        qpn[i] = qp;
        msn[i] = m;
        psn[i] = p;
        offset[i] = (int) off;
        length[i] = len;
        sentAt[i] = now;
        high++;
        unsettled++;
        unsettledBytes += len;
    }

    /**
     * Records {@code n} data frames of one request sent with sequences from {@link #high()} on, as {@code n} calls of
     * {@link #recordData} would: frame {@code i} is packet {@code p + i} at offset {@code off + i * stride}, as long
     * as the request's {@code total} bytes allow.
     *
     * @return the payload bytes of the frames
     */
    long recordDataRun(int qp, int m, int p, long off, int stride, long total, int n, long now) {
        long bytes = 0;
        for (int k = 0; k < n; k++) {
            int i = (high + k) & mask;
            long at = off + (long) k * stride;
            int len = (int) Math.min(stride, total - at);
            kind[i] = DATA;
            qpn[i] = qp;
            msn[i] = m;
            psn[i] = p + k;
            offset[i] = (int) at;
            length[i] = len;
            sentAt[i] = now;
            bytes += len;
        }
        high += n;
        unsettled += n;
        unsettledBytes += bytes;
        return bytes;
    }

    /** Records a control frame sent with sequence {@link #high()}: settled at once. */
    void recordControl() {
        kind[high & mask] = FREE;
        high++;
        advanceLow();
    }

    int high() {
        return high;
    }

    int low() {
        return low;
    }

    int unsettled() {
        return unsettled;
    }

    long unsettledBytes() {
        return unsettledBytes;
    }

    boolean isData(int seq) {
        return seq - low >= 0 && seq - high < 0 && kind[seq & mask] == DATA;
    }

    int qpn(int seq) {
        return qpn[seq & mask];
    }

    int msn(int seq) {
        return msn[seq & mask];
    }

    int psn(int seq) {
        return psn[seq & mask];
    }

    long offset(int seq) {
        return Integer.toUnsignedLong(offset[seq & mask]);
    }

    int length(int seq) {
        return length[seq & mask];
    }

    long sentAt(int seq) {
        return sentAt[seq & mask];
    }

    /** When the oldest unsettled frame left, or {@link Long#MAX_VALUE} when none is unsettled. */
    long oldestSentAt() {
        return unsettled == 0 ? Long.MAX_VALUE : sentAt[low & mask];
    }

    /** Marks a data frame settled (delivered, or lost and handed back for resending). */
    void settle(int seq) {
        int i = seq & mask;
        if (kind[i] == DATA && seq - low >= 0 && seq - high < 0) {
            kind[i] = FREE;
            unsettled--;
            unsettledBytes -= length[i];
            if (seq == low) {
                advanceLow();
            }
        }
    }

    /**
     * Settles every frame below {@code position} at once, for a rail whose peer has seen them all; returns how many
     * data frames that settled. {@link #lastSettledBytes()} and {@link #lastSettledSentAt()} then say how many bytes
     * they carried and when the newest of them left.
     */
    int settleBelow(int position) {
        lastSettledBytes = 0;
        if (position - low <= 0 || position - high > 0) {
            return 0;
        }
        long bytes = 0;
        int frames = 0;
        for (int s = low; s != position; s++) {
            int i = s & mask;
            if (kind[i] == DATA) {
                kind[i] = FREE;
                bytes += length[i];
                frames++;
                lastSettledSentAt = sentAt[i];
            }
        }
        unsettled -= frames;
        unsettledBytes -= bytes;
        lastSettledBytes = bytes;
        low = position;
        advanceLow();
        return frames;
    }

    /** Payload bytes of the frames the last {@link #settleBelow} settled. */
    long lastSettledBytes() {
        return lastSettledBytes;
    }

    /** When the newest frame the last {@link #settleBelow} settled left. */
    long lastSettledSentAt() {
        return lastSettledSentAt;
    }

    private void advanceLow() {
        while (low != high && kind[low & mask] == FREE) {
            low++;
        }
    }
}
