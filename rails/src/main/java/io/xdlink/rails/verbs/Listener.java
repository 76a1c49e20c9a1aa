package io.xdlink.rails.verbs;

import io.xdlink.rails.engine.PendingConnection;

import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Waits for connection requests arriving over the device's rails. Its {@link #handle()} tells a peer where to
 * connect; {@link #accept} (never blocks) turns the next request into a connected queue pair, or returns null when
 * none is waiting. Requests beyond the backlog are refused, and the requester's connect fails.
 */
public final class Listener implements AutoCloseable {
    private final Device device;
    private final int id;
    /** Requests the engine has received and not yet handed to {@link #accept}: the engine adds, accept takes. */
    final ConcurrentLinkedQueue<PendingConnection> backlog = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;

    Listener(Device device, int id) {
        this.device = device;
        this.id = id;
    }

    /** The listener's small id on its device, never 0. */
    public int id() {
        return id;
    }

    /** Where to connect: this device's identity and the listener's id. */
    public ConnectHandle handle() {
        return new ConnectHandle(device.id(), id);
    }

    /**
     * A queue pair for the next waiting request, already answered and connected (its state turns READY when the
     * progress engine has sent the answer; requests may be posted at once), or null when no request waits.
     *
     * @throws IllegalStateException when the listener or its device is closed
     */
    public QueuePair accept(QpAttributes attrs) {
        if (closed || device.isClosed()) {
            throw new IllegalStateException("listener " + id + " is closed");
        }
        PendingConnection p = backlog.poll();
        if (p == null) {
            return null;
        }
        return device.accept(attrs, p);
    }

    /** Requests waiting to be accepted. */
    public int waiting() {
        return backlog.size();
    }

    public boolean isClosed() {
        return closed;
    }

    /** Stops listening; waiting requests are dropped and their connects time out or are refused. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            device.closeListener(this);
        }
    }
}
