package io.xdlink.rails.engine;

/**
 * The device-wide limit on data in flight ({@code inflight_bytes}): bytes sent on any rail and not yet settled
 * (acknowledged, or written off as lost and queued again), and the frames posted but not yet sent. A frame may go
 * while the bytes in flight and its own stay within the limit, and always when nothing is in flight, so a frame
 * larger than the limit still moves. Engine thread only; plain fields, read on every frame a pool sends.
 */
final class InflightBudget {
    private final long limit;
    private long bytes;
    private long maxBytes;
    private long queuedFrames;

    InflightBudget(long limit) {
        this.limit = limit;
    }

    /** Data frames of {@code n} bytes in all went out. */
    void sent(long n) {
        bytes += n;
        if (bytes > maxBytes) {
            maxBytes = bytes;
        }
    }

    /** Data frames of {@code n} bytes in all were settled: delivered, or lost and handed back to be sent again. */
    void settled(long n) {
        bytes -= n;
    }

    boolean allows(int len) {
        return bytes == 0 || bytes + len <= limit;
    }

    /** How many frames of {@code len} bytes {@link #allows} lets go one after another now. */
    long room(int len) {
        if (bytes == 0) {
            return Math.max(1, limit / len);
        }
        return Math.max(0, (limit - bytes) / len);
    }

    /** {@code frames} more were posted (or, negative, sent or dropped unsent). */
    void queued(long frames) {
        queuedFrames += frames;
    }

    /** Frames posted and not yet sent, on every rail: the last one to leave asks for an ACK. */
    long queuedFrames() {
        return queuedFrames;
    }

    long bytes() {
        return bytes;
    }

    /** The most bytes ever in flight at once. */
    long maxBytes() {
        return maxBytes;
    }
}
