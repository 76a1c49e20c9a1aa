package io.xdlink.rails.agent;

import io.xdlink.rails.Agent;
import io.xdlink.rails.IdleStrategy;

import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Runs an agent on its owner's thread: the loops that post work and wait for its completion call {@link #step}, so a
 * request posted and the frame it sends, or a frame arriving and the answer to it, need no hand-off between threads.
 * On a round trip every such hand-off is a wake-up that costs as much as the network, and on a host with few cores a
 * progress thread of its own competes with the application for them. While the owner is away on a call that blocks
 * (a handshake with the peer over another socket), {@link #away} lets a standby thread run the agent, so its timers,
 * acknowledgements and arriving frames never wait for the owner to come back.
 *
 * <p>One thread runs a duty cycle at a time (a lock passes the turn, and with it the agent's memory). Any thread may
 * step the agent, but only one should at a time: each change of thread costs the rails a new registration with the
 * thread that now waits on them.
 */
public final class OwnerRunner implements AutoCloseable {
    private final Agent agent;
    private final Consumer<Throwable> errorHandler;
    private final LongSupplier clock;
    private final IdleStrategy ownerIdle;
    private final ReentrantLock turn = new ReentrantLock();
    private final Thread standby;
    private volatile boolean away;
    /** The thread in its idle strategy now, if any, and whether a wake came since it last looked for work. */
    private volatile Thread idler;
    private volatile boolean woken;
    private volatile boolean closed;

    /**
     * Starts the standby thread, parked until the owner goes {@link #away}.
     *
     * @param idles makes an idle strategy for each thread that runs the agent (the owner's and the standby's)
     * @param clock the clock the agent's {@link Agent#nextDeadlineNanos()} reads
     */
    public OwnerRunner(Agent agent, Supplier<IdleStrategy> idles, Consumer<Throwable> errorHandler,
                       LongSupplier clock) {
        this.agent = Objects.requireNonNull(agent, "agent");
        this.errorHandler = Objects.requireNonNull(errorHandler, "errorHandler");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ownerIdle = idles.get();
        IdleStrategy standbyIdle = idles.get();
        this.standby = Thread.ofPlatform().name(agent.roleName() + "-standby").daemon(true)
                .start(() -> standBy(standbyIdle));
    }

    /** One duty cycle on the calling thread; returns the work it did. An exception goes to the error handler. */
    public int doWork() {
        turn.lock();
        try {
            return agent.doWork();
        } catch (Throwable t) {
            errorHandler.accept(t);
            return 1;
        } finally {
            turn.unlock();
        }
    }

    /**
     * One pass of an owner's polling loop: a duty cycle, then, when neither it nor the caller's own pass
     * ({@code callerWork}) did anything, the owner's idle strategy, never waiting past the agent's next timer.
     *
     * @return the work the duty cycle did
     */
    public int step(int callerWork) {
        return step(callerWork, false);
    }

    /**
     * As {@link #step(int)}, for a loop that waits for its peer's answer to what it sent ({@code awaitingAnswer}: a
     * ping-pong's ping), which the idle strategy may wait longer for than for news ({@link IdleStrategy#awaiting}).
     */
    public int step(int callerWork, boolean awaitingAnswer) {
        int work = doWork();
        if (work + callerWork == 0) {
            ownerIdle.awaiting(awaitingAnswer);
        }
        idle(ownerIdle, work + callerWork);
        return work;
    }

    private void idle(IdleStrategy idle, int work) {
        if (work > 0) {
            idle.idle(work);
            return;
        }
        long limit = AgentRunner.untilDeadline(agent, clock);
        if (!idle.blocksNext(limit)) {
            // A spin or a yield: the next duty cycle comes at once and finds whatever was handed over, so wakers
            // need not unpark this thread (an unpark of a thread that is not parked still takes its parker's lock).
            idle.idle(0, limit);
            return;
        }
        idler = Thread.currentThread();
        if (woken) {
            woken = false; // work was handed over since the cycle looked: look again at once
        } else {
            idle.idle(0, limit);
        }
        idler = null;
    }

    /**
     * Wakes whichever thread idles on the agent's behalf (owner or standby) if it parks, so work handed over from
     * another thread, or frames a transport reports, are taken up at once; any thread, cheap when nobody idles.
     * An idle strategy that waits on sockets instead is woken by its sockets, not by this.
     */
    public void wake() {
        if (!woken) {
            // A store only when it changes something: a thread publishing frame after frame to a busy agent would
            // otherwise pay a fenced store for each.
            woken = true;
        }
        Thread t = idler;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /**
     * Runs {@code blocking} on the calling thread while the standby thread runs the agent; returns its result. The
     * standby stops when it returns (or throws), before the owner's next duty cycle.
     */
    public <T> T away(Supplier<T> blocking) {
        away = true;
        LockSupport.unpark(standby);
        try {
            return blocking.get();
        } finally {
            away = false;
        }
    }

    /** As {@link #away(Supplier)}, for a call with no result. */
    public void away(Runnable blocking) {
        away(() -> {
            blocking.run();
            return null;
        });
    }

    private void standBy(IdleStrategy idle) {
        while (!closed) {
            if (!away) {
                idle.reset();
                LockSupport.park(this);
                continue;
            }
            idle(idle, doWork());
        }
    }

    /** The thread a wake would unpark now, if any, for tests. */
    Thread idlerForTests() {
        return idler;
    }

    /** The standby thread, for tests and diagnosis. */
    Thread standbyThread() {
        return standby;
    }

    /**
     * Stops the standby thread and waits for it; the agent itself is not closed (its owner closes it, on the thread
     * that stepped it last). Idempotent.
     */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(standby);
        ThreadJoin.uninterruptibly(standby);
    }
}
