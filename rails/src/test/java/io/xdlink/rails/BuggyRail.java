package io.xdlink.rails;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A rail end whose transport has a bug: once armed, its next poll hands the engine a frame in memory that has
 * already been freed, or its next flush throws, or its close throws.
 */
public final class BuggyRail extends ForwardingRailTransport {
    public volatile boolean freedFrame;
    public volatile boolean throwingFlush;
    public volatile boolean throwingClose;

    public BuggyRail(RailTransport inner) {
        super(inner);
    }

    @Override
    public int poll(FrameReceiver receiver, int limit) {
        if (freedFrame) {
            freedFrame = false;
            MemorySegment frame;
            try (Arena arena = Arena.ofConfined()) {
                frame = arena.allocate(64);
            }
            receiver.onFrame(frame, 0, 64, null, 0, 0);
            return 1;
        }
        return super.poll(receiver, limit);
    }

    @Override
    public int flush() {
        if (throwingFlush) {
            throwingFlush = false;
            throw new IllegalStateException("flush broke");
        }
        return super.flush();
    }

    @Override
    public void close() {
        super.close();
        if (throwingClose) {
            throw new IllegalStateException("close broke");
        }
    }
}
