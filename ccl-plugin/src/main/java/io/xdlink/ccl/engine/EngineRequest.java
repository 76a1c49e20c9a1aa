package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;
import io.xdlink.ccl.Request;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A request of one connection end; testing it drives that end's progress, unless the end is quiet
 * ({@link Attention}) and the request was not finished at the end's last look, which a host polling in a loop
 * mostly meets: then the answer is "not done" without the end's lock. A native mirror that reports the request done
 * to its host by itself says so through {@link #reportableAt}; the request then counts as tested and released.
 */
public abstract sealed class EngineRequest implements Request permits IsendRequest, IrecvRequest {
    private static final VarHandle WORD = JAVA_LONG.varHandle();
    private volatile boolean finished;
    private volatile FinishListener onFinish;
    /** Where a native mirror says it reported this request done by itself, and the word that says so. */
    private volatile MemorySegment reportWord;
    private long reportOffset;
    private long reportedValue;
    private volatile boolean reported;
    /** The end this request belongs to. */
    final Endpoint endpoint;
    /** Why the request failed, or null; guarded by its end's lock. */
    String error;
    /** True once a test reported it done or failed; guarded by its end's lock. */
    boolean released;

    EngineRequest(Endpoint endpoint) {
        this.endpoint = endpoint;
    }

    /**
     * True once done, with the bytes moved in {@code sizes} (may be null); a done request is released and a
     * second test of it is the caller's error.
     */
    public final boolean test(long[] sizes) throws CclException {
        return !surelyPending() && endpoint.test(this, sizes);
    }

    /** True once every byte of the request moved; guarded by its end's lock. */
    abstract boolean done();

    /** How many sizes a done test reports: 1 for a send, the buffer count for a receive. */
    public abstract int sizeCount();

    /** Bytes buffer {@code i} moved; meaningful once finished without {@link #failed()}. */
    public abstract long size(int i);

    /** True when the request finished with an error; read under its end's lock, as by an {@link #onFinish} listener. */
    public final boolean failed() {
        return error != null;
    }

    /** The attention of the end this request belongs to. */
    public final Attention attention() {
        return endpoint.attention;
    }

    /** True once the request is done or failed (it may not have been reported by a test yet). */
    public final boolean finished() {
        return finished;
    }

    /** True when a test now would surely answer "not done": nothing finished it and its end has nothing new. */
    final boolean surelyPending() {
        return !finished && attention().quiet();
    }

    /** What runs when a request finishes; one listener serves every request, so publishing one allocates nothing. */
    @FunctionalInterface
    public interface FinishListener {
        void finished(EngineRequest request);
    }

    /**
     * Runs {@code listener} when the request finishes (done or failed), under its end's lock, or at once if it has
     * already; set while the request finishes, it may run twice, so it must be idempotent. For a native mirror of
     * the request's state; it must be quick and must not throw.
     */
    public final void onFinish(FinishListener listener) {
        onFinish = listener;
        if (finished) {
            listener.finished(this);
        }
    }

    /**
     * Says that a native mirror may report this request done to its host without {@link #test}: once the 64-bit
     * word at {@code offset} of {@code segment} reads {@code reportedValue}, the request counts as tested and
     * released, so its end may reuse what it held (a receive slot) without a test reaching Java.
     */
    public final void reportableAt(MemorySegment segment, long offset, long reportedValue) {
        this.reportOffset = offset;
        this.reportedValue = reportedValue;
        this.reportWord = segment;
    }

    /** The segment of the word {@link #reportableAt} named, or null. */
    public final MemorySegment reportWord() {
        return reportWord;
    }

    /** The offset of that word. */
    public final long reportOffset() {
        return reportOffset;
    }

    /** The value that word holds once the mirror reported the request done. */
    public final long reportedValue() {
        return reportedValue;
    }

    /**
     * Records for good that the native mirror reported this request done, before the mirror's word is reused:
     * the request stays released after that.
     */
    public final void markReported() {
        reported = true;
    }

    /** True once a native mirror reported this request done by itself ({@link #reportableAt}). */
    final boolean reportedElsewhere() {
        if (reported) {
            return true;
        }
        MemorySegment word = reportWord;
        return word != null && (long) WORD.getAcquire(word, reportOffset) == reportedValue;
    }

    /** Marks the request finished; its end calls this under its lock, before it settles its attention. */
    final void finish() {
        if (finished) {
            return;
        }
        finished = true;
        FinishListener l = onFinish;
        if (l != null) {
            l.finished(this);
        }
    }
}
