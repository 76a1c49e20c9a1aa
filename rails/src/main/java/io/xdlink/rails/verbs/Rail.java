package io.xdlink.rails.verbs;

import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.frame.FrameFlags;
import io.xdlink.rails.frame.FrameView;
import io.xdlink.rails.frame.Opcode;

import java.util.ArrayDeque;
import java.util.UUID;

/**
 * One rail's reliability: its sequence and credits in both directions, what it has sent and not settled, its
 * timers, and its handshake. Engine thread only.
 *
 * <p>Sending: a sequenced frame may go while its sequence is below the peer's credit position less what is
 * reserved (data stops {@code controlReserve + UNSEQUENCED_BUDGET} short of it, control frames
 * {@code UNSEQUENCED_BUDGET} short), and at most {@link #UNSEQUENCED_BUDGET} unsequenced frames are unconfirmed by
 * the peer's echo; so the peer's ring, of the window it announced, can never overflow. Receiving: the position is
 * one past the highest sequence seen, gaps included, so a lost frame refunds its own credit; a 64-bit map says
 * which of the last 64 sequences arrived, and the coalesced ACK carries both. A frame unsettled past the reorder
 * threshold in that map, or past the retransmission timeout, is lost: its bytes are queued again, on whichever rail
 * of the pool sends next, under a new sequence.
 */
final class Rail {
    enum State { HANDSHAKE, UP, DOWN, CLOSED }

    /** Unsequenced frames (CREDIT) that may be unconfirmed at once. */
    static final int UNSEQUENCED_BUDGET = 4;
    /** A frame this far below the newest one seen, and not seen itself, is lost rather than late. */
    static final int REORDER_THRESHOLD = 3;
    private static final int MAX_BACKOFF = 6;
    private static final int NEW = 0;
    private static final int LATE = 1;
    private static final int DUPLICATE = 2;
    private static final int OUT_OF_WINDOW = 3;

    final DeviceEngine engine;
    final RailTransport transport;
    final RailInfo info;
    final int number;
    final int window;
    final boolean payloadChecked;
    /** Frames can be lost (the transport says so): only then do timeouts and gaps declare frames lost. */
    final boolean lossy;
    /** Whether frames received on this rail have their CRC checked (not on a transport that delivers intact). */
    final boolean checksCrc;
    /** The transport carries payloads by reference: data frames are offered in two parts, payload uncopied. */
    final boolean byReference;
    final RailSendLog log = new RailSendLog();
    final ArrayDeque<Block> blocks = new ArrayDeque<>();
    long queuedBytes;

    PeerPool pool;
    UUID peer;
    int peerNumber;
    State state = State.HANDSHAKE;
    int epoch;
    int proposed;

    private int nextSeq;
    private int peerCredit;
    private int peerWindow;
    private int controlReserve;
    private int ackedPosition;
    private int unseqSent;
    private int unseqConfirmed;
    private long lastUnseqAt;
    private int rtoBackoff;
    private long srtt;
    private long rttvar;
    private long lastProgressAt;
    private int probeBackoff;
    private long lastProbeAt;

    private int rxPosition;
    private long rxMap;
    private int advertised;
    private int unseqReceived;
    private long staleSince = Long.MAX_VALUE;

    private boolean creditReplyDue;
    private boolean creditLazyDue;
    private boolean probeDue;
    private boolean helloReplyDue;
    private long lastHelloAt = Long.MIN_VALUE;

    long framesSent;
    long framesReceived;
    long dataFramesSent;
    long dataFramesReceived;
    long lostFrames;
    long duplicateFrames;
    long failovers;
    long rejoins;

    Rail(DeviceEngine engine, RailTransport transport, int number, int initialEpoch) {
        this.engine = engine;
        this.transport = transport;
        this.info = transport.info();
        this.number = number;
        RailsSettings s = engine.settings;
        this.window = s.railWindowFrames();
        this.payloadChecked = switch (s.frameCrc()) {
            case "full" -> true;
            case "header" -> false;
            default -> info.lossy();
        };
        this.lossy = info.lossy();
        // A transport that hands frames over intact cannot have damaged one: recomputing each frame's CRC would
        // only cost time, unless the CRC was asked for in full.
        this.checksCrc = !transport.deliversIntact() || "full".equals(s.frameCrc());
        this.byReference = transport.carriesPayloadByReference();
        this.epoch = initialEpoch & 0xFF;
        this.proposed = this.epoch;
    }

    boolean isUp() {
        return state == State.UP;
    }

    /** Credits left: sequences the peer's ring still has room for. */
    int credits() {
        return peerCredit - nextSeq;
    }

    int peerWindow() {
        return peerWindow;
    }

    boolean canSendData() {
        return state == State.UP && credits() > controlReserve + UNSEQUENCED_BUDGET && log.hasRoom();
    }

    /** Data frames {@link #canSendData()} would let go one after another now. */
    int dataRoom() {
        if (state != State.UP) {
            return 0;
        }
        return Math.max(0, Math.min(credits() - controlReserve - UNSEQUENCED_BUDGET, log.room()));
    }

    boolean canSendControl() {
        return state == State.UP && credits() > UNSEQUENCED_BUDGET && log.hasRoom();
    }

    private boolean canSendUnsequenced(long now) {
        if (unseqSent - unseqConfirmed < UNSEQUENCED_BUDGET) {
            return true;
        }
        // Unconfirmed for a quarter of the rail timeout: lost, or stuck in a ring nobody polls. Written off.
        if (now - lastUnseqAt >= engine.settings.railTimeoutNanos() / 4) {
            unseqConfirmed = unseqSent;
            return true;
        }
        return false;
    }

    /** The peer's advertised position is behind what this rail has sent. */
    private boolean lagging() {
        return nextSeq - (peerCredit - peerWindow) > 0;
    }

    // ---------------------------------------------------------------- receiving

    /** Every frame of the current epoch: the credit and echo in its header. */
    void onHeader(FrameView v, long now) {
        onHeader(v.credit(), v.echo(), now);
    }

    /** As {@link #onHeader(FrameView, long)}, given the header's credit and echo. */
    void onHeader(int credit, int echo, long now) {
        framesReceived++;
        raiseCredit(credit, now);
        int outstanding = (unseqSent - echo) & 0xFFFF;
        if (outstanding < unseqSent - unseqConfirmed) {
            unseqConfirmed = unseqSent - outstanding;
        }
    }

    private void raiseCredit(int credit, long now) {
        if (credit - peerCredit > 0 && credit - (nextSeq + peerWindow) <= 0) {
            peerCredit = credit;
            lastProgressAt = now;
            probeBackoff = 0;
        }
    }

    /** Whether {@code seq} is the very sequence this rail expects next (so {@link #acceptSequenced} takes it). */
    boolean expectsNext(int seq) {
        return seq == rxPosition && window > 0;
    }

    /**
     * Books a sequenced frame's arrival.
     *
     * @return true when its content is to be processed (new, or late but not seen), false for a duplicate of a
     *         frame already seen or a sequence the peer had no credit for
     */
    boolean acceptSequenced(int seq, long now) {
        int verdict = book(seq);
        if (verdict == DUPLICATE || verdict == OUT_OF_WINDOW) {
            duplicateFrames++;
            return false;
        }
        noteStale(now);
        return true;
    }

    /**
     * Books {@code n} sequenced frames that came in order from the very sequence expected next, as {@code n} calls
     * of {@link #acceptSequenced} would: each is new.
     */
    void acceptRun(int n, long now) {
        rxMap = n >= 64 ? -1L : (rxMap << n) | ((1L << n) - 1);
        rxPosition += n;
        noteStale(now);
    }

    private int book(int seq) {
        int d = seq - rxPosition;
        if (d >= 0) {
            if (d >= window) {
                return OUT_OF_WINDOW;
            }
            rxMap = d >= 63 ? 1 : (rxMap << (d + 1)) | 1;
            rxPosition = seq + 1;
            return NEW;
        }
        int k = -d - 1;
        if (k < 64) {
            long bit = 1L << k;
            if ((rxMap & bit) != 0) {
                return DUPLICATE;
            }
            rxMap |= bit;
        }
        return LATE;
    }

    /**
     * This side consumed sequences it has not advertised yet. Frames it sends on the rail, and ACKs on any rail,
     * carry the new position; only if none goes out for a retransmission timeout does a CREDIT carry it, so the
     * peer's view is exact once traffic stops. (Only sequenced frames make a position stale: the CREDIT that
     * answers cannot make the peer's stale in turn.)
     */
    private void noteStale(long now) {
        if (staleSince == Long.MAX_VALUE) {
            staleSince = now;
            engine.armTimer(now + engine.settings.retransmitNanos());
        }
        if (rxPosition - advertised >= window / 2) {
            creditLazyDue = true;
        }
    }

    /** A CREDIT: the peer's unsequenced count, its next sequence (a lost tail is refunded), maybe a probe. */
    void onCredit(FrameView v, long now) {
        int id = v.seq();
        if (id - unseqReceived > 0) {
            unseqReceived = id;
        }
        int next = v.nextSeq();
        int d = next - rxPosition;
        if (d > 0 && d <= window) {
            rxMap = d >= 64 ? 0 : rxMap << d;
            rxPosition = next;
            noteStale(now);
        }
        if (v.hasFlag(FrameFlags.ACK_REQUEST)) {
            creditReplyDue = true;
        }
    }

    /** One line of an ACK about this rail: settle what arrived, lose what did not. */
    void onAckEntry(int ackEpoch, int position, int credit, long map, long now) {
        if (state != State.UP || ackEpoch != epoch || position - nextSeq > 0) {
            return;
        }
        raiseCredit(credit, now);
        if (position - ackedPosition < 0) {
            return;
        }
        ackedPosition = position;
        if (!lossy && seenAll(position - log.low(), map)) {
            // The common case on a rail that neither loses nor reorders: everything below the position arrived,
            // settled in one pass over the log.
            if (log.settleBelow(position) > 0) {
                engine.deliveredBytes(log.lastSettledBytes());
                sampleRtt(now - log.lastSettledSentAt());
                rtoBackoff = 0;
                lastProgressAt = now;
            }
            return;
        }
        boolean settled = false;
        long newestSentAt = Long.MIN_VALUE;
        for (int s = log.low(); s - position < 0; s++) {
            if (!log.isData(s)) {
                continue;
            }
            int k = position - 1 - s;
            if ((k < 64 && ((map >>> k) & 1) != 0) || (!lossy && k >= 64)) {
                // Seen by the peer; on a rail that cannot lose, whatever lies below the map arrived too.
                newestSentAt = log.sentAt(s);
                engine.delivered(this, s);
                settled = true;
            } else if (lossy && k >= REORDER_THRESHOLD) {
                lose(s);
                settled = true;
            }
        }
        if (newestSentAt != Long.MIN_VALUE) {
            sampleRtt(now - newestSentAt);
        }
        if (settled) {
            rtoBackoff = 0;
            lastProgressAt = now;
        }
    }

    /** True when the map says the peer saw each of the {@code span} sequences below the position it acknowledged. */
    private static boolean seenAll(int span, long map) {
        if (span <= 0) {
            return span == 0;
        }
        long need = span >= 64 ? -1L : (1L << span) - 1;
        return (map & need) == need;
    }

    /** Smoothed round trip and its variation, as TCP keeps them (RFC 6298); every sequence is sent once. */
    private void sampleRtt(long rtt) {
        if (srtt == 0) {
            srtt = Math.max(1, rtt);
            rttvar = rtt / 2;
        } else {
            rttvar = (3 * rttvar + Math.abs(srtt - rtt)) / 4;
            srtt = Math.max(1, (7 * srtt + rtt) / 8);
        }
    }

    /**
     * The retransmission timeout: the parameter, or the smoothed round trip plus four variations when the rail is
     * slower than that (a loaded host, a long cable), so a late ACK is not taken for a loss.
     */
    long rto() {
        return Math.max(engine.settings.retransmitNanos(), srtt + 4 * rttvar);
    }

    private void lose(int seq) {
        lostFrames++;
        pool.retransmit.add(log.qpn(seq), log.msn(seq), log.psn(seq), log.offset(seq), log.length(seq), false);
        engine.settled(this, seq);
    }

    /** A HELLO: agree on an epoch and (re)start the rail, or answer a peer that missed our answer. */
    void onHello(FrameView v, long now) {
        framesReceived++;
        int e = v.epoch();
        UUID device = v.helloDevice();
        if (v.hasFlag(FrameFlags.REPLY)) {
            if (state != State.UP && e == proposed && device.equals(peerOr(device))) {
                establish(e, v, now);
            }
            return;
        }
        if (state == State.UP && e == epoch && device.equals(peer)) {
            helloReplyDue = true;
            return;
        }
        if (state != State.UP && e != proposed && engine.id.compareTo(device) < 0) {
            return; // both sides are proposing: the smaller identity's epoch wins, and ours is it
        }
        establish(e, v, now);
        helloReplyDue = true;
    }

    private UUID peerOr(UUID other) {
        return peer == null ? other : peer;
    }

    private void establish(int e, FrameView v, long now) {
        if (state == State.UP) {
            releaseAll();
        }
        UUID device = v.helloDevice();
        if (peer != null && !peer.equals(device)) {
            engine.detach(this);
        }
        peer = device;
        peerNumber = v.helloRail();
        peerWindow = v.helloWindow();
        controlReserve = engine.settings.controlReserveFor(peerWindow);
        epoch = e;
        proposed = e;
        nextSeq = 0;
        peerCredit = peerWindow;
        ackedPosition = 0;
        log.reset(peerWindow);
        rxPosition = 0;
        rxMap = 0;
        advertised = 0;
        staleSince = Long.MAX_VALUE;
        rtoBackoff = 0;
        probeBackoff = 0;
        lastProgressAt = now;
        creditLazyDue = false;
        probeDue = false;
        boolean wasDown = state == State.DOWN;
        state = State.UP;
        if (wasDown) {
            rejoins++;
        }
        engine.railUp(this, device);
    }

    /** Hands every unsettled data frame and every queued block back to the pool, to go on other rails. */
    private void releaseAll() {
        for (int s = log.low(); s != log.high(); s++) {
            if (log.isData(s)) {
                lose(s);
            }
        }
        if (pool != null) {
            pool.takeBlocks(this);
        }
    }

    /** Stops using the rail: failed over now, probed with HELLO until it answers ({@code DOWN}), or gone. */
    void fail(State to) {
        if (state == State.CLOSED) {
            return;
        }
        boolean wasUp = state == State.UP;
        // Out of the pool first, so what it hands back goes to the other rails, not to itself.
        state = to;
        if (wasUp && pool != null) {
            pool.railDown(this);
        }
        releaseAll();
        if (wasUp) {
            failovers++;
        }
        proposed = (epoch + 1) & 0xFF;
        lastHelloAt = Long.MIN_VALUE;
        creditReplyDue = creditLazyDue = probeDue = helloReplyDue = false;
    }

    // ---------------------------------------------------------------- timers

    /** The engine was not running for {@code gap}: that time does not count as the peer's silence. */
    void paused(long gap) {
        lastProgressAt += gap;
        lastProbeAt += gap;
    }

    /** Runs what is due and returns when this rail next needs the clock. */
    long onTimer(long now) {
        RailsSettings s = engine.settings;
        if (state == State.CLOSED) {
            return Long.MAX_VALUE;
        }
        if (state != State.UP) {
            long due = lastHelloAt == Long.MIN_VALUE ? now : lastHelloAt + helloInterval();
            return Math.max(due, now + 1);
        }
        long next = Long.MAX_VALUE;
        long base = rto();
        if (lossy && log.unsettled() > 0) {
            long rto = base << Math.min(rtoBackoff, MAX_BACKOFF);
            if (now - log.oldestSentAt() >= rto) {
                long cutoff = now - rto;
                for (int q = log.low(); q != log.high() && log.sentAt(q) <= cutoff; q++) {
                    if (log.isData(q)) {
                        lose(q);
                    }
                }
                rtoBackoff++;
                probeDue = true;
            }
            if (log.unsettled() > 0) {
                next = Math.min(next, log.oldestSentAt() + (base << Math.min(rtoBackoff, MAX_BACKOFF)));
            }
        }
        if (lagging()) {
            if (now - lastProgressAt >= s.railTimeoutNanos()) {
                engine.railSilent(this);
                return now + 1;
            }
            long due = Math.max(lastProgressAt, lastProbeAt) + (base << Math.min(probeBackoff, MAX_BACKOFF));
            if (now >= due) {
                probeDue = true;
                lastProbeAt = now;
                probeBackoff++;
                due = now + (base << Math.min(probeBackoff, MAX_BACKOFF));
            }
            next = Math.min(next, Math.min(due, lastProgressAt + s.railTimeoutNanos()));
        }
        if (staleSince != Long.MAX_VALUE) {
            long due = staleSince + base;
            if (now >= due) {
                creditLazyDue = true;
            } else {
                next = Math.min(next, due);
            }
        }
        return next;
    }

    private long helloInterval() {
        RailsSettings s = engine.settings;
        return Math.max(1, Math.min(s.railTimeoutNanos(), 4 * rto()));
    }

    // ---------------------------------------------------------------- sending

    private void common(FrameOut out, int frameEpoch, int seq, int credit) {
        out.epoch = frameEpoch;
        out.seq = seq;
        out.credit = credit;
        out.echo = unseqReceived & 0xFFFF;
    }

    private boolean offer(FrameOut out, long now) {
        boolean ok;
        try {
            if (byReference && out.op.isData() && out.payloadLength > 0 && out.source != null) {
                out.split = true;
                ok = transport.offer(out.headLength(), out, out.source, out.sourceOffset, out.payloadLength);
            } else {
                ok = transport.offer(out.length(), out);
            }
        } catch (RailClosedException e) {
            engine.railClosed(this, e);
            return false;
        }
        if (ok) {
            offered(1);
        }
        return ok;
    }

    /** Frames just went out: each carried this rail's receive position, so no credit update is owed. */
    private void offered(int frames) {
        framesSent += frames;
        if (state == State.UP) {
            advertised = rxPosition;
            staleSince = Long.MAX_VALUE;
            creditLazyDue = false;
        }
    }

    /** Sends the data frame {@code out} describes; the caller checked {@link #canSendData()}. */
    boolean sendData(FrameOut out, long now) {
        if (!payloadChecked) {
            out.flags |= FrameFlags.PAYLOAD_UNCHECKED;
        }
        common(out, epoch, nextSeq, rxPosition + window);
        boolean wasIdle = !lagging() && log.unsettled() == 0;
        if (!offer(out, now)) {
            return false;
        }
        if (wasIdle) {
            lastProgressAt = now;
        }
        log.recordData(out.localQpn, out.msn, out.psn, out.offset, out.payloadLength, now);
        nextSeq++;
        dataFramesSent++;
        engine.sentData(this, out.payloadLength, now);
        return true;
    }

    /**
     * Sends up to {@code count} data frames of one request as a run, in one offer to the transport: frame 0 is the
     * one {@code out} describes (as for {@link #sendData}), the others follow it {@code stride} payload bytes apart,
     * and frame {@code ackAt} asks for an acknowledgement. Each frame is booked as {@link #sendData} books one. The
     * caller checked {@link #dataRoom()} and that this rail carries payloads by reference; {@code out} is left
     * describing the last frame sent.
     *
     * @return frames sent
     */
    int sendDataRun(FrameOut out, int count, int stride, int ackAt, long now) {
        if (!payloadChecked) {
            out.flags |= FrameFlags.PAYLOAD_UNCHECKED;
        }
        common(out, epoch, nextSeq, rxPosition + window);
        out.beginRun(stride, ackAt);
        boolean wasIdle = !lagging() && log.unsettled() == 0;
        int sent;
        try {
            sent = transport.offerRun(out.headLength(), out, out.source, count);
        } catch (RailClosedException e) {
            // Frames it took before failing are covered still by their block, which the closing hands on.
            engine.railClosed(this, e);
            return 0;
        }
        if (sent == 0) {
            return 0;
        }
        offered(sent);
        if (wasIdle) {
            lastProgressAt = now;
        }
        out.frame(0);
        long bytes = log.recordDataRun(out.localQpn, out.msn, out.psn, out.offset, stride, out.total, sent, now);
        out.frame(sent - 1);
        nextSeq += sent;
        dataFramesSent += sent;
        engine.sentData(this, sent, bytes, now);
        return sent;
    }

    /** Sends the sequenced control frame {@code out} describes; the caller checked {@link #canSendControl()}. */
    boolean sendControl(FrameOut out, long now) {
        common(out, epoch, nextSeq, rxPosition + window);
        boolean wasIdle = !lagging() && log.unsettled() == 0;
        if (!offer(out, now)) {
            return false;
        }
        if (wasIdle) {
            lastProgressAt = now;
            engine.armTimer(now + engine.settings.retransmitNanos());
        }
        log.recordControl();
        nextSeq++;
        return true;
    }

    /** Sends a HELLO or a CREDIT when one is due; returns 1 when it sent. */
    int sendDueUnsequenced(FrameOut out, long now) {
        if (state == State.CLOSED) {
            return 0;
        }
        if (state != State.UP || helloReplyDue) {
            return sendHelloIfDue(out, now);
        }
        if (!(creditReplyDue || creditLazyDue || probeDue) || !canSendUnsequenced(now)) {
            return 0;
        }
        boolean probe = probeDue && lagging();
        out.begin(Opcode.CREDIT, probe ? FrameFlags.ACK_REQUEST : 0, 0);
        out.nextSeq = nextSeq;
        common(out, epoch, unseqSent + 1, rxPosition + window);
        if (!offer(out, now)) {
            return 0;
        }
        unseqSent++;
        lastUnseqAt = now;
        creditReplyDue = false;
        probeDue = false;
        return 1;
    }

    private int sendHelloIfDue(FrameOut out, long now) {
        boolean reply = helloReplyDue && state == State.UP;
        if (!reply && (state == State.UP || (lastHelloAt != Long.MIN_VALUE && now - lastHelloAt < helloInterval()))) {
            return 0;
        }
        out.begin(Opcode.HELLO, reply ? FrameFlags.REPLY : 0, 0);
        out.helloDevice = engine.id;
        out.helloRail = number;
        out.helloFrameBytes = engine.settings.frameBytes();
        out.helloWindow = window;
        common(out, reply ? epoch : proposed, unseqSent + 1, window);
        if (!offer(out, now)) {
            return 0;
        }
        unseqSent++;
        if (reply) {
            helloReplyDue = false;
        } else {
            lastHelloAt = now;
            engine.armTimer(now + helloInterval());
        }
        return 1;
    }

    /** Any part of the duty cycle wants this rail to send an unsequenced frame now. */
    boolean wantsUnsequenced() {
        return helloReplyDue || creditReplyDue || creditLazyDue || probeDue || state == State.HANDSHAKE
                || state == State.DOWN;
    }

    // ---------------------------------------------------------------- ACK contents

    int rxPosition() {
        return rxPosition;
    }

    long rxMap() {
        return rxMap;
    }

    /** After an ACK carried this rail's position and credit. */
    void advertisedInAck() {
        advertised = rxPosition;
        staleSince = Long.MAX_VALUE;
        creditLazyDue = false;
    }

    RailStats stats() {
        return new RailStats(number, info.name(), info.linkId(), state.name(), epoch, credits(), peerWindow,
                framesSent, framesReceived, dataFramesSent, dataFramesReceived, lostFrames, duplicateFrames,
                failovers, rejoins, log.unsettled());
    }

    @Override
    public String toString() {
        return "Rail[" + number + " " + info.name() + " " + state + " epoch " + epoch + "]";
    }
}
