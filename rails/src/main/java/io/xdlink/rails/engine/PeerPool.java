package io.xdlink.rails.engine;

import io.xdlink.rails.frame.FrameFlags;
import io.xdlink.rails.frame.FrameView;
import io.xdlink.rails.frame.NakReason;
import io.xdlink.rails.frame.Opcode;
import io.xdlink.rails.frame.RejectReason;
import io.xdlink.rails.verbs.CompletionStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * All rails to one peer, working as one. The pool schedules data over its rails (first the frames to resend, on any
 * of them, then each rail's queue of blocks) and takes the peer's ACKs; the rest is each in a room of its own: which
 * rails carry which frames ({@link StripePlanner}), the control frames waiting for a rail ({@link ControlOutbox}),
 * and the coalesced acknowledgement that speaks for every rail and queue pair at once and travels on one rail
 * ({@link AckCoalescer}).
 */
final class PeerPool {
    final DeviceEngine engine;
    final UUID peer;
    final List<Rail> rails = new ArrayList<>();
    final RetransmitQueue retransmit = new RetransmitQueue();
    private final StripePlanner planner;
    private final ControlOutbox outbox;
    private final AckCoalescer acks;

    PeerPool(DeviceEngine engine, UUID peer) {
        this.engine = engine;
        this.peer = peer;
        this.planner = new StripePlanner(engine.settings.stripeMinBytes());
        this.outbox = new ControlOutbox(engine.counters);
        this.acks = new AckCoalescer(engine.settings, engine.counters);
    }

    // ---------------------------------------------------------------- rails

    void attach(Rail rail) {
        if (!rails.contains(rail)) {
            rails.add(rail);
            rails.sort((x, y) -> Integer.compare(x.number, y.number));
        }
        rail.pool = this;
    }

    void detach(Rail rail) {
        rails.remove(rail);
        planner.refresh(rails);
    }

    void railUp(Rail rail) {
        planner.refresh(rails);
        planner.placeParked();
    }

    void railDown(Rail rail) {
        planner.refresh(rails);
    }

    boolean hasUpRail() {
        return !planner.up().isEmpty();
    }

    /** Whether {@code rail} is this pool's first rail up: where its small writes and acknowledgements go. */
    boolean isFirstUp(Rail rail) {
        List<Rail> up = planner.up();
        return !up.isEmpty() && up.getFirst() == rail;
    }

    /** Takes every block queued on {@code rail} (failing) and gives its unsent frames to the others. */
    void takeBlocks(Rail rail) {
        planner.takeBlocks(rail, rails);
    }

    /** Cuts a request into blocks on the pool's rails. */
    void plan(SendRequest w) {
        planner.plan(w);
    }

    // ---------------------------------------------------------------- data out

    /** Sends up to {@code burst} data frames on {@code rail}: first what must be resent, then its blocks. */
    int sendData(Rail rail, FrameOut out, long now, int burst) {
        int sent = 0;
        while (sent < burst && rail.canSendData()) {
            if (!retransmit.isEmpty()) {
                QpCore qp = engine.qps.get(retransmit.qpn());
                SendRequest w = qp == null || !qp.sender().sendable() ? null : qp.sender().live(retransmit.msn());
                if (w == null || qp.sender().received(retransmit.psn())) {
                    retransmit.pop();
                    continue;
                }
                int len = retransmit.length();
                if (!engine.budget.allows(len)) {
                    break;
                }
                fill(out, w, retransmit.psn(), retransmit.offset(), len,
                        retransmit.ackRequest() ? FrameFlags.ACK_REQUEST : 0);
                if (!rail.sendData(out, now)) {
                    break;
                }
                retransmit.pop();
                engine.counters.retransmittedFrames++;
                sent++;
                checkSource(out, w);
                continue;
            }
            Block b = rail.blocks.peek();
            if (b == null) {
                break;
            }
            SendRequest w = b.request;
            if (w.done || !w.qp.sender().sendable()) {
                rail.blocks.poll();
                rail.queuedBytes -= b.remainingBytes();
                engine.budget.queued(-b.remaining());
                continue;
            }
            int k = b.first + b.sent;
            int psn = w.psnStart + k;
            if (!w.qp.sender().windowAllows(w, psn)) {
                // The head waits for its queue pair's window; what the window waits for may be queued behind it
                // (blocks moved here from a failed rail), so look past it rather than wait for ever.
                b = sendableBehind(rail);
                if (b == null) {
                    break;
                }
                w = b.request;
                k = b.first + b.sent;
                psn = w.psnStart + k;
            }
            int len = w.frameLength(k);
            if (!engine.budget.allows(len)) {
                break;
            }
            // A block of several frames from registered memory leaves as one run led by its first frame: a message
            // as one run record, heads first, lets the receiving transport read the whole payload straight into its
            // place (its first frame sent alone was read into the transport's buffer and copied from there, a
            // quarter of a 64 KiB stream's bytes). One call site of each kind below, as before the change: the duty
            // cycle is compiled as one unit close to the compiler's inlining budget, and with a second call of the
            // run here the plugin's 8-byte round trip was slower than the build before in 17 of 22 pairs of runs in
            // the two-host lab; with one, faster in 5 of 5.
            boolean leads = b.remaining() > 1 && w.local != null;
            int flags = !leads && engine.budget.queuedFrames() == 1 && retransmit.isEmpty() ? FrameFlags.ACK_REQUEST
                    : 0;
            fill(out, w, psn, (long) k * w.payload, len, flags);
            if (!leads) {
                if (!rail.sendData(out, now)) {
                    break;
                }
                sent++;
                if (!sentFromBlock(rail, out, b, w, len)) {
                    continue;
                }
            }
            int n = sendRun(rail, out, b, w, now, burst - sent);
            if (leads && n == 0) {
                break;
            }
            sent += n;
        }
        return sent;
    }

    /**
     * Books a frame of {@code b} that went out; true when more of the block may follow at once (frames left, the
     * payload was readable).
     */
    private boolean sentFromBlock(Rail rail, FrameOut out, Block b, SendRequest w, int len) {
        return sentFromBlock(rail, out, b, w, 1, len);
    }

    /** As {@link #sentFromBlock(Rail, FrameOut, Block, SendRequest, int)} for {@code frames} of {@code bytes}. */
    private boolean sentFromBlock(Rail rail, FrameOut out, Block b, SendRequest w, int frames, long bytes) {
        b.sent += frames;
        rail.queuedBytes -= bytes;
        engine.budget.queued(-frames);
        if (b.remaining() == 0) {
            if (rail.blocks.peek() == b) {
                rail.blocks.poll();
            } else {
                rail.blocks.removeFirstOccurrence(b);
            }
        }
        checkSource(out, w);
        return b.remaining() > 0 && !out.sourceFailed;
    }

    /**
     * Sends the frames that follow in the block whose frame {@code out} holds, while every limit allows, up to
     * {@code max}: they differ from that frame only in packet sequence, offset, length and flags. Sending one can
     * make the request or its queue pair unsendable only by the frame being refused (a rail closing) or its payload
     * being unreadable, and either ends the run, so the request's checks made for the first frame hold for the
     * whole run and only the limits (credit, windows, budget, resends waiting) are looked at again. A bulk
     * transfer's frames go out this way, with less work per frame than the look at the queue each would otherwise
     * take.
     */
    private int sendRun(Rail rail, FrameOut out, Block b, SendRequest w, long now, int max) {
        QpSender sender = w.qp.sender();
        int sent = 0;
        while (sent < max && retransmit.isEmpty() && rail.canSendData()) {
            int k = b.first + b.sent;
            int psn = w.psnStart + k;
            int len = w.frameLength(k);
            if (!sender.windowAllows(w, psn) || !engine.budget.allows(len)) {
                break;
            }
            long queued = engine.budget.queuedFrames();
            if (w.local != null) {
                // Every limit counted out at once: the frames they allow go to the transport in one offer.
                int count = (int) Math.min(Math.min(Math.min(max - sent, b.remaining()), rail.dataRoom()),
                        Math.min(sender.windowRoom(w, psn), engine.budget.room(w.payload)));
                if (count > 1) {
                    out.nextFrame(0, psn, (long) k * w.payload, len, w.offset);
                    // Frame i leaves queued - i frames queued: the one that leaves the last asks for the ACK.
                    int ackAt = queued <= count ? (int) queued - 1 : -1;
                    int n = rail.sendDataRun(out, count, w.payload, ackAt, now);
                    if (n == 0) {
                        break;
                    }
                    sent += n;
                    long bytes = Math.min(w.length, (long) (k + n) * w.payload) - (long) k * w.payload;
                    if (!sentFromBlock(rail, out, b, w, n, bytes) || n < count) {
                        break;
                    }
                    continue;
                }
            }
            out.nextFrame(queued == 1 ? FrameFlags.ACK_REQUEST : 0, psn, (long) k * w.payload, len,
                    w.offset);
            if (!rail.sendData(out, now)) {
                break;
            }
            sent++;
            if (!sentFromBlock(rail, out, b, w, len)) {
                break;
            }
        }
        return sent;
    }

    private static final int LOOK_BEHIND = 256;

    /** The first block after the head whose next frame its queue pair's windows allow now, or null. */
    private static Block sendableBehind(Rail rail) {
        int looked = 0;
        for (Block b : rail.blocks) {
            if (looked++ == LOOK_BEHIND) {
                break;
            }
            SendRequest w = b.request;
            if (!w.done && w.qp.sender().sendable() && w.qp.sender().windowAllows(w, w.psnStart + b.first + b.sent)) {
                return b;
            }
        }
        return null;
    }

    private void fill(FrameOut out, SendRequest w, int psn, long offset, int len, int flags) {
        int f = flags;
        if (w.frameOpcode == Opcode.SEND && w.hasImm) {
            f |= FrameFlags.IMMEDIATE;
        }
        if (w.lazyFlag != 0) {
            // A lazily acknowledged request's frames say so and never ask: its sender waits on nothing the ACK
            // brings soon.
            f = (f & ~FrameFlags.ACK_REQUEST) | w.lazyFlag;
        }
        out.begin(w.frameOpcode, f, len);
        out.localQpn = w.qp.qpn();
        out.qpn = w.qp.peerQpn;
        out.msn = w.msn;
        out.psn = psn;
        out.offset = offset;
        out.total = w.length;
        out.rkey = w.rkey;
        out.raddr = w.raddr;
        out.imm = w.frameOpcode == Opcode.SEND && !w.hasImm ? 0 : w.imm;
        out.recvIndex = w.recvIndex;
        out.source = w.local == null ? null : w.local.segment();
        out.sourceOffset = w.offset + offset;
    }

    private void checkSource(FrameOut out, SendRequest w) {
        if (out.sourceFailed) {
            w.qp.error(CompletionStatus.LOCAL_PROTECTION_ERROR, w);
        }
    }

    // ---------------------------------------------------------------- control out

    void nak(int peerQpn, int msn, NakReason reason) {
        // As with a disconnect: what this side completed before the refused message goes first, or the peer would
        // flush requests whose bytes had in fact arrived (their ACK may be waiting for the next duty cycle).
        acks.dueBeforeControl();
        outbox.add(new QueuedControl.Nak(peerQpn, msn, reason));
    }

    void connectRequest(long connId, int listener, int srcQpn, int maxMessages, int psnWindow) {
        outbox.add(new QueuedControl.ConnectRequest(connId, listener, srcQpn, maxMessages, psnWindow));
    }

    void connectReply(long connId, int dstQpn, int srcQpn, int maxMessages, int psnWindow) {
        outbox.add(new QueuedControl.ConnectReply(connId, dstQpn, srcQpn, maxMessages, psnWindow));
    }

    void connectReject(long connId, RejectReason reason) {
        outbox.add(new QueuedControl.ConnectReject(connId, reason));
    }

    void disconnect(int dstQpn, int srcQpn) {
        // What this side completed must reach the peer before the news that the queue pair is gone, or the peer
        // would flush requests whose bytes had in fact arrived.
        acks.dueBeforeControl();
        outbox.add(new QueuedControl.Disconnect(dstQpn, srcQpn));
    }

    /** Sends the coalesced ACK when due, then queued control frames (on the same rail, so in that order). */
    int sendControl(FrameOut out, long now) {
        int work = sendAckIfDue(out, now);
        if (!outbox.isEmpty()) {
            work += outbox.send(out, now, acks.owed(), acks.via(), this, planner.up());
        }
        return work;
    }

    /** Sends the coalesced ACK if enough frames arrived, the sender asked, or the delay ran out. */
    int sendAckIfDue(FrameOut out, long now) {
        return acks.due(now) ? acks.send(out, now, planner.up()) : 0;
    }

    /** Sends the ACK owed for what arrived, due or not, for a device about to close. */
    int sendOwedAck(FrameOut out, long now) {
        return acks.unacknowledged() ? acks.send(out, now, planner.up()) : 0;
    }

    /** A new duty cycle: an ACK asked for in the last one is due now, if {@code sendAsked}; else at its delay. */
    void cycleStarted(boolean sendAsked) {
        acks.cycleStarted(sendAsked);
    }

    /**
     * {@code frames} data frames arrived, one of them asking for an ACK at once if {@code ackRequest}; all of them
     * letting it wait if {@code lazy} ({@link io.xdlink.rails.frame.FrameFlags#ACK_LAZY}).
     */
    void onDataReceived(int frames, boolean ackRequest, boolean lazy, long now) {
        long at = acks.onData(frames, ackRequest, lazy, now);
        if (at != Long.MAX_VALUE) {
            engine.armTimer(at);
        }
    }

    void dirty(QpReceiver r) {
        acks.dirty(r);
    }

    /** When the pool next needs the clock (a delayed ACK). */
    long onTimer(long now) {
        return acks.onTimer(now);
    }

    // ---------------------------------------------------------------- control in

    void onAck(FrameView v, long now) {
        engine.counters.ackFramesReceived++;
        for (int i = 0; i < v.ackRailCount(); i++) {
            Rail r = engine.registry.rail(v.ackRail(i));
            if (r != null && r.pool == this) {
                r.onAckEntry(v.ackRailEpoch(i), v.ackPosition(i), v.ackCredit(i), v.ackMap(i), now);
            }
        }
        for (int j = 0; j < v.ackQpCount(); j++) {
            QpCore qp = engine.qps.get(v.ackQpn(j));
            if (qp != null && qp.pool == this) {
                qp.sender().onAck(v.ackMsn(j), v.ackPsn(j), now);
            }
        }
    }

}
