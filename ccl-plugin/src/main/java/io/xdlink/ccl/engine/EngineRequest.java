package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;
import io.xdlink.ccl.Request;

/**
 * A request of one connection end; testing it drives that end's progress, unless the end is quiet
 * ({@link Attention}) and the request was not finished at the end's last look, which a host polling in a loop
 * mostly meets: then the answer is "not done" without the end's lock.
 */
public abstract sealed class EngineRequest implements Request permits SendRequest, RecvRequest {
    private volatile boolean finished;
    private volatile Runnable onFinish;

    /**
     * True once done, with the bytes moved in {@code sizes} (may be null); a done request is released and a
     * second test of it is the caller's error.
     */
    public abstract boolean test(long[] sizes) throws CclException;

    /** How many sizes a done test reports: 1 for a send, the buffer count for a receive. */
    public abstract int sizeCount();

    /** The attention of the end this request belongs to. */
    public abstract Attention attention();

    /** True once the request is done or failed (it may not have been reported by a test yet). */
    public final boolean finished() {
        return finished;
    }

    /** True when a test now would surely answer "not done": nothing finished it and its end has nothing new. */
    final boolean surelyPending() {
        return !finished && attention().quiet();
    }

    /**
     * Runs {@code listener} when the request finishes (done or failed), under its end's lock, or at once if it has
     * already; set while the request finishes, it may run twice, so it must be idempotent. For a native mirror of
     * the request's state; it must be quick and must not throw.
     */
    public final void onFinish(Runnable listener) {
        onFinish = listener;
        if (finished) {
            listener.run();
        }
    }

    /** Marks the request finished; its end calls this under its lock, before it settles its attention. */
    final void finish() {
        if (finished) {
            return;
        }
        finished = true;
        Runnable l = onFinish;
        if (l != null) {
            l.run();
        }
    }
}
