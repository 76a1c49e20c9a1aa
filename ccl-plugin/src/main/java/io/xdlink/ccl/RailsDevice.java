package io.xdlink.ccl;

import io.xdlink.ccl.engine.Connection;
import io.xdlink.ccl.engine.Device;
import io.xdlink.rails.verbs.CompletionQueue;
import io.xdlink.rails.verbs.ConnectHandle;
import io.xdlink.rails.verbs.Connecting;
import io.xdlink.rails.verbs.ConnectionFailedException;
import io.xdlink.rails.verbs.HandleFormatException;
import io.xdlink.rails.verbs.ProtectionDomain;
import io.xdlink.rails.verbs.QpAttributes;
import io.xdlink.rails.verbs.QueuePair;

import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * One plugin device over rails devices: connections to one peer, all of whose rails the rails device pools. On a
 * real host listening and connecting both use this host's rails device. A loopback device listens on the simulated
 * peer's rails device (the far end of the simulated cable) and connects from this host's, so two ranks in one
 * process meet across the cable and pay its bandwidth and latency.
 */
final class RailsDevice implements Device {
    private static final int CQ_CAPACITY = 2 * RailsConnection.QUEUE_DEPTH;

    private final End connectSide;
    private final End listenSide;
    private final UUID expectedListener;
    private final String name;
    /** {@code ccl_drain_on_progress}, for every connection this device makes. */
    private final boolean drainOnProgress;

    /** One rails device with its protection domain, and who may step its engine ({@link EngineTurn}). */
    record End(io.xdlink.rails.verbs.Device device, ProtectionDomain pd, EngineTurn turn) {
        /** A device whose engine runs on its own progress thread. */
        static End of(io.xdlink.rails.verbs.Device device) {
            return of(device, EngineTurn.NONE);
        }

        static End of(io.xdlink.rails.verbs.Device device, EngineTurn turn) {
            return new End(device, device.allocPd(), turn);
        }

        CompletionQueue newCq() {
            return device.createCq(CQ_CAPACITY);
        }

        QpAttributes attributes(CompletionQueue cq) {
            return attributes(cq, cq);
        }

        QpAttributes attributes(CompletionQueue sendCq, CompletionQueue recvCq) {
            return new QpAttributes(pd, sendCq, recvCq, RailsConnection.QUEUE_DEPTH, RailsConnection.QUEUE_DEPTH);
        }
    }

    /**
     * @param connectSide      where connections start: this host's rails device
     * @param listenSide       where listeners live: this host's, or the simulated peer's for a loopback device
     * @param expectedListener the rails device a handle given to {@link #connect} must name
     */
    RailsDevice(End connectSide, End listenSide, UUID expectedListener, String name, boolean drainOnProgress) {
        this.drainOnProgress = drainOnProgress;
        this.connectSide = connectSide;
        this.listenSide = listenSide;
        this.expectedListener = expectedListener;
        this.name = name;
    }

    @Override
    public Listener listen() throws CclException {
        io.xdlink.rails.verbs.Listener listener;
        try {
            listener = listenSide.device().listen();
        } catch (RuntimeException e) {
            throw CclException.system(name + ": cannot listen: " + e.getMessage(), e);
        }
        return new Listener() {
            // A receive end's advertisement sends complete on a queue of their own, which announces nothing: only
            // its receives can finish a request (RailsConnection).
            private CompletionQueue spare = listenSide.newCq();
            private CompletionQueue spareSend = listenSide.newCq();

            @Override
            public byte[] address() {
                return listener.handle().toBytes();
            }

            @Override
            public synchronized Connection accept() throws CclException {
                QueuePair qp;
                try {
                    qp = listener.accept(listenSide.attributes(spareSend, spare));
                } catch (RuntimeException e) {
                    throw CclException.system(name + ": accept failed: " + e.getMessage(), e);
                }
                if (qp == null) {
                    return null;
                }
                CompletionQueue cq = spare;
                CompletionQueue sendCq = spareSend;
                spare = listenSide.newCq();
                spareSend = listenSide.newCq();
                return new RailsConnection(qp, sendCq, cq, true, drainOnProgress, listenSide.turn());
            }

            @Override
            public void close() {
                listener.close();
            }
        };
    }

    @Override
    public PendingConnection connect(byte[] address) throws CclException {
        ConnectHandle handle;
        try {
            handle = ConnectHandle.parse(address);
        } catch (HandleFormatException e) {
            throw CclException.internal(name + ": the handle's listener address is malformed: " + e.getMessage());
        }
        if (expectedListener != null && !expectedListener.equals(handle.device())) {
            throw CclException.internal(name + ": the handle names rails device " + handle.device()
                    + ", but this device leads to " + expectedListener);
        }
        CompletionQueue cq = connectSide.newCq();
        Connecting connecting;
        try {
            connecting = connectSide.device().connect(handle, connectSide.attributes(cq));
        } catch (RuntimeException e) {
            throw CclException.system(name + ": cannot connect: " + e.getMessage(), e);
        }
        return new PendingConnection() {
            private boolean handedOut;

            @Override
            public Connection poll() throws CclException {
                QueuePair qp;
                try {
                    qp = connecting.poll();
                } catch (ConnectionFailedException e) {
                    throw CclException.system(name + ": connection failed: " + e.getMessage(), e);
                }
                if (qp == null) {
                    return null;
                }
                handedOut = true;
                return new RailsConnection(qp, cq, cq, false, drainOnProgress, connectSide.turn());
            }

            @Override
            public void close() {
                if (!handedOut) {
                    connecting.cancel();
                }
            }
        };
    }

    /** How long finalize waits for a device's owed acknowledgements to leave. */
    private static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    @Override
    public void settle() {
        connectSide.device().acknowledgeNow(SETTLE_NANOS);
        if (listenSide.device() != connectSide.device()) {
            listenSide.device().acknowledgeNow(SETTLE_NANOS);
        }
    }

    @Override
    public void close() {
        // The rails devices are shared by every plugin device of the fabric; RailsDevices closes them.
    }
}
