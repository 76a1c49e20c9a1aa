package io.xdlink.rails.agent;

import io.xdlink.rails.IdleStrategy;

import java.util.concurrent.locks.LockSupport;

/**
 * Spins, then yields, then parks for a time that doubles up to a ceiling, and starts over as soon as a cycle does
 * work: near-spin latency under load, little CPU when idle.
 */
public final class BackoffIdleStrategy implements IdleStrategy {
    private final int maxSpins;
    private final int maxYields;
    private final long minParkNanos;
    private final long maxParkNanos;
    private int spins;
    private int yields;
    private long parkNanos;

    /**
     * @param maxSpins     idle cycles spent spinning before yielding
     * @param maxYields    idle cycles spent yielding before parking
     * @param minParkNanos the first park
     * @param maxParkNanos the longest park
     */
    public BackoffIdleStrategy(int maxSpins, int maxYields, long minParkNanos, long maxParkNanos) {
        if (maxSpins < 0 || maxYields < 0 || minParkNanos < 1 || maxParkNanos < minParkNanos) {
            throw new IllegalArgumentException("bad backoff: spins " + maxSpins + ", yields " + maxYields
                    + ", park " + minParkNanos + ".." + maxParkNanos + " ns");
        }
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.minParkNanos = minParkNanos;
        this.maxParkNanos = maxParkNanos;
        reset();
    }

    /** 100 spins, 10 yields, parks from 1 us to 1 ms. */
    public BackoffIdleStrategy() {
        this(100, 10, 1_000, 1_000_000);
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            reset();
        } else if (spins < maxSpins) {
            spins++;
            Thread.onSpinWait();
        } else if (yields < maxYields) {
            yields++;
            Thread.yield();
        } else {
            LockSupport.parkNanos(parkNanos);
            parkNanos = Math.min(parkNanos * 2, maxParkNanos);
        }
    }

    @Override
    public void idle(int workCount, long limitNanos) {
        if (workCount > 0 || spins < maxSpins || yields < maxYields) {
            idle(workCount);
        } else if (limitNanos <= 0) {
            Thread.onSpinWait();
        } else {
            // A park never outlasts the next timer; the doubling goes on so an idle engine still backs off.
            LockSupport.parkNanos(Math.min(parkNanos, limitNanos));
            parkNanos = Math.min(parkNanos * 2, maxParkNanos);
        }
    }

    /** Only a park blocks: spins and yields come first, and a timer already due is spun for. */
    @Override
    public boolean blocksNext(long limitNanos) {
        return spins >= maxSpins && yields >= maxYields && limitNanos > 0;
    }

    @Override
    public void reset() {
        spins = 0;
        yields = 0;
        parkNanos = minParkNanos;
    }
}
