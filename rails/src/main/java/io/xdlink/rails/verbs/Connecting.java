package io.xdlink.rails.verbs;

/**
 * A connection on its way: poll it (never blocks) until it yields the connected queue pair or throws why it could
 * not be made. The queue pair exists from the start ({@link #queuePair()}), so receives may be posted before the
 * peer answers.
 */
public final class Connecting {
    private final QueuePair qp;

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
        if (qp.core().isConnected()) {
            return qp;
        }
        String f = qp.core().failure();
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
        if (!qp.core().isConnected() && qp.core().failure() == null) {
            qp.close();
        }
    }

    boolean isDone() {
        return qp.core().isConnected() || qp.core().failure() != null;
    }
}
