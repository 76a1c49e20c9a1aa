package io.xdlink.rails.engine;

import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.frame.NakReason;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.CompletionStatus;
import io.xdlink.rails.verbs.QpState;

import java.util.ArrayDeque;

/**
 * The sending half of a queue pair, on the engine's thread: numbers each request (message sequence, packet
 * sequences, the receive it will consume), hands it to the pool's striping, keeps within the peer's message and
 * packet windows, completes requests strictly in order as the peer's acknowledgements say their bytes are in place,
 * resends a message the peer was not ready for, and probes when acknowledgements stop.
 */
final class QpSender {
    private static final int MAX_BACKOFF = 6;

    private final QpCore qp;
    private final DeviceEngine engine;
    private final SendRequest[] sq;
    private final int mask;
    private final ArrayDeque<SendRequest> waiting = new ArrayDeque<>();

    private int nextMsn;
    private int completedMsn;
    private int nextPsn;
    private int peerExpectedPsn;
    private int nextRecvIndex;
    int peerMaxMessages = 1;
    int peerPsnWindow = 64;

    private long lastProgressAt;
    private int probeBackoff;
    private int rnrWaiting;
    private boolean timed;

    QpSender(QpCore qp, DeviceEngine engine, int capacity) {
        this.qp = qp;
        this.engine = engine;
        int size = Integer.highestOneBit(Math.max(2, capacity - 1)) << 1;
        this.sq = new SendRequest[size];
        this.mask = size - 1;
    }

    /** Numbers a new request and plans it, or holds it until the queue pair is connected. */
    void post(SendRequest w, long now) {
        if (qp.state() == QpState.ERROR || qp.state() == QpState.CLOSED) {
            complete(w, CompletionStatus.WR_FLUSH_ERROR);
            return;
        }
        if (w.local != null && (!w.local.isValid() || w.local.pd() != qp.pd() || !w.local.segment().scope().isAlive())) {
            complete(w, CompletionStatus.LOCAL_PROTECTION_ERROR);
            qp.error(CompletionStatus.WR_FLUSH_ERROR, null);
            return;
        }
        w.msn = nextMsn++;
        w.payload = w.frameOpcode.maxPayload(engine.settings.frameBytes());
        w.frames = (int) Math.max(1, (w.length + w.payload - 1) / w.payload);
        w.psnStart = nextPsn;
        nextPsn += w.frames;
        if (w.consumesRecv()) {
            w.recvIndex = nextRecvIndex++;
        }
        sq[w.msn & mask] = w;
        if (w.msn == completedMsn) {
            lastProgressAt = now;
            probeBackoff = 0;
        }
        if (qp.state() == QpState.READY) {
            plan(w);
        } else {
            waiting.add(w);
        }
        timed(now);
    }

    private void plan(SendRequest w) {
        engine.budget.queued(w.frames);
        qp.pool.plan(w);
    }

    /** The queue pair just connected: plan what was posted meanwhile. */
    void onReady(long now) {
        lastProgressAt = now;
        while (!waiting.isEmpty()) {
            plan(waiting.poll());
        }
    }

    private void timed(long now) {
        if (!timed) {
            timed = true;
            engine.timedQp(qp);
        }
        engine.armTimer(now + probeInterval());
    }

    /** The live request of a message sequence, or null when it is done or unknown. */
    SendRequest live(int msn) {
        SendRequest w = sq[msn & mask];
        return w != null && w.msn == msn && !w.done && msn - nextMsn < 0 ? w : null;
    }

    boolean sendable() {
        return qp.state() == QpState.READY;
    }

    /** Whether frame {@code psn} of {@code w} is within the peer's windows now. */
    boolean windowAllows(SendRequest w, int psn) {
        return w.msn - completedMsn < peerMaxMessages && psn - peerExpectedPsn < peerPsnWindow;
    }

    /** How many packets from {@code psn} on, of request {@code w}, {@link #windowAllows} lets go now. */
    int windowRoom(SendRequest w, int psn) {
        if (w.msn - completedMsn >= peerMaxMessages) {
            return 0;
        }
        return Math.max(0, peerPsnWindow - (psn - peerExpectedPsn));
    }

    /** True when the peer has said it holds packet {@code psn}. */
    boolean received(int psn) {
        return psn - peerExpectedPsn < 0;
    }

    /** The peer's acknowledgement: every message below {@code msn} complete, every packet below {@code psn} in. */
    void onAck(int msn, int psn, long now) {
        boolean progress = false;
        if (psn - peerExpectedPsn > 0 && psn - nextPsn <= 0) {
            peerExpectedPsn = psn;
            progress = true;
        }
        while (msn - completedMsn > 0 && completedMsn != nextMsn) {
            SendRequest w = sq[completedMsn & mask];
            completedMsn++;
            if (w != null && !w.done) {
                complete(w, CompletionStatus.SUCCESS);
            }
            progress = true;
        }
        if (progress) {
            lastProgressAt = now;
            probeBackoff = 0;
        }
    }

    /** The peer refused message {@code msn}. */
    void onNak(int msn, NakReason reason, long now) {
        SendRequest w = live(msn);
        if (w == null) {
            return;
        }
        RailsSettings s = engine.settings;
        switch (reason) {
            case RECEIVER_NOT_READY -> {
                if (w.rnrAt != 0) {
                    return;
                }
                if (s.rnrRetry() != 7 && ++w.rnrRetries > s.rnrRetry()) {
                    qp.error(CompletionStatus.RNR_RETRY_EXCEEDED_ERROR, w);
                    return;
                }
                w.rnrAt = now + s.rnrTimerNanos();
                rnrWaiting++;
                lastProgressAt = now;
                timed(now);
                engine.armTimer(w.rnrAt);
            }
            case REMOTE_ACCESS -> qp.error(CompletionStatus.REMOTE_ACCESS_ERROR, w);
            case INVALID_REQUEST -> qp.error(CompletionStatus.REMOTE_INVALID_REQUEST_ERROR, w);
            case REMOTE_OPERATION -> qp.error(CompletionStatus.REMOTE_OPERATION_ERROR, w);
        }
    }

    /** Resends messages whose receiver-not-ready wait is over, probes a silent peer; returns the next deadline. */
    long onTimer(long now) {
        if (qp.state() != QpState.READY || completedMsn == nextMsn) {
            timed = completedMsn != nextMsn && qp.state() == QpState.CONNECTING;
            return Long.MAX_VALUE;
        }
        long next = Long.MAX_VALUE;
        if (rnrWaiting > 0) {
            for (int m = completedMsn; m != nextMsn; m++) {
                SendRequest w = sq[m & mask];
                if (w != null && !w.done && w.rnrAt != 0) {
                    if (w.rnrAt <= now) {
                        w.rnrAt = 0;
                        rnrWaiting--;
                        plan(w);
                    } else {
                        next = Math.min(next, w.rnrAt);
                    }
                }
            }
        }
        RailsSettings s = engine.settings;
        if (now - lastProgressAt >= s.peerTimeoutNanos()) {
            fail(CompletionStatus.RETRY_EXCEEDED_ERROR);
            return Long.MAX_VALUE;
        }
        long due = lastProgressAt + (probeInterval() << Math.min(probeBackoff, MAX_BACKOFF));
        if (now >= due && rnrWaiting == 0) {
            // Acknowledgements stopped: resend the oldest message's first frame, asking for an answer at once.
            SendRequest w = sq[completedMsn & mask];
            if (w != null && !w.done && qp.pool != null) {
                qp.pool.retransmit.add(qp.qpn(), w.msn, w.psnStart, 0, w.frameLength(0), true);
            }
            probeBackoff++;
            due = now + (probeInterval() << Math.min(probeBackoff, MAX_BACKOFF));
        }
        next = Math.min(next, Math.min(due, lastProgressAt + s.peerTimeoutNanos()));
        return Math.max(next, now + 1);
    }

    /** The queue pair fails: its oldest outstanding request ends with {@code status}, every other is flushed. */
    void fail(CompletionStatus status) {
        qp.error(status, completedMsn != nextMsn ? sq[completedMsn & mask] : null);
    }

    /** The engine was not running for {@code gap}: that time does not count toward the peer timeout. */
    void paused(long gap) {
        lastProgressAt += gap;
    }

    private long probeInterval() {
        return 4 * engine.settings.retransmitNanos();
    }

    /** Completes the request: a completion unless it was unsignaled and succeeded, and a slot in the send queue. */
    void complete(SendRequest w, CompletionStatus status) {
        if (w.done) {
            return;
        }
        w.done = true;
        if (w.rnrAt != 0) {
            w.rnrAt = 0;
            rnrWaiting--;
        }
        // The slot frees before the completion shows: an application that posts again on seeing it finds room.
        qp.sendDone();
        if (w.signaled || status.isError()) {
            qp.sendCq().push(new Completion(w.wrId, w.opcode, status, status.isError() ? 0 : w.length, 0, false,
                    qp.qpn()));
        }
    }

    /** The queue pair failed: {@code culprit} ends with {@code status}, every other request is flushed. */
    void flush(SendRequest culprit, CompletionStatus status) {
        for (int m = completedMsn; m != nextMsn; m++) {
            SendRequest w = sq[m & mask];
            if (w != null && !w.done) {
                complete(w, w == culprit ? status : CompletionStatus.WR_FLUSH_ERROR);
            }
            sq[m & mask] = null;
        }
        completedMsn = nextMsn;
        while (!waiting.isEmpty()) {
            SendRequest w = waiting.poll();
            if (!w.done) {
                complete(w, w == culprit ? status : CompletionStatus.WR_FLUSH_ERROR);
            }
        }
    }

    /** Requests posted and not yet complete. */
    int outstanding() {
        return nextMsn - completedMsn;
    }
}
