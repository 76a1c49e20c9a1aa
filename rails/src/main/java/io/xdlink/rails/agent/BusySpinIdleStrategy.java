package io.xdlink.rails.agent;

import io.xdlink.rails.IdleStrategy;

/** Never gives the core away: the lowest latency, one core per agent. For benchmarks and dedicated hosts. */
public final class BusySpinIdleStrategy implements IdleStrategy {
    @Override
    public void idle(int workCount) {
        if (workCount == 0) {
            Thread.onSpinWait();
        }
    }

    @Override
    public boolean blocksNext(long limitNanos) {
        return false;
    }
}
