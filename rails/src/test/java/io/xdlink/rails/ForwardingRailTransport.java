package io.xdlink.rails;

import java.lang.foreign.MemorySegment;

/**
 * A rail that hands every call to another, for tests that watch or break one thing about a real transport and
 * leave the rest as it is: subclasses override only what they change.
 */
public abstract class ForwardingRailTransport implements RailTransport {
    protected final RailTransport inner;

    protected ForwardingRailTransport(RailTransport inner) {
        this.inner = inner;
    }

    @Override
    public RailInfo info() {
        return inner.info();
    }

    @Override
    public boolean offer(int length, FrameWriter writer) {
        return inner.offer(length, writer);
    }

    @Override
    public int offerRun(int headLength, FrameRun run, MemorySegment payload, int count) {
        return inner.offerRun(headLength, run, payload, count);
    }

    @Override
    public int poll(FrameReceiver receiver, int limit) {
        return inner.poll(receiver, limit);
    }

    @Override
    public int flush() {
        return inner.flush();
    }

    @Override
    public void onArrival(Runnable wake) {
        inner.onArrival(wake);
    }

    @Override
    public boolean isOpen() {
        return inner.isOpen();
    }

    @Override
    public void close() {
        inner.close();
    }
}
