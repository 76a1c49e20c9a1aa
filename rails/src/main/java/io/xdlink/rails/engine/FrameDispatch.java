package io.xdlink.rails.engine;

import io.xdlink.rails.RailTransport;
import io.xdlink.rails.frame.FrameException;
import io.xdlink.rails.frame.FrameField;
import io.xdlink.rails.frame.FrameFlags;
import io.xdlink.rails.frame.FrameLayout;
import io.xdlink.rails.frame.FrameView;
import io.xdlink.rails.frame.Opcode;
import io.xdlink.rails.verbs.CompletionStatus;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Frame dispatch: what a rail's transport hands over while the engine polls it goes to the one that takes it. A
 * HELLO to its rail's handshake; a frame of another epoch, or of a rail that is not up, is counted stale; every other
 * frame's header (its credit and echo) to the rail, a CREDIT to the rail, and a sequenced frame the rail has not
 * seen before to its pool (ACK), its queue pair (data, NAK, DISCONNECT) or the connection manager (connection
 * set-up). A WRITE's frames that follow one another in order take the short way of a {@link ReceiveRun}.
 *
 * <p>It has a room of its own because it is the engine's receiving hot path: one rail at a time
 * ({@link #select}), the frame read once into one reused {@link FrameView}, no allocation. Engine thread only. A
 * frame that cannot be read is counted ({@link EngineCounters#corruptFrames}, {@link EngineCounters#malformedFrames})
 * and a bug met while handling one is counted as an internal error, so neither takes the rail's transport down.
 */
final class FrameDispatch implements RailTransport.FrameReceiver {
    private static final ValueLayout.OfShort LENGTH = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private final QpTable qps;
    private final ConnectionManager cm;
    private final EngineCounters counters;
    private final FrameView view = new FrameView();
    /** Reads the first head of a run whose place is asked for, apart from the frame being dispatched. */
    private final FrameView probe = new FrameView();
    /** The run of the rail being polled ({@link Rail#receiveRun}). */
    private ReceiveRun run;
    private Rail current;
    private long now;
    /** Set by the queue pair that took the frame being dispatched when its next frame may continue a run. */
    private QpReceiver runCandidate;

    FrameDispatch(DeviceEngine engine) {
        this.qps = engine.qps;
        this.cm = engine.cm;
        this.counters = engine.counters;
    }

    /**
     * The rail whose transport is polled next, at the duty cycle's time, with its run. A run outlives the poll that
     * began it: a bulk transfer's next run record often arrives in a later poll, and the transport can read its
     * payload straight into place only while the run vouches for it ({@link #placement}). Between polls commands and
     * timers may have changed what the run relies on (its queue pair, region, rail), but every frame and placement
     * the run takes checks those again ({@link ReceiveRun#take}).
     */
    void select(Rail rail, long at) {
        current = rail;
        now = at;
        ReceiveRun r = rail.receiveRun;
        if (r == null) {
            r = new ReceiveRun(counters);
            rail.receiveRun = r;
        }
        run = r;
    }

    /**
     * The poll is over: the run's frames are booked on their rail and pool before anything else looks at either; the
     * run itself goes on into the rail's next poll.
     */
    void endRun() {
        run.book();
    }

    /** The queue pair that took the frame being dispatched: the frame after it may continue a run into it. */
    void runCandidate(QpReceiver receiver) {
        runCandidate = receiver;
    }

    @Override
    public void onFrame(MemorySegment frame) {
        whole(frame, 0, frame.byteSize());
    }

    @Override
    public void onFrame(MemorySegment head, long headOffset, int headLength, MemorySegment payload,
                        long payloadOffset, int payloadLength) {
        if (payload == null) {
            whole(head, headOffset, headLength);
            return;
        }
        Rail rail = current;
        try {
            if (run.take(rail, head, headOffset, headLength, payload, payloadOffset, payloadLength, now)) {
                return;
            }
        } catch (RuntimeException e) {
            counters.internalError(e);
            run.end();
            return;
        }
        run.end();
        try {
            view.wrap(head, headOffset, headLength, payload, payloadOffset, payloadLength, rail.checksCrc);
        } catch (FrameException | RuntimeException e) {
            unreadable(e);
            return;
        }
        runCandidate = null;
        deliver(rail);
        if (runCandidate != null && !rail.checksCrc) {
            // Only where a frame's CRC is not checked: a run's frames are read in full but not checked again.
            run.begin(rail, runCandidate, head, headOffset, headLength, payloadLength);
        }
    }

    /**
     * A run of a WRITE's frames goes straight to its place in the region: one that continues this rail's run, or one
     * that begins a message (or takes it up with no run to continue) when its first head passes every check the full
     * path makes but the CRC's, which is not checked on such a rail, and the heads after it continue it.
     */
    @Override
    public MemorySegment placement(MemorySegment heads, long headOffset, int headLength, int frames,
                                   int payloadLength) {
        Rail rail = current;
        if (rail == null || rail.checksCrc) {
            return null;
        }
        MemorySegment there = run.placement(rail, heads, headOffset, headLength, frames, payloadLength);
        return there != null ? there : firstPlacement(rail, heads, headOffset, headLength, frames, payloadLength);
    }

    /** The opcode and the queue pair's checks are {@link QpReceiver#firstPlacement}'s. */
    private MemorySegment firstPlacement(Rail rail, MemorySegment heads, long o, int headLength, int frames,
                                         int payloadLength) {
        PeerPool pool = rail.pool;
        if (rail.state != Rail.State.UP || pool == null
                || ReceiveRun.followOn(heads, o, headLength, frames) != payloadLength) {
            return null;
        }
        int first = Short.toUnsignedInt(heads.get(LENGTH, o + FrameLayout.OFF_LENGTH));
        try {
            probe.wrapHead(heads, o, headLength, first);
        } catch (FrameException | RuntimeException e) {
            return null; // the full path counts what is wrong with it when the frame is handed over
        }
        if (probe.epoch() != rail.epoch()) {
            return null;
        }
        // The frames this rail's run placed in this poll are booked first, as the full path books them.
        run.book();
        if (!rail.expectsNext(probe.seq())) {
            return null;
        }
        QpCore qp = qps.get(probe.qpn());
        return qp == null || qp.pool != pool ? null : qp.receiver().firstPlacement(probe, pool, payloadLength);
    }

    /**
     * A frame that could not be read: a bad frame is counted as corrupt or malformed; any other failure is not the
     * frame's but the memory's the transport handed over (closed, another thread's), a bug to count.
     */
    private void unreadable(Exception e) {
        if (e instanceof FrameException f) {
            if (f.field() == FrameField.CRC) {
                counters.corruptFrames++;
            } else {
                counters.malformedFrames++;
            }
        } else {
            counters.internalError(e);
        }
    }

    private void whole(MemorySegment buffer, long offset, long length) {
        Rail rail = current;
        // The frame goes the full way, which books its sequence: the run's frames are booked first. The run itself
        // may go on after it (an acknowledgement between a WRITE's runs, as traffic both ways brings), since each
        // frame it takes is checked against the rail's sequence and everything else again.
        run.book();
        try {
            view.wrap(buffer, offset, length, rail.checksCrc);
        } catch (FrameException | RuntimeException e) {
            unreadable(e);
            return;
        }
        deliver(rail);
    }

    private void deliver(Rail rail) {
        try {
            dispatch(rail, view);
        } catch (RuntimeException e) {
            // A bug must not take the rail's transport down with it; count it, keep the last one for diagnosis.
            counters.internalError(e);
        }
    }

    private void dispatch(Rail rail, FrameView v) {
        Opcode op = v.opcode();
        if (op == Opcode.HELLO) {
            rail.onHello(v, now);
            return;
        }
        if (rail.state != Rail.State.UP || v.epoch() != rail.epoch() || rail.pool == null) {
            counters.staleFrames++;
            return;
        }
        rail.onHeader(v, now);
        if (op == Opcode.CREDIT) {
            rail.onCredit(v, now);
            return;
        }
        if (!rail.acceptSequenced(v.seq(), now)) {
            return;
        }
        PeerPool pool = rail.pool;
        switch (op) {
            case WRITE, WRITE_WITH_IMM, SEND -> {
                rail.dataFramesReceived++;
                counters.dataFramesReceived++;
                pool.onDataReceived(1, v.hasFlag(FrameFlags.ACK_REQUEST), v.hasFlag(FrameFlags.ACK_LAZY), now);
                QpCore qp = qps.get(v.qpn());
                if (qp == null || qp.pool != pool) {
                    counters.malformedFrames++;
                    return;
                }
                qp.receiver().onData(v, pool, now);
            }
            case ACK -> pool.onAck(v, now);
            case NAK -> {
                QpCore qp = qps.get(v.nakQpn());
                if (qp != null && qp.pool == pool) {
                    qp.sender().onNak(v.nakMsn(), v.nakReason(), now);
                }
            }
            case CONNECT_REQUEST -> cm.onRequest(pool, v);
            case CONNECT_REPLY -> cm.onReply(pool, v, now);
            case CONNECT_REJECT -> cm.onReject(pool, v);
            case DISCONNECT -> {
                QpCore qp = qps.get(v.disconnectDstQpn());
                if (qp != null && qp.pool == pool && qp.peerQpn == v.disconnectSrcQpn()) {
                    qp.error(CompletionStatus.WR_FLUSH_ERROR, null);
                }
            }
            default -> counters.staleFrames++;
        }
    }
}
