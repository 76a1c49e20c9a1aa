package io.xdlink.rails.verbs;

/**
 * A connection on its way: poll it (never blocks) until it yields the connected queue pair or throws why it could
 * not be made. The queue pair exists from the start ({@link #queuePair()}), so receives may be posted before the
 * peer answers.
 */
public final class Connecting {
    private final QueuePair qp;
    private volatile boolean connected;
    private volatile String failure;

    Connecting(QueuePair qp) {
        this.qp = qp;
    }

    /**
     * The connected queue pair, or null while the peer has not answered.
     *
     * @throws ConnectionFailedException when the connection cannot be made (no such listener, backlog full,
     *                                   timeout, device closed)
     */
    public QueuePair poll() throws ConnectionFailedException {
        if (connected) {
            return qp;
        }
        String f = failure;
        if (f != null) {
            throw new ConnectionFailedException(f);
        }
        return null;
    }

    /** The queue pair being connected. */
    public QueuePair queuePair() {
        return qp;
    }

    /** Gives up: the queue pair is closed. */
    public void cancel() {
        if (!connected && failure == null) {
            qp.close();
        }
    }

    void connected() {
        connected = true;
    }

    void fail(String why) {
        if (!connected && failure == null) {
            failure = why;
        }
    }

    boolean isDone() {
        return connected || failure != null;
    }
}
