package io.xdlink.rails.engine;

import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.frame.FrameFlags;
import io.xdlink.rails.frame.FrameView;
import io.xdlink.rails.frame.Opcode;
import io.xdlink.rails.verbs.RailStats;

import java.util.ArrayDeque;
import java.util.UUID;

/**
 * One rail's reliability: its sequence and credits in both directions, what it has sent and not settled, its
 * timers, and its handshake. Engine thread only. The parts with one job each have rooms of their own: the
 * {@link ReceiveWindow}, the {@link Handshake}, the {@link RttEstimator}, the {@link SendCredit} the peer granted,
 * the {@link UnsequencedBudget}, the {@link RailSendLog}, the {@link LossDetector} that settles and loses what the
 * log holds, and the {@link ProgressWatch} that probes and judges silence. The rail reports to its engine only
 * through {@link RailEvents}.
 *
 * <p>Why it is still over 400 lines: what is left is the one place where those parts meet, and each of its
 * remaining methods moves several of them at once (a frame sent advances the credit, books the log, tells the
 * receive window its position went out and may count as progress; a HELLO agreed resets all of them; the timer
 * reads all of them). Split further, those methods would have to write one another's fields, which is what the
 * rooms are there to end.
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

    private final RailEvents events;
    private final RailsSettings settings;
    final RailTransport transport;
    final RailInfo info;
    final int number;
    final int window;
    final boolean payloadChecked;
    /** Frames can be lost (the transport says so): only then do timeouts and gaps declare frames lost. */
    final boolean lossy;
    /** Whether frames received on this rail have their CRC checked (not on a transport that delivers intact). */
    final boolean checksCrc;
    final RailSendLog log = new RailSendLog();
    final ArrayDeque<Block> blocks = new ArrayDeque<>();
    long queuedBytes;
    private final ReceiveWindow rx;
    private final Handshake hello;
    private final RttEstimator rtt = new RttEstimator();
    private final SendCredit credit = new SendCredit();
    private final UnsequencedBudget unseq = new UnsequencedBudget();
    private final ProgressWatch watch = new ProgressWatch();
    private final LossDetector loss;

    PeerPool pool;
    /**
     * When a poll of this rail last handed frames over (at first, when it was added), and when it was last polled;
     * engine thread only.
     */
    long lastFrameAt;
    long lastPolledAt;
    /** The run of this rail's frames being received ({@link FrameDispatch}); made at its first poll. */
    ReceiveRun receiveRun;
    State state = State.HANDSHAKE;

    private int ackedPosition;

    private boolean creditReplyDue;
    private boolean creditLazyDue;

    long framesSent;
    long framesReceived;
    long dataFramesSent;
    long dataFramesReceived;
    long duplicateFrames;
    long failovers;
    long rejoins;

    Rail(RailEvents events, RailsSettings s, UUID self, RailTransport transport, int number, int initialEpoch) {
        this.events = events;
        this.settings = s;
        this.transport = transport;
        this.info = transport.info();
        this.number = number;
        this.window = s.railWindowFrames();
        this.payloadChecked = switch (s.frameCrc()) {
            case "full" -> true;
            case "header" -> false;
            default -> info.lossy();
        };
        this.lossy = info.lossy();
        // A transport that hands frames over intact cannot have damaged one: recomputing each frame's CRC would
        // only cost time, unless the CRC was asked for in full.
        this.checksCrc = !info.intact() || "full".equals(s.frameCrc());
        this.rx = new ReceiveWindow(window);
        this.hello = new Handshake(self, initialEpoch);
        this.loss = new LossDetector(this, rtt, events);
    }

    boolean isUp() {
        return state == State.UP;
    }

    /** The epoch agreed in the handshake: every frame but a HELLO carries it. */
    int epoch() {
        return hello.epoch();
    }


    /** Credits left: sequences the peer's ring still has room for. */
    int credits() {
        return credit.credits();
    }

    boolean canSendData() {
        return state == State.UP && credit.allowsData() && log.hasRoom();
    }

    /** Data frames {@link #canSendData()} would let go one after another now. */
    int dataRoom() {
        if (state != State.UP) {
            return 0;
        }
        return Math.max(0, Math.min(credit.dataRoom(), log.room()));
    }

    boolean canSendControl() {
        return state == State.UP && credit.allowsControl() && log.hasRoom();
    }

    private boolean canSendUnsequenced(long now) {
        // Unconfirmed for a quarter of the rail timeout: lost, or stuck in a ring nobody polls. Written off.
        return unseq.allows(now, settings.railTimeoutNanos() / 4);
    }

    /** The peer's advertised position is behind what this rail has sent. */
    private boolean lagging() {
        return credit.lagging();
    }

    // ---------------------------------------------------------------- receiving

    /** Every frame of the current epoch: the credit and echo in its header. */
    void onHeader(FrameView v, long now) {
        onHeader(v.credit(), v.echo(), now);
    }

    /** As {@link #onHeader(FrameView, long)}, given the header's credit and echo. */
    void onHeader(int grant, int echo, long now) {
        framesReceived++;
        raiseCredit(grant, now);
        unseq.onEcho(echo);
    }

    private void raiseCredit(int grant, long now) {
        if (credit.raise(grant)) {
            watch.creditRaised(now);
        }
    }

    /** Whether {@code seq} is the very sequence this rail expects next (so {@link #acceptSequenced} takes it). */
    boolean expectsNext(int seq) {
        return rx.expectsNext(seq);
    }

    /**
     * Books a sequenced frame's arrival.
     *
     * @return true when its content is to be processed (new, or late but not seen), false for a duplicate of a
     *         frame already seen or a sequence the peer had no credit for
     */
    boolean acceptSequenced(int seq, long now) {
        int verdict = rx.book(seq);
        if (verdict == ReceiveWindow.DUPLICATE || verdict == ReceiveWindow.OUT_OF_WINDOW) {
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
        rx.acceptRun(n);
        noteStale(now);
    }

    /**
     * This side consumed sequences it has not advertised yet. Frames it sends on the rail, and ACKs on any rail,
     * carry the new position; only if none goes out for a retransmission timeout does a CREDIT carry it, so the
     * peer's view is exact once traffic stops. (Only sequenced frames make a position stale: the CREDIT that
     * answers cannot make the peer's stale in turn.)
     */
    private void noteStale(long now) {
        if (rx.markStale(now)) {
            events.armTimer(now + settings.retransmitNanos());
        }
        if (rx.halfUntold()) {
            creditLazyDue = true;
        }
    }

    /** A CREDIT: the peer's unsequenced count, its next sequence (a lost tail is refunded), maybe a probe. */
    void onCredit(FrameView v, long now) {
        unseq.onReceived(v.seq());
        if (rx.skipTo(v.nextSeq())) {
            noteStale(now);
        }
        if (v.hasFlag(FrameFlags.ACK_REQUEST)) {
            creditReplyDue = true;
        }
    }

    /** One line of an ACK about this rail: settle what arrived, lose what did not. */
    void onAckEntry(int ackEpoch, int position, int grant, long map, long now) {
        if (state != State.UP || ackEpoch != hello.epoch() || credit.beyondSent(position)) {
            return;
        }
        raiseCredit(grant, now);
        if (position - ackedPosition < 0) {
            return;
        }
        ackedPosition = position;
        if (loss.onAck(position, map, now)) {
            watch.progressed(now);
        }
    }

    /** The retransmission timeout: see {@link RttEstimator#rto}. */
    long rto() {
        return rtt.rto(settings.retransmitNanos());
    }

    /** A HELLO: agree on an epoch and (re)start the rail, or answer a peer that missed our answer. */
    void onHello(FrameView v, long now) {
        framesReceived++;
        if (hello.onHello(v.hasFlag(FrameFlags.REPLY), v.epoch(), v.helloDevice(), state == State.UP)) {
            establish(v.epoch(), v, now);
        }
    }

    private void establish(int e, FrameView v, long now) {
        if (state == State.UP) {
            releaseAll();
        }
        UUID device = v.helloDevice();
        if (hello.otherPeer(device)) {
            events.peerChanged(this);
        }
        hello.agree(e, device, v.helloRail());
        int peerWindow = v.helloWindow();
        credit.reset(peerWindow, settings.controlReserveFor(peerWindow));
        ackedPosition = 0;
        log.reset(peerWindow);
        rx.reset();
        loss.reset();
        watch.restart(now);
        creditLazyDue = false;
        boolean wasDown = state == State.DOWN;
        state = State.UP;
        if (wasDown) {
            rejoins++;
        }
        events.up(this, device);
    }

    /** Hands every unsettled data frame and every queued block back to the pool, to go on other rails. */
    private void releaseAll() {
        loss.loseAll();
        events.released(this);
    }

    /** Stops using the rail: failed over now, probed with HELLO until it answers ({@code DOWN}), or gone. */
    void fail(State to) {
        if (state == State.CLOSED) {
            return;
        }
        boolean wasUp = state == State.UP;
        // Out of the pool first, so what it hands back goes to the other rails, not to itself.
        state = to;
        if (wasUp) {
            events.down(this);
        }
        releaseAll();
        if (wasUp) {
            failovers++;
        }
        hello.restart();
        creditReplyDue = creditLazyDue = false;
        watch.probeDone();
    }

    // ---------------------------------------------------------------- timers

    /** The engine was not running for {@code gap}: that time does not count as the peer's silence. */
    void paused(long gap) {
        watch.paused(gap);
    }

    /** Runs what is due and returns when this rail next needs the clock. */
    long onTimer(long now) {
        RailsSettings s = settings;
        if (state == State.CLOSED) {
            return Long.MAX_VALUE;
        }
        if (state != State.UP) {
            return Math.max(hello.nextProposalAt(now, helloInterval()), now + 1);
        }
        long next = Long.MAX_VALUE;
        long base = rto();
        if (lossy && log.unsettled() > 0) {
            if (loss.expire(now, base)) {
                watch.probe();
            }
            if (log.unsettled() > 0) {
                next = Math.min(next, loss.nextExpiry(base));
            }
        }
        if (lagging()) {
            if (watch.silent(now, s.railTimeoutNanos())) {
                // No progress for the rail timeout: fail it over and probe it until it answers.
                fail(State.DOWN);
                return now + 1;
            }
            long due = watch.probeDeadline(now, base);
            next = Math.min(next, Math.min(due, watch.silentAt(s.railTimeoutNanos())));
        }
        if (rx.staleSince() != Long.MAX_VALUE) {
            long due = rx.staleSince() + base;
            if (now >= due) {
                creditLazyDue = true;
            } else {
                next = Math.min(next, due);
            }
        }
        return next;
    }

    private long helloInterval() {
        return Math.max(1, Math.min(settings.railTimeoutNanos(), 4 * rto()));
    }

    // ---------------------------------------------------------------- sending

    private void common(FrameOut out, int frameEpoch, int seq, int grant) {
        out.epoch = frameEpoch;
        out.seq = seq;
        out.credit = grant;
        out.echo = unseq.echo();
    }

    private boolean offer(FrameOut out, long now) {
        boolean ok;
        try {
            if (out.op.isData() && out.payloadLength > 0 && out.source != null) {
                // A data frame with a payload in registered memory: a run of one, on the transport's one fast path.
                out.beginOne();
                ok = transport.offerRun(out.headLength(), out, out.source, 1) == 1;
            } else {
                ok = transport.offer(out.length(), out);
            }
        } catch (RailClosedException e) {
            events.closed(this, e);
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
            rx.advertised();
            creditLazyDue = false;
        }
    }

    /** Sends the data frame {@code out} describes; the caller checked {@link #canSendData()}. */
    boolean sendData(FrameOut out, long now) {
        if (!payloadChecked) {
            out.flags |= FrameFlags.PAYLOAD_UNCHECKED;
        }
        common(out, hello.epoch(), credit.nextSeq(), rx.credit());
        boolean wasIdle = !lagging() && log.unsettled() == 0;
        if (!offer(out, now)) {
            return false;
        }
        if (wasIdle) {
            watch.progressed(now);
        }
        log.recordData(out.localQpn, out.msn, out.psn, out.offset, out.payloadLength, now);
        credit.advance(1);
        dataFramesSent++;
        sentData(1, out.payloadLength, now);
        return true;
    }

    /**
     * Sends up to {@code count} data frames of one request as a run, in one offer to the transport: frame 0 is the
     * one {@code out} describes (as for {@link #sendData}), the others follow it {@code stride} payload bytes apart,
     * and frame {@code ackAt} asks for an acknowledgement. Each frame is booked as {@link #sendData} books one. The
     * caller checked {@link #dataRoom()} and that the request's payload is in registered memory; {@code out} is left
     * describing the last frame sent.
     *
     * @return frames sent
     */
    int sendDataRun(FrameOut out, int count, int stride, int ackAt, long now) {
        if (!payloadChecked) {
            out.flags |= FrameFlags.PAYLOAD_UNCHECKED;
        }
        common(out, hello.epoch(), credit.nextSeq(), rx.credit());
        out.beginRun(stride, ackAt);
        boolean wasIdle = !lagging() && log.unsettled() == 0;
        int sent;
        try {
            sent = transport.offerRun(out.headLength(), out, out.source, count);
        } catch (RailClosedException e) {
            // Frames it took before failing are covered still by their block, which the closing hands on.
            events.closed(this, e);
            return 0;
        }
        if (sent == 0) {
            return 0;
        }
        offered(sent);
        if (wasIdle) {
            watch.progressed(now);
        }
        out.frame(0);
        long bytes = log.recordDataRun(out.localQpn, out.msn, out.psn, out.offset, stride, out.total, sent, now);
        out.frame(sent - 1);
        credit.advance(sent);
        dataFramesSent += sent;
        sentData(sent, bytes, now);
        return sent;
    }

    /** {@code frames} data frames of {@code bytes} in all went out and are in the log. */
    private void sentData(int frames, long bytes, long now) {
        events.dataSent(frames, bytes);
        if (log.unsettled() == frames) {
            // The log was empty before them: the retransmission timer starts with them.
            events.armTimer(now + settings.retransmitNanos());
        }
    }

    /**
     * The number the device with the smaller identity gave this rail, this side's own until the handshake names the
     * peer. Both ends order a pool's rails up by it, so its first rail, which carries the small writes and the
     * acknowledgements, is the same cable at both ends whatever order each side found its links in.
     */
    int sharedNumber() {
        return hello.peer() == null || hello.selfIsSmaller() ? number : hello.peerNumber();
    }

    /** Sends the sequenced control frame {@code out} describes; the caller checked {@link #canSendControl()}. */
    boolean sendControl(FrameOut out, long now) {
        common(out, hello.epoch(), credit.nextSeq(), rx.credit());
        boolean wasIdle = !lagging() && log.unsettled() == 0;
        if (!offer(out, now)) {
            return false;
        }
        if (wasIdle) {
            watch.progressed(now);
            events.armTimer(now + settings.retransmitNanos());
        }
        log.recordControl();
        credit.advance(1);
        return true;
    }

    /** Sends a HELLO or a CREDIT when one is due; returns 1 when it sent. */
    int sendDueUnsequenced(FrameOut out, long now) {
        if (state == State.CLOSED) {
            return 0;
        }
        if (state != State.UP || hello.replyDue()) {
            return sendHelloIfDue(out, now);
        }
        if (!(creditReplyDue || creditLazyDue || watch.probeDue()) || !canSendUnsequenced(now)) {
            return 0;
        }
        boolean probe = watch.probeDue() && lagging();
        out.begin(Opcode.CREDIT, probe ? FrameFlags.ACK_REQUEST : 0, 0);
        out.nextSeq = credit.nextSeq();
        common(out, hello.epoch(), unseq.nextId(), rx.credit());
        if (!offer(out, now)) {
            return 0;
        }
        unseq.creditSent(now);
        creditReplyDue = false;
        watch.probeDone();
        return 1;
    }

    private int sendHelloIfDue(FrameOut out, long now) {
        Handshake.Hello kind = hello.due(state == State.UP, now, helloInterval());
        if (kind == Handshake.Hello.NONE) {
            return 0;
        }
        out.begin(Opcode.HELLO, kind == Handshake.Hello.REPLY ? FrameFlags.REPLY : 0, 0);
        out.helloDevice = hello.self();
        out.helloRail = number;
        out.helloFrameBytes = settings.frameBytes();
        out.helloWindow = window;
        common(out, hello.epochOf(kind), unseq.nextId(), window);
        if (!offer(out, now)) {
            return 0;
        }
        unseq.helloSent();
        hello.sent(kind, now);
        if (kind == Handshake.Hello.PROPOSAL) {
            events.armTimer(now + helloInterval());
        }
        return 1;
    }

    /** Any part of the duty cycle wants this rail to send an unsequenced frame now. */
    boolean wantsUnsequenced() {
        return hello.replyDue() || creditReplyDue || creditLazyDue || watch.probeDue() || state == State.HANDSHAKE
                || state == State.DOWN;
    }

    // ---------------------------------------------------------------- ACK contents

    int rxPosition() {
        return rx.position();
    }

    long rxMap() {
        return rx.map();
    }

    /**
     * Writes this rail's line of an ACK as entry {@code i} of {@code out}: the rail by the number the peer gave it,
     * its epoch, its receive position and map, and the credit it grants.
     */
    void ackEntry(FrameOut out, int i) {
        out.arRail[i] = hello.peerNumber();
        out.arEpoch[i] = hello.epoch();
        out.arPosition[i] = rx.position();
        out.arCredit[i] = rx.credit();
        out.arMap[i] = rx.map();
    }

    /** After an ACK carried this rail's position and credit. */
    void advertisedInAck() {
        rx.advertised();
        creditLazyDue = false;
    }

    RailStats stats() {
        return new RailStats(number, info.name(), info.linkId(), state.name(), hello.epoch(), credits(),
                credit.peerWindow(), framesSent, framesReceived, dataFramesSent, dataFramesReceived, loss.lostFrames(),
                duplicateFrames, failovers, rejoins, log.unsettled());
    }

    @Override
    public String toString() {
        return "Rail[" + number + " " + info.name() + " " + state + " epoch " + hello.epoch() + "]";
    }
}
