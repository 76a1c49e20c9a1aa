package io.xdlink.sim.wire;

import io.xdlink.xdomain.ControlChannel;
import io.xdlink.xdomain.Scheduler;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Ring 0 of one cable, as one host sees it: XDomain control packets to and from the host at the other end.
 *
 * <p>Packets are delivered through the fabric's scheduler after the cable's latency, in the order sent, so the
 * XDomain state machines on both hosts run confined to that scheduler (in virtual time: deterministically). Like a
 * real ring 0 it may lose packets when the fault plan says so; XDomain's retries make up for it. When the cable is
 * pulled both ends close, and packets still in flight are lost.
 */
public final class SimControlChannel implements ControlChannel {
    private final String name;
    private final Scheduler scheduler;
    private final long latencyNanos;
    private final double lossRate;
    private final SplittableRandom random;
    private SimControlChannel peer;
    private volatile Consumer<byte[]> receiver;
    private volatile boolean open = true;
    private long sent;
    private long lost;

    private SimControlChannel(String name, Scheduler scheduler, long latencyNanos, double lossRate,
                              SplittableRandom random) {
        this.name = name;
        this.scheduler = scheduler;
        this.latencyNanos = latencyNanos;
        this.lossRate = lossRate;
        this.random = random;
    }

    /**
     * The two ends of one cable's ring 0.
     *
     * @param name         the cable, for logs
     * @param scheduler    where deliveries run
     * @param latencyNanos one-way latency
     * @param lossRate     probability that a packet is lost
     * @param random       the loss stream, from the fault plan's seed
     */
    public static SimControlChannel[] pair(String name, Scheduler scheduler, long latencyNanos, double lossRate,
                                           SplittableRandom random) {
        if (latencyNanos < 0) {
            throw new IllegalArgumentException("latency must not be negative: " + latencyNanos);
        }
        SimControlChannel a = new SimControlChannel(name + ":a", scheduler, latencyNanos, lossRate, random.split());
        SimControlChannel b = new SimControlChannel(name + ":b", scheduler, latencyNanos, lossRate, random.split());
        a.peer = b;
        b.peer = a;
        return new SimControlChannel[] {a, b};
    }

    @Override
    public void send(byte[] packet) {
        SimControlChannel to = peer;
        if (!open || !to.open) {
            return;
        }
        byte[] copy = Arrays.copyOf(packet, packet.length);
        synchronized (this) {
            sent++;
            if (lossRate > 0 && random.nextDouble() < lossRate) {
                lost++;
                return;
            }
        }
        scheduler.schedule(latencyNanos, () -> to.deliver(copy));
    }

    private void deliver(byte[] packet) {
        Consumer<byte[]> r = receiver;
        if (open && peer.open && r != null) {
            r.accept(packet);
        }
    }

    @Override
    public void receiver(Consumer<byte[]> receiver) {
        this.receiver = receiver;
    }

    @Override
    public boolean isOpen() {
        return open && peer.open;
    }

    /** Closes this end; the other end sees the channel gone too. */
    @Override
    public void close() {
        open = false;
    }

    /** Packets sent and packets the fault plan lost, for tests. */
    public synchronized long[] counts() {
        return new long[] {sent, lost};
    }

    @Override
    public String toString() {
        return "ring0 " + name;
    }
}
