package io.xdlink.rails.engine;

import io.xdlink.rails.verbs.CompletionQueue;
import io.xdlink.rails.verbs.CompletionStatus;
import io.xdlink.rails.verbs.Connecting;
import io.xdlink.rails.verbs.ProtectionDomain;
import io.xdlink.rails.verbs.QpAttributes;
import io.xdlink.rails.verbs.QpState;
import io.xdlink.rails.verbs.QueuePair;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A queue pair as the engine keeps it: its sending and receiving halves ({@link QpSender}, {@link QpReceiver}), the
 * pool and the peer's queue pair it is connected to, its state, and how a connect it was made by ended. The
 * application holds a {@link QueuePair}, which posts to the engine and reads its state here; the engine changes it
 * on its own thread. The two share the queue pair's number, protection domain, completion queues and the counts of
 * requests outstanding (the handle counts a post up, the engine counts a completion down).
 */
public final class QpCore {
    private final int qpn;
    private final ProtectionDomain pd;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final AtomicInteger sendOutstanding;
    private final AtomicInteger recvOutstanding;
    private volatile QpState state = QpState.CONNECTING;
    private volatile UUID peerDevice;

    PeerPool pool;
    int peerQpn;
    long connId;
    private final QpSender sender;
    private final QpReceiver receiver;

    /** Whether {@code connect} made it: then a {@link Connecting} polls how the connect ended. */
    boolean connecting;
    private volatile boolean connected;
    private volatile String failure;

    QpCore(DeviceEngine engine, int qpn, QpAttributes attrs, int maxSendWr, int maxRecvWr,
           AtomicInteger sendOutstanding, AtomicInteger recvOutstanding) {
        this.qpn = qpn;
        this.pd = attrs.pd();
        this.sendCq = attrs.sendCq();
        this.recvCq = attrs.recvCq();
        this.sendOutstanding = sendOutstanding;
        this.recvOutstanding = recvOutstanding;
        this.sender = new QpSender(this, engine, maxSendWr);
        // The message table is what the peer may have in flight toward us: at least the device's default.
        this.receiver = new QpReceiver(this, engine, Math.max(maxSendWr, engine.settings.qpMaxSendWr()),
                engine.settings.qpPsnWindow(), maxRecvWr);
    }

    /** This queue pair's number on its device. */
    public int qpn() {
        return qpn;
    }

    public QpState state() {
        return state;
    }

    /** The peer device, once connected. */
    public UUID peerDevice() {
        return peerDevice;
    }

    /** The peer's queue pair number, once connected; 0 before. */
    public int peerQpn() {
        return peerQpn;
    }

    ProtectionDomain pd() {
        return pd;
    }

    CompletionQueue sendCq() {
        return sendCq;
    }

    CompletionQueue recvCq() {
        return recvCq;
    }

    QpSender sender() {
        return sender;
    }

    QpReceiver receiver() {
        return receiver;
    }

    void state(QpState s) {
        this.state = s;
    }

    void peerDevice(UUID peer) {
        this.peerDevice = peer;
    }

    void sendDone() {
        sendOutstanding.decrementAndGet();
    }

    void recvDone() {
        recvOutstanding.decrementAndGet();
    }

    /**
     * Moves to the error state: {@code culprit} (if any) completes with {@code status}, everything else outstanding
     * is flushed. Engine thread only.
     */
    void error(CompletionStatus status, SendRequest culprit) {
        if (state == QpState.ERROR || state == QpState.CLOSED) {
            return;
        }
        state = QpState.ERROR;
        sender.flush(culprit, status);
        receiver.flush();
        if (connecting) {
            fail("queue pair " + qpn + " failed: " + status);
        }
    }

    // ---------------------------------------------------------------- how a connect ends

    /** {@code connect} made this queue pair: how the connect ends is kept for its {@link Connecting}. */
    public void madeByConnect() {
        connecting = true;
    }

    /** Whether the connect this queue pair was made by has connected it. */
    public boolean isConnected() {
        return connected;
    }

    /** Why the connect this queue pair was made by failed, or null while it has not. */
    public String failure() {
        return failure;
    }

    void connected() {
        connected = true;
    }

    void fail(String why) {
        if (!connected && failure == null) {
            failure = why;
        }
    }
}
