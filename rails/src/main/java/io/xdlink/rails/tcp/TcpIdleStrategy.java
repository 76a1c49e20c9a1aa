package io.xdlink.rails.tcp;

import io.xdlink.rails.IdleStrategy;
import java.io.IOException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;

/**
 * How a progress thread whose rails are TCP waits for work: it spins a little, yields a little, and then sleeps in
 * the kernel on its rails' sockets for at most {@code maxWaitMillis}, so an arriving frame wakes it at once. Timers
 * and work handed over from other threads wait at most that long, as they do behind a parked thread; what changes is
 * that traffic never waits for a park to end, which on a machine with more runnable threads than cores decides
 * whether a thread runs now or a scheduling period later. How long it spins adapts to how soon work follows its
 * sleeps ({@link SpinWindow}), so two ends waiting on each other do not settle into sleeping on every round trip.
 */
public final class TcpIdleStrategy implements IdleStrategy {
    private final SpinWindow window;
    private final int maxYields;
    private final long maxWaitMillis;
    private int spins;
    private int yields;

    /**
     * @param maxSpins      idle cycles spent spinning before yielding, at first; see {@link SpinWindow}
     * @param maxYields     idle cycles spent yielding before sleeping on the rails
     * @param maxWaitMillis the longest sleep; timers and cross-thread work wait at most this long
     */
    public TcpIdleStrategy(int maxSpins, int maxYields, long maxWaitMillis) {
        if (maxSpins < 0 || maxYields < 0 || maxWaitMillis < 1) {
            throw new IllegalArgumentException("bad idle strategy: spins " + maxSpins + ", yields " + maxYields
                    + ", wait " + maxWaitMillis + " ms");
        }
        this.window = new SpinWindow(maxSpins);
        this.maxYields = maxYields;
        this.maxWaitMillis = maxWaitMillis;
    }

    /** 100 spins, 10 yields, then sleeps of at most 1 ms, the ceiling the backoff strategy parks for. */
    public TcpIdleStrategy() {
        this(100, 10, 1);
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            worked();
        } else if (spins < window.spins()) {
            spins++;
            Thread.onSpinWait();
        } else if (yields < maxYields) {
            yields++;
            Thread.yield();
        } else {
            sleep(maxWaitMillis);
        }
    }

    /**
     * As {@link #idle(int)}, but the sleep on the rails never outlasts the agent's next timer: a timer due within the
     * millisecond a selector can wait for at least is waited for by yielding instead.
     */
    @Override
    public void idle(int workCount, long limitNanos) {
        if (workCount > 0 || spins < window.spins() || yields < maxYields) {
            idle(workCount);
        } else if (limitNanos < 1_000_000) {
            Thread.yield();
        } else {
            sleep(Math.min(maxWaitMillis, limitNanos / 1_000_000));
        }
    }

    /**
     * Only a sleep on the rails blocks: spins and yields come first, and a timer due within a millisecond is yielded
     * for.
     */
    @Override
    public boolean blocksNext(long limitNanos) {
        return spins >= window.spins() && yields >= maxYields && limitNanos >= 1_000_000;
    }

    private void sleep(long millis) {
        window.sleeping(System.nanoTime());
        RailWaiter.forCurrentThread().await(millis);
    }

    /** Work came: the next wait starts from the beginning, with a window that learnt from how this one ended. */
    private void worked() {
        if (window.sleptSinceWork()) { // the clock is read only then: most work follows spins, not sleeps
            window.worked(System.nanoTime());
        }
        reset();
    }

    /**
     * Makes traffic on a socket of the calling thread's own wake it from this strategy's sleep, as its rails do
     * (a thread that also polls a plain socket). The channel must be non-blocking. Does nothing when it already
     * wakes this thread.
     */
    public static void wakeOn(SelectableChannel channel) throws IOException {
        wakeOn(channel, SelectionKey.OP_READ);
    }

    /** As {@link #wakeOn(SelectableChannel)}, for the readiness {@code ops} ask for. */
    public static void wakeOn(SelectableChannel channel, int ops) throws IOException {
        Selector s = RailWaiter.forCurrentThread().selector;
        SelectionKey key = channel.keyFor(s);
        if (key == null) {
            channel.register(s, ops);
        } else if (key.interestOps() != ops) {
            key.interestOps(ops);
        }
    }

    /** Closes the calling thread's waiting selector now, for a thread that lives on after its rails are gone. */
    public static void release() {
        RailWaiter.closeCurrent();
    }

    /**
     * Lets go of the rails this thread sleeps on: while it pauses, every segment that arrives on a rail still
     * registered with its selector runs the selector's wake-up callback under two interrupt-disabling locks inside
     * the sender's system call, for nobody (in the two-host lab the sender's write and the receiver's TCP
     * processing run in one call). Its next duty cycle registers them again.
     */
    @Override
    public void stepAside() {
        RailWaiter w = RailWaiter.current();
        if (w != null) {
            w.releaseRails();
        }
    }

    @Override
    public void awaiting(boolean awaiting) {
        window.awaiting(awaiting);
    }

    @Override
    public void reset() {
        spins = 0;
        yields = 0;
    }
}
