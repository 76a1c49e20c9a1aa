package io.xdlink.rails.verbs;

import io.xdlink.rails.frame.FrameFlags;
import io.xdlink.rails.frame.FrameLayout;
import io.xdlink.rails.frame.FrameView;
import io.xdlink.rails.frame.NakReason;
import io.xdlink.rails.frame.Opcode;
import io.xdlink.rails.frame.RejectReason;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import io.xdlink.rails.frame.FrameEncoder;

/**
 * All rails to one peer, working as one: striping of requests over them, the frames to resend (on any of them),
 * the peer's control frames to send, and the coalesced acknowledgement that speaks for every rail and queue pair at
 * once and travels on one rail.
 */
final class PeerPool {
    final DeviceEngine engine;
    final UUID peer;
    final List<Rail> rails = new ArrayList<>();
    final RetransmitQueue retransmit = new RetransmitQueue();
    private final ArrayDeque<Block> parked = new ArrayDeque<>();
    private final ArrayDeque<Control> outbox = new ArrayDeque<>();
    private final ArrayDeque<QpReceiver> dirty = new ArrayDeque<>();
    private final Striper striper = new Striper();
    private List<Rail> up = List.of();

    private int dataSinceAck;
    private long ackDueAt = Long.MAX_VALUE;
    private boolean ackNow;
    /**
     * The sender asked for an ACK in this duty cycle. It goes out in the next cycle's send phase rather than at once,
     * so an answer the application posts in between (a ping-pong's reply, a receive's next send) shares its flush:
     * one system call and one wake-up for the peer instead of two on a rail such as TCP.
     */
    private boolean ackAsked;
    /** The rail the last ACK went on: a DISCONNECT follows it there, so it cannot overtake it. */
    private Rail ackVia;

    /** A control frame waiting for a rail with control credit. */
    private record Control(Opcode op, long connId, int a, int b, int c, int d, NakReason nak, RejectReason reject) {
    }

    PeerPool(DeviceEngine engine, UUID peer) {
        this.engine = engine;
        this.peer = peer;
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
        refreshUp();
    }

    void railUp(Rail rail) {
        refreshUp();
        while (!parked.isEmpty()) {
            place(parked.poll());
        }
    }

    void railDown(Rail rail) {
        refreshUp();
    }

    private void refreshUp() {
        List<Rail> u = new ArrayList<>();
        for (Rail r : rails) {
            if (r.isUp()) {
                u.add(r);
            }
        }
        up = u;
        striper.weigh(u);
    }

    boolean hasUpRail() {
        return !up.isEmpty();
    }

    /** Takes every block queued on {@code rail} (failing) and gives its unsent frames to the others. */
    void takeBlocks(Rail rail) {
        List<Block> moved = new ArrayList<>(rail.blocks);
        rail.blocks.clear();
        rail.queuedBytes = 0;
        refreshUp();
        for (Block b : moved) {
            if (b.remaining() > 0) {
                place(new Block(b.request, b.first + b.sent, b.remaining()));
            }
        }
    }

    private void place(Block b) {
        Rail r = striper.leastLoaded(up);
        if (r == null) {
            parked.add(b);
        } else {
            r.blocks.add(b);
            r.queuedBytes += b.remainingBytes();
        }
    }

    // ---------------------------------------------------------------- striping

    /** Cuts a request into blocks on the pool's rails. */
    void plan(SendRequest w) {
        if (up.isEmpty()) {
            parked.add(new Block(w, 0, w.frames));
            return;
        }
        if (w.length < engine.settings.stripeMinBytes() || up.size() == 1 || w.frames == 1) {
            place(new Block(w, 0, w.frames));
            return;
        }
        // Chunks of half the packet window, each striped over every rail, so all rails work inside the window.
        int chunk = Math.max(1, w.qp.sender().peerPsnWindow / 2);
        for (int first = 0; first < w.frames; first += chunk) {
            int n = Math.min(chunk, w.frames - first);
            int[] counts = striper.split(n);
            int start = first;
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] > 0) {
                    Block b = new Block(w, start, counts[i]);
                    Rail r = up.get(i);
                    r.blocks.add(b);
                    r.queuedBytes += b.remainingBytes();
                    start += counts[i];
                }
            }
        }
    }

    // ---------------------------------------------------------------- data out

    /** Sends up to {@code burst} data frames on {@code rail}: first what must be resent, then its blocks. */
    int sendData(Rail rail, FrameOut out, long now, int burst) {
        int sent = 0;
        while (sent < burst && rail.canSendData()) {
            if (!retransmit.isEmpty()) {
                QueuePair qp = engine.qp(retransmit.qpn());
                SendRequest w = qp == null || !qp.sender().sendable() ? null : qp.sender().live(retransmit.msn());
                if (w == null || qp.sender().received(retransmit.psn())) {
                    retransmit.pop();
                    continue;
                }
                int len = retransmit.length();
                if (!engine.budgetAllows(len)) {
                    break;
                }
                fill(out, w, retransmit.psn(), retransmit.offset(), len,
                        retransmit.ackRequest() ? FrameFlags.ACK_REQUEST : 0);
                if (!rail.sendData(out, now)) {
                    break;
                }
                retransmit.pop();
                engine.retransmittedFrames++;
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
                engine.queued(-b.remaining());
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
            if (!engine.budgetAllows(len)) {
                break;
            }
            int flags = engine.queuedFrames() == 1 && retransmit.isEmpty() ? FrameFlags.ACK_REQUEST : 0;
            fill(out, w, psn, (long) k * w.payload, len, flags);
            if (!rail.sendData(out, now)) {
                break;
            }
            sent++;
            if (sentFromBlock(rail, out, b, w, len)) {
                sent += sendRun(rail, out, b, w, now, burst - sent);
            }
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
        engine.queued(-frames);
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
            if (!sender.windowAllows(w, psn) || !engine.budgetAllows(len)) {
                break;
            }
            long queued = engine.queuedFrames();
            if (rail.byReference && w.local != null) {
                // Every limit counted out at once: the frames they allow go to the transport in one offer.
                int count = (int) Math.min(Math.min(Math.min(max - sent, b.remaining()), rail.dataRoom()),
                        Math.min(sender.windowRoom(w, psn), engine.budgetRoom(w.payload)));
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
        if (!dirty.isEmpty()) {
            ackNow = true;
        }
        outbox.add(new Control(Opcode.NAK, 0, peerQpn, msn, 0, 0, reason, null));
        engine.nakFramesQueued++;
    }

    void connectRequest(long connId, int listener, int srcQpn, int maxMessages, int psnWindow) {
        outbox.add(new Control(Opcode.CONNECT_REQUEST, connId, listener, srcQpn, maxMessages, psnWindow, null, null));
    }

    void connectReply(long connId, int dstQpn, int srcQpn, int maxMessages, int psnWindow) {
        outbox.add(new Control(Opcode.CONNECT_REPLY, connId, dstQpn, srcQpn, maxMessages, psnWindow, null, null));
    }

    void connectReject(long connId, RejectReason reason) {
        outbox.add(new Control(Opcode.CONNECT_REJECT, connId, 0, 0, 0, 0, null, reason));
    }

    void disconnect(int dstQpn, int srcQpn) {
        // What this side completed must reach the peer before the news that the queue pair is gone, or the peer
        // would flush requests whose bytes had in fact arrived.
        if (!dirty.isEmpty()) {
            ackNow = true;
        }
        outbox.add(new Control(Opcode.DISCONNECT, 0, dstQpn, srcQpn, 0, 0, null, null));
    }

    /** The rail control frames go on: the lowest-numbered rail that is up and has control credit. */
    private Rail controlRail() {
        for (Rail r : up) {
            if (r.canSendControl()) {
                return r;
            }
        }
        return null;
    }

    /** Sends the coalesced ACK when due, then queued control frames (on the same rail, so in that order). */
    int sendControl(FrameOut out, long now) {
        int work = sendAckIfDue(out, now);
        while (!outbox.isEmpty()) {
            Control c = outbox.peek();
            Rail r;
            if ((c.op() == Opcode.DISCONNECT || c.op() == Opcode.NAK) && (ackNow || !dirty.isEmpty())) {
                break; // the ACK goes first: the NAK or disconnect waits for it to be sent
            }
            if (c.op() == Opcode.DISCONNECT) {
                // Behind the last ACK on its rail (frames on one rail arrive in order), unless that rail is gone.
                r = ackVia != null && ackVia.isUp() && ackVia.pool == this ? ackVia : controlRail();
                if (r == null || !r.canSendControl()) {
                    break;
                }
            } else {
                r = controlRail();
                if (r == null) {
                    break;
                }
            }
            out.begin(c.op(), 0, 0);
            switch (c.op()) {
                case NAK -> {
                    out.nakQpn = c.a();
                    out.nakMsn = c.b();
                    out.nakReason = c.nak();
                }
                case CONNECT_REQUEST, CONNECT_REPLY -> {
                    out.connId = c.connId();
                    out.connA = c.a();
                    out.connSrc = c.b();
                    out.connMaxMessages = c.c();
                    out.connPsnWindow = c.d();
                }
                case CONNECT_REJECT -> {
                    out.connId = c.connId();
                    out.rejectReason = c.reject();
                }
                default -> {
                    out.discDst = c.a();
                    out.discSrc = c.b();
                }
            }
            if (!r.sendControl(out, now)) {
                break;
            }
            if (c.op() == Opcode.NAK) {
                engine.nakFramesSent++;
            }
            outbox.poll();
            work++;
        }
        return work;
    }

    /** Sends the coalesced ACK if enough frames arrived, the sender asked, or the delay ran out. */
    int sendAckIfDue(FrameOut out, long now) {
        if (ackNow || ((dataSinceAck > 0 || !dirty.isEmpty()) && now >= ackDueAt)) {
            return sendAck(out, now);
        }
        return 0;
    }

    /** Sends the ACK owed for what arrived, due or not, for a device about to close. */
    int sendOwedAck(FrameOut out, long now) {
        if (ackNow || dataSinceAck > 0 || !dirty.isEmpty()) {
            return sendAck(out, now);
        }
        return 0;
    }

    /** A new duty cycle: an ACK asked for in the last one is due now (see {@link #ackAsked}). */
    void cycleStarted() {
        if (ackAsked) {
            ackAsked = false;
            ackNow = true;
        }
    }

    /** A data frame arrived: count it toward the next ACK, and send that ACK now if the sender asks. */
    void onDataReceived(boolean ackRequest, long now) {
        onDataReceived(1, ackRequest, now);
    }

    /** {@code frames} data frames arrived, one of them asking for an ACK at once if {@code ackRequest}. */
    void onDataReceived(int frames, boolean ackRequest, long now) {
        dataSinceAck += frames;
        int every = engine.settings.ackEveryFrames();
        if (dataSinceAck >= 2 * every) {
            ackNow = true;
        } else if (ackRequest || dataSinceAck >= every) {
            // Due at the next duty cycle's start, so it leaves in one write with whatever the host posts meanwhile
            // (a ping-pong's answer) instead of in a write of its own that wakes the peer once more per message:
            // a message of ack_every_frames and a little more would otherwise fill the count one frame before its
            // end. A stream still gets an ACK within each duty cycle or every 2 * ack_every_frames frames.
            ackAsked = true;
        } else if (ackDueAt == Long.MAX_VALUE) {
            ackDueAt = now + engine.settings.ackDelayNanos();
            engine.armTimer(ackDueAt);
        }
    }

    void dirty(QpReceiver r) {
        dirty.add(r);
    }

    private int sendAck(FrameOut out, long now) {
        Rail via = controlRail();
        if (via == null) {
            return 0;
        }
        int rails = Math.min(up.size(), FrameLayout.MAX_ACK_RAILS);
        int room = Math.min(FrameLayout.ackQpCapacity(FrameLayout.MAX_FRAME_BYTES, rails), out.aqQpn.length);
        int qps = 0;
        for (QpReceiver r : dirty) {
            if (qps == room) {
                break;
            }
            out.aqQpn[qps] = r.qp().peerQpn;
            out.aqMsn[qps] = r.completedMsn();
            out.aqPsn[qps] = r.expectedPsn();
            qps++;
        }
        out.begin(Opcode.ACK, 0, FrameEncoder.ackPayload(rails, qps));
        out.ackRails = rails;
        out.ackQps = qps;
        for (int i = 0; i < rails; i++) {
            Rail r = up.get(i);
            out.arRail[i] = r.peerNumber;
            out.arEpoch[i] = r.epoch;
            out.arPosition[i] = r.rxPosition();
            out.arCredit[i] = r.rxPosition() + r.window;
            out.arMap[i] = r.rxMap();
        }
        if (!via.sendControl(out, now)) {
            return 0;
        }
        for (int i = 0; i < rails; i++) {
            up.get(i).advertisedInAck();
        }
        for (int j = 0; j < qps; j++) {
            dirty.poll().dirty = false;
        }
        engine.ackFramesSent++;
        ackVia = via;
        dataSinceAck = 0;
        ackAsked = false;
        ackNow = !dirty.isEmpty();
        ackDueAt = Long.MAX_VALUE;
        return 1;
    }

    /** When the pool next needs the clock (a delayed ACK). */
    long onTimer(long now) {
        if (ackDueAt != Long.MAX_VALUE && now >= ackDueAt) {
            ackNow = true;
            return now + engine.settings.ackDelayNanos();
        }
        return ackDueAt;
    }

    // ---------------------------------------------------------------- control in

    void onAck(FrameView v, long now) {
        engine.ackFramesReceived++;
        for (int i = 0; i < v.ackRailCount(); i++) {
            Rail r = engine.rail(v.ackRail(i));
            if (r != null && r.pool == this) {
                r.onAckEntry(v.ackRailEpoch(i), v.ackPosition(i), v.ackCredit(i), v.ackMap(i), now);
            }
        }
        for (int j = 0; j < v.ackQpCount(); j++) {
            QueuePair qp = engine.qp(v.ackQpn(j));
            if (qp != null && qp.pool == this) {
                qp.sender().onAck(v.ackMsn(j), v.ackPsn(j), now);
            }
        }
    }

    /** Blocks and frames still to send, for tests and statistics. */
    int parkedBlocks() {
        return parked.size();
    }
}
