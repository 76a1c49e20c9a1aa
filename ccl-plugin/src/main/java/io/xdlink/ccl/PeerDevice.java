package io.xdlink.ccl;

import io.xdlink.ccl.engine.RecvEndpoint;
import io.xdlink.ccl.engine.SendEndpoint;
import io.xdlink.rails.verbs.CompletionQueue;
import io.xdlink.rails.verbs.ConnectHandle;
import io.xdlink.rails.verbs.Connecting;
import io.xdlink.rails.verbs.ConnectionFailedException;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.HandleFormatException;
import io.xdlink.rails.verbs.Listener;
import io.xdlink.rails.verbs.ProtectionDomain;
import io.xdlink.rails.verbs.QpAttributes;
import io.xdlink.rails.verbs.QueuePair;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One plugin device (what the host counts with {@code devices()}) over rails devices: the links to one peer, which
 * its properties describe. Listening yields receive ends and connecting send ends, each over a rails queue pair of
 * its own. On a real host listening and connecting both use this host's rails device, which has rails
 * to every peer, so a connect on any device reaches whichever peer listened ({@link Reach}). A loopback device
 * listens on the simulated peer's rails device (the far end of the simulated cable) and connects from this host's,
 * so two ranks in one process meet across the cable and pay its bandwidth and latency.
 */
final class PeerDevice {
    /** Send-queue and receive-queue room of every queue pair: a receive end's writes and messages, twice over. */
    static final int QUEUE_DEPTH = 2 * RecvEndpoint.IMMEDIATE_RECEIVES + 2 * CclNet.MAX_REQUESTS;
    private static final int CQ_CAPACITY = 2 * QUEUE_DEPTH;
    /** How long finalize waits for a device's owed acknowledgements to leave. */
    private static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final int index;
    private final End connectSide;
    private final End listenSide;
    private final Reach reach;
    private final String name;
    /** {@code ccl_drain_on_progress}, for every end this device makes. */
    private final boolean drainOnProgress;

    /**
     * Which listening rails devices a connect on this device may name. A collective library takes its devices for
     * ports of one switched network: in a ring of three hosts it connects on device 0 to whichever rank comes next,
     * though device 0 is the cable to one peer. A real host's devices share its one rails device, which has rails to
     * every peer, so the connect goes over the cable to the peer that listened; a loopback device reaches only its
     * own simulated peer.
     *
     * @param allows   whether a handle naming this rails device may be connected to
     * @param describe what this device reaches, for the refusal
     */
    record Reach(Predicate<UUID> allows, Supplier<String> describe) {
        /** Only {@code listener}'s rails device. */
        static Reach only(UUID listener) {
            return new Reach(listener::equals, listener::toString);
        }

        /** Any peer in {@code peers}, as the set stands when a connect asks. */
        static Reach anyOf(Set<UUID> peers) {
            return new Reach(peers::contains, () -> "this host's peers " + peers);
        }
    }

    /** One rails device with its protection domain, and who may step its engine ({@link EngineTurn}). */
    record End(Device device, ProtectionDomain pd, EngineTurn turn) {
        /** A device whose engine runs on its own progress thread, or is stepped by its owner. */
        static End of(Device device) {
            return of(device, EngineTurn.NONE);
        }

        static End of(Device device, EngineTurn turn) {
            return new End(device, device.allocPd(), turn);
        }

        CompletionQueue newCq() {
            return device.createCq(CQ_CAPACITY);
        }

        QpAttributes attributes(CompletionQueue sendCq, CompletionQueue recvCq) {
            return new QpAttributes(pd, sendCq, recvCq, QUEUE_DEPTH, QUEUE_DEPTH);
        }
    }

    /**
     * @param index            the device's number, as the host counts devices
     * @param peerName         the name of the peer it leads to, for messages
     * @param connectSide      where connections start: this host's rails device
     * @param listenSide       where listeners live: this host's, or the simulated peer's for a loopback device
     * @param reach            the rails devices a handle given to {@link #connect} may name
     * @param drainOnProgress  {@code ccl_drain_on_progress}
     */
    PeerDevice(int index, String peerName, End connectSide, End listenSide, Reach reach, boolean drainOnProgress) {
        this.index = index;
        this.name = "device " + index + " (" + peerName + ")";
        this.connectSide = connectSide;
        this.listenSide = listenSide;
        this.reach = reach;
        this.drainOnProgress = drainOnProgress;
    }

    /** Makes an end over a queue pair that just became ready, or passes null on; closes the queue pair on failure. */
    @FunctionalInterface
    private interface EndOver<T> {
        T make(QueuePair qp) throws CclException;
    }

    private static <T> T endOver(QueuePair qp, EndOver<T> end) throws CclException {
        if (qp == null) {
            return null;
        }
        try {
            return end.make(qp);
        } catch (CclException | RuntimeException e) {
            qp.close();
            throw e;
        }
    }

    /** Listens for connections; the address goes to the peer inside the host's handle. */
    Listening listen() throws CclException {
        try {
            return new Listening(listenSide.device().listen());
        } catch (RuntimeException e) {
            throw CclException.system(name + ": cannot listen: " + e.getMessage(), e);
        }
    }

    /** A listening rails endpoint, whose connections become receive ends. */
    final class Listening implements AutoCloseable {
        private final Listener listener;
        // A receive end's advertisement sends complete on a queue of their own, which announces nothing: only its
        // receives can finish a request (RecvEndpoint).
        private CompletionQueue spare = listenSide.newCq();
        private CompletionQueue spareSend = listenSide.newCq();

        private Listening(Listener listener) {
            this.listener = listener;
        }

        /** The listener's address, at most {@link ListenHandle#MAX_ADDRESS_BYTES}. */
        byte[] address() {
            return listener.handle().toBytes();
        }

        /** The next connection that has arrived and is ready, as a receive end, or null. */
        synchronized RecvEndpoint accept() throws CclException {
            QueuePair qp;
            try {
                qp = listener.accept(listenSide.attributes(spareSend, spare));
            } catch (RuntimeException e) {
                throw CclException.system(name + ": accept failed: " + e.getMessage(), e);
            }
            if (qp != null) {
                spare = listenSide.newCq();
                spareSend = listenSide.newCq();
            }
            return endOver(qp, q -> new RecvEndpoint(index, q, listenSide.turn(), drainOnProgress));
        }

        @Override
        public void close() {
            listener.close();
        }
    }

    /** Starts connecting to the listener at {@code address}. */
    Dialing connect(byte[] address) throws CclException {
        ConnectHandle handle;
        try {
            handle = ConnectHandle.parse(address);
        } catch (HandleFormatException e) {
            throw CclException.internal(name + ": the handle's listener address is malformed: " + e.getMessage());
        }
        if (!reach.allows().test(handle.device())) {
            throw CclException.internal(name + ": the handle names rails device " + handle.device()
                    + ", but this device leads to " + reach.describe().get());
        }
        CompletionQueue cq = connectSide.newCq();
        try {
            return new Dialing(connectSide.device().connect(handle, connectSide.attributes(cq, cq)));
        } catch (RuntimeException e) {
            throw CclException.system(name + ": cannot connect: " + e.getMessage(), e);
        }
    }

    /** A connection being set up, which becomes a send end. */
    final class Dialing implements AutoCloseable {
        private final Connecting connecting;
        private boolean handedOut;

        private Dialing(Connecting connecting) {
            this.connecting = connecting;
        }

        /** The send end once the connection is ready, else null. */
        SendEndpoint poll() throws CclException {
            QueuePair qp;
            try {
                qp = connecting.poll();
            } catch (ConnectionFailedException e) {
                throw CclException.system(name + ": connection failed: " + e.getMessage(), e);
            }
            handedOut = qp != null;
            return endOver(qp, q -> new SendEndpoint(index, q, connectSide.turn(), drainOnProgress));
        }

        /** Abandons the attempt (or does nothing once the send end was handed out). */
        @Override
        public void close() {
            if (!handedOut) {
                connecting.cancel();
            }
        }
    }

    /**
     * Sends what the rails devices owe their peers now (acknowledgements of what arrived) and waits briefly until it
     * has gone; for a host that may exit right after.
     */
    void settle() {
        connectSide.device().acknowledgeNow(SETTLE_NANOS);
        if (listenSide.device() != connectSide.device()) {
            listenSide.device().acknowledgeNow(SETTLE_NANOS);
        }
    }
}
