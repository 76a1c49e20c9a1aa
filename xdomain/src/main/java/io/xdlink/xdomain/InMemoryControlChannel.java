package io.xdlink.xdomain;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Two control channels joined back to back, delivering through a {@link Scheduler} after a fixed latency, so a
 * virtual-time test sees the same ordering every run. Use {@link #pair} to make both ends.
 */
public final class InMemoryControlChannel implements ControlChannel {
    private final Scheduler scheduler;
    private final long latencyNanos;
    private InMemoryControlChannel peer;
    private volatile Consumer<byte[]> receiver;
    private volatile boolean open = true;
    private volatile boolean dropAll;

    private InMemoryControlChannel(Scheduler scheduler, long latencyNanos) {
        this.scheduler = scheduler;
        this.latencyNanos = latencyNanos;
    }

    /** Two joined ends; index 0 and 1. */
    public static InMemoryControlChannel[] pair(Scheduler scheduler, long latencyNanos) {
        InMemoryControlChannel a = new InMemoryControlChannel(scheduler, latencyNanos);
        InMemoryControlChannel b = new InMemoryControlChannel(scheduler, latencyNanos);
        a.peer = b;
        b.peer = a;
        return new InMemoryControlChannel[] {a, b};
    }

    @Override
    public void send(byte[] packet) {
        if (!open || dropAll) {
            return;
        }
        byte[] copy = Arrays.copyOf(packet, packet.length);
        InMemoryControlChannel to = peer;
        scheduler.schedule(latencyNanos, () -> to.deliver(copy));
    }

    private void deliver(byte[] packet) {
        Consumer<byte[]> r = receiver;
        if (open && r != null) {
            r.accept(packet);
        }
    }

    @Override
    public void receiver(Consumer<byte[]> receiver) {
        this.receiver = receiver;
    }

    /** Makes this end silently lose everything it sends, like a peer that never answers. */
    public void dropEverything(boolean drop) {
        this.dropAll = drop;
    }

    @Override
    public boolean isOpen() {
        return open && peer.open;
    }

    @Override
    public void close() {
        open = false;
    }
}
