package io.xdlink.sim.wire;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Paces one direction of a cable: a token bucket, kept as the moment the wire next falls idle (the generic cell
 * rate algorithm), so one atomic word holds its whole state. Every rail on the cable takes its frames' time from
 * the same bucket, which is why two rails on one cable add nothing, and rails on different cables add up.
 *
 * <p>A frame of {@code n} bytes occupies the wire for {@code n x 8 / rate}. Idle time earns credit up to
 * {@code burst}, so a sender that was briefly descheduled catches up instead of losing the time for good (in real
 * time that keeps a paced benchmark at its rate). The wire takes every frame it is given, queued first come first
 * served; what bounds the queue is each rail's TX ring, counted by the rail. Times are picoseconds from the
 * bucket's creation,
 * so the rate is exact to within a picosecond per frame. Lock-free: rails on one cable may be driven by different
 * threads.
 */
public final class TokenBucket {
    private final long rateMbps;
    private final long originNanos;
    private final long burstPs;
    private final AtomicLong idleAtPs;

    /**
     * @param rateMbps    the wire's rate in one direction, Mb/s (10^6 bits per second)
     * @param burstBytes  how much idle time the wire may save up, in bytes at its rate
     * @param originNanos the clock's time now
     */
    public TokenBucket(long rateMbps, int burstBytes, long originNanos) {
        if (rateMbps <= 0) {
            throw new IllegalArgumentException("rate must be positive: " + rateMbps + " Mb/s");
        }
        if (burstBytes < 0) {
            throw new IllegalArgumentException("burst must not be negative: " + burstBytes);
        }
        this.rateMbps = rateMbps;
        this.originNanos = originNanos;
        this.burstPs = servicePs(burstBytes);
        this.idleAtPs = new AtomicLong(-burstPs);
    }

    /** The rate, Mb/s. */
    public long rateMbps() {
        return rateMbps;
    }

    /** How long {@code bytes} occupy the wire, picoseconds. */
    public long servicePs(long bytes) {
        return (bytes * 8_000_000L + rateMbps / 2) / rateMbps;
    }

    /**
     * Takes the wire's time for one frame, queued behind every frame already given time.
     *
     * @param bytes    the frame's size
     * @param nowNanos the clock now
     * @return the clock time (nanoseconds, rounded up) at which the frame's last bit leaves; never before now, so a
     *         frame sent on saved-up credit leaves at once
     */
    public long reserve(int bytes, long nowNanos) {
        long nowPs = (nowNanos - originNanos) * 1000;
        long service = servicePs(bytes);
        while (true) {
            long idleAt = idleAtPs.get();
            long end = Math.max(idleAt, nowPs - burstPs) + service;
            if (idleAtPs.compareAndSet(idleAt, end)) {
                return Math.max(nowNanos, originNanos + Math.ceilDiv(end, 1000));
            }
        }
    }
}
