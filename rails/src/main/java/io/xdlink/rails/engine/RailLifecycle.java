package io.xdlink.rails.engine;

import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.verbs.CompletionStatus;
import io.xdlink.rails.verbs.QpState;

import java.util.UUID;

/**
 * The engine's side of {@link RailEvents}: what a rail's reports mean for the device. Data sent or settled moves
 * the {@link InflightBudget}; a lost frame goes to its pool's retransmit queue; a rail that comes up joins its
 * peer's pool (formed then if it is the first) and lets the connection manager send what waited for the peer; a
 * rail that goes down or closes hands its work to the pool's other rails; a closed transport that says its whole
 * peer is lost fails every queue pair connected (or connecting) to that peer. Engine thread only.
 */
final class RailLifecycle implements RailEvents {
    private final DeviceEngine engine;
    /** The last rail closure, kept for diagnosis: a request that fails later can say why its rails went. */
    private volatile RailClosedException lastClosure;

    RailLifecycle(DeviceEngine engine) {
        this.engine = engine;
    }

    RailClosedException lastClosure() {
        return lastClosure;
    }

    @Override
    public void armTimer(long at) {
        engine.armTimer(at);
    }

    @Override
    public void dataSent(int frames, long bytes) {
        engine.counters.dataFramesSent += frames;
        engine.budget.sent(bytes);
    }

    @Override
    public void dataSettled(long bytes) {
        engine.budget.settled(bytes);
    }

    @Override
    public void dataLost(Rail rail, int qpn, int msn, int psn, long offset, int length) {
        rail.pool.retransmit.add(qpn, msn, psn, offset, length, false);
        engine.budget.settled(length);
    }

    @Override
    public void up(Rail rail, UUID peer) {
        PeerPool pool = engine.registry.poolOf(peer, p -> new PeerPool(engine, p));
        pool.attach(rail);
        pool.railUp(rail);
        engine.cm.poolUp(pool);
    }

    @Override
    public void peerChanged(Rail rail) {
        RailRegistry.leavePool(rail);
    }

    @Override
    public void down(Rail rail) {
        if (rail.pool != null) {
            rail.pool.railDown(rail);
        }
    }

    @Override
    public void released(Rail rail) {
        if (rail.pool != null) {
            rail.pool.takeBlocks(rail);
        }
    }

    /**
     * The transport is closed or broken: fail the rail over and let it go. When the fabric says the whole peer is
     * lost, no other rail to it will do better, so every queue pair connected (or connecting) to that peer fails
     * now, as the peer timeout would have failed it later: its oldest request with
     * {@link CompletionStatus#RETRY_EXCEEDED_ERROR}, the rest flushed.
     */
    @Override
    public void closed(Rail rail, RailClosedException cause) {
        PeerPool pool = rail.pool;
        lastClosure = cause;
        rail.fail(Rail.State.CLOSED);
        rail.transport.close();
        if (cause.peerLost() && pool != null) {
            for (QpCore qp : engine.qps.all()) {
                if (qp.pool == pool && (qp.state() == QpState.READY || qp.state() == QpState.CONNECTING)) {
                    qp.sender().fail(CompletionStatus.RETRY_EXCEEDED_ERROR);
                }
            }
        }
    }
}
