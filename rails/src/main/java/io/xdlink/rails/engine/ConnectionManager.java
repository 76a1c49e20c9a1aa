package io.xdlink.rails.engine;

import io.xdlink.rails.frame.FrameView;
import io.xdlink.rails.frame.RejectReason;
import io.xdlink.rails.verbs.CompletionStatus;
import io.xdlink.rails.verbs.ConnectHandle;
import io.xdlink.rails.verbs.Listener;
import io.xdlink.rails.verbs.QpState;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Connection set-up over the rails themselves, on the engine's thread. A connecting queue pair sends
 * CONNECT_REQUEST (a random connection id, the listener's id, its own number and windows) on a rail of the target
 * device's pool and repeats it until the answer comes or the connect timeout passes; the listener side queues the
 * request for {@link Listener#accept}, answers with CONNECT_REPLY once accepted, and answers repeats of an accepted
 * request again, so a lost answer costs one retry.
 */
final class ConnectionManager {
    private record Key(UUID peer, long connId) {
    }

    /** A listener and the requests waiting for its accept: the engine adds them, the listener's accept takes them. */
    record Listening(Listener listener, Queue<PendingConnection> backlog) {
    }

    private final DeviceEngine engine;
    final Map<Integer, Listening> listeners = new ConcurrentHashMap<>();
    private final Map<Long, QpCore> connecting = new HashMap<>();
    private final Map<QpCore, ConnectHandle> targets = new HashMap<>();
    private final Map<QpCore, long[]> times = new HashMap<>();
    private final Map<Key, Listener> pending = new HashMap<>();
    private final Map<Key, QpCore> accepted = new HashMap<>();

    ConnectionManager(DeviceEngine engine) {
        this.engine = engine;
    }

    private long retryInterval() {
        return Math.max(4 * engine.settings.retransmitNanos(), 1_000_000);
    }

    /** A queue pair starts connecting to {@code target}. */
    void connect(QpCore qp, ConnectHandle target, long now) {
        long connId;
        do {
            connId = engine.random.nextLong();
        } while (connId == 0 || connecting.containsKey(connId));
        qp.connId = connId;
        connecting.put(connId, qp);
        targets.put(qp, target);
        times.put(qp, new long[] {now + engine.settings.connectTimeoutNanos(), now});
        PeerPool pool = engine.registry.pool(target.device());
        if (pool != null && pool.hasUpRail()) {
            send(qp, pool, target);
        }
        engine.armTimer(now + retryInterval());
    }

    private void send(QpCore qp, PeerPool pool, ConnectHandle target) {
        qp.pool = pool;
        pool.connectRequest(qp.connId, target.listenerId(), qp.qpn(), qp.receiver().maxMessages,
                qp.receiver().psnWindow);
    }

    /** Retries and timeouts; returns the next deadline. */
    long onTimer(long now) {
        long next = Long.MAX_VALUE;
        for (Iterator<Map.Entry<QpCore, long[]>> it = times.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<QpCore, long[]> e = it.next();
            QpCore qp = e.getKey();
            long[] t = e.getValue();
            if (now >= t[0]) {
                it.remove();
                connecting.remove(qp.connId);
                targets.remove(qp);
                failConnect(qp, "no answer from " + targetOf(qp) + " within the connect timeout");
                continue;
            }
            if (now - t[1] >= retryInterval()) {
                t[1] = now;
                ConnectHandle target = targets.get(qp);
                PeerPool pool = engine.registry.pool(target.device());
                if (pool != null && pool.hasUpRail()) {
                    send(qp, pool, target);
                }
            }
            next = Math.min(next, Math.min(t[0], t[1] + retryInterval()));
        }
        return next;
    }

    private String targetOf(QpCore qp) {
        ConnectHandle h = targets.get(qp);
        return h == null ? "the listener" : "listener " + h.listenerId() + " on " + h.device();
    }

    /** A pool came up: connects waiting for it go out now. */
    void poolUp(PeerPool pool) {
        for (Map.Entry<QpCore, ConnectHandle> e : targets.entrySet()) {
            if (e.getValue().device().equals(pool.peer) && e.getKey().pool == null) {
                send(e.getKey(), pool, e.getValue());
            }
        }
    }

    void onRequest(PeerPool pool, FrameView v) {
        Key key = new Key(pool.peer, v.connId());
        QpCore done = accepted.get(key);
        if (done != null) {
            reply(done, v.connId(), v.connSrcQpn());
            return;
        }
        if (pending.containsKey(key)) {
            return;
        }
        Listening l = listeners.get(v.connListener());
        if (l == null || l.listener().isClosed()) {
            pool.connectReject(v.connId(), RejectReason.NO_LISTENER);
            return;
        }
        if (l.backlog().size() >= engine.settings.listenBacklog()) {
            pool.connectReject(v.connId(), RejectReason.BACKLOG_FULL);
            return;
        }
        pending.put(key, l.listener());
        l.backlog().add(new PendingConnection(pool, v.connId(), v.connSrcQpn(), v.connMaxMessages(),
                v.connPsnWindow()));
    }

    /** {@link Listener#accept} made {@code qp} for request {@code p}: connect it and answer. */
    void accept(QpCore qp, PendingConnection p, long now) {
        Key key = new Key(p.pool().peer, p.connId());
        pending.remove(key);
        if (qp.state() != QpState.CONNECTING) {
            return;
        }
        qp.connId = p.connId();
        accepted.put(key, qp);
        connected(qp, p.pool(), p.srcQpn(), p.maxMessages(), p.psnWindow(), now);
        reply(qp, p.connId(), p.srcQpn());
    }

    private void reply(QpCore qp, long connId, int requester) {
        if (qp.pool != null && qp.state() == QpState.READY) {
            qp.pool.connectReply(connId, requester, qp.qpn(), qp.receiver().maxMessages, qp.receiver().psnWindow);
        }
    }

    void onReply(PeerPool pool, FrameView v, long now) {
        QpCore qp = connecting.get(v.connId());
        if (qp == null || !Objects.equals(targets.get(qp).device(), pool.peer) || v.connDstQpn() != qp.qpn()) {
            return;
        }
        forget(qp);
        connected(qp, pool, v.connSrcQpn(), v.connMaxMessages(), v.connPsnWindow(), now);
    }

    void onReject(PeerPool pool, FrameView v) {
        QpCore qp = connecting.get(v.connId());
        if (qp == null || !Objects.equals(targets.get(qp).device(), pool.peer)) {
            return;
        }
        forget(qp);
        failConnect(qp, "refused by " + pool.peer + ": " + v.rejectReason());
    }

    private void forget(QpCore qp) {
        connecting.remove(qp.connId);
        targets.remove(qp);
        times.remove(qp);
    }

    /** A queue pair is gone: forget its set-up state. */
    void closed(QpCore qp) {
        if (connecting.get(qp.connId) == qp) {
            forget(qp);
        }
        accepted.values().remove(qp);
    }

    /** A listener starts listening: requests for it join {@code backlog}. */
    void listen(Listener l, Queue<PendingConnection> backlog) {
        listeners.put(l.id(), new Listening(l, backlog));
    }

    /**
     * A listener closed: its waiting requests ({@code backlog}) are dropped (their connects will be refused on
     * retry).
     */
    void listenerClosed(Listener l, Queue<PendingConnection> backlog) {
        listeners.remove(l.id());
        pending.values().removeIf(x -> x == l);
        backlog.clear();
    }

    /** Every connect in progress fails (the device is closing). */
    void failAll(String why) {
        List<QpCore> all = new ArrayList<>(targets.keySet());
        for (QpCore qp : all) {
            forget(qp);
            failConnect(qp, why);
        }
    }

    /** The queue pair is connected to {@code peerQpn} of the pool's peer, which takes up to the limits it sent. */
    private void connected(QpCore qp, PeerPool pool, int peerQpn, int maxMessages, int psnWindow, long at) {
        qp.pool = pool;
        qp.peerQpn = peerQpn;
        qp.peerDevice(pool.peer);
        qp.sender().peerMaxMessages = Math.max(1, maxMessages);
        qp.sender().peerPsnWindow = Math.min(psnWindow, engine.settings.qpPsnWindow());
        if (qp.state() == QpState.CONNECTING) {
            qp.state(QpState.READY);
            qp.sender().onReady(at);
        }
        if (qp.connecting) {
            qp.connected();
        }
    }

    private void failConnect(QpCore qp, String why) {
        if (qp.connecting) {
            qp.fail(why);
        }
        qp.error(CompletionStatus.WR_FLUSH_ERROR, null);
    }
}
