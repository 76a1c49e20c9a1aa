package io.xdlink.rails.agent;

import io.xdlink.rails.Agent;
import io.xdlink.rails.IdleStrategy;

import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Runs one agent on a thread of its own: duty cycle, idle strategy, again, until closed; then the agent's
 * {@link Agent#onClose()} on that same thread. An exception from a duty cycle goes to the error handler and the
 * cycles continue: a progress engine must outlive one bad frame.
 */
public final class AgentRunner implements AutoCloseable {
    private final Agent agent;
    private final IdleStrategy idle;
    private final Consumer<Throwable> errorHandler;
    private final AtomicLong errors = new AtomicLong();
    private final LongSupplier clock;
    private final Thread thread;
    private volatile boolean running = true;
    // The two halves of a handshake that loses no wake: the runner says it is about to idle and then looks for a
    // wake; a waker says it woke and then looks for an idler. Whichever goes second sees the other. The runner says
    // so only before a step of its idle strategy that blocks: a spin or a yield returns to a cycle at once.
    private volatile boolean sleeping;
    private volatile boolean woken;

    private AgentRunner(Agent agent, IdleStrategy idle, Consumer<Throwable> errorHandler, LongSupplier clock) {
        this.agent = Objects.requireNonNull(agent, "agent");
        this.idle = Objects.requireNonNull(idle, "idle");
        this.errorHandler = Objects.requireNonNull(errorHandler, "errorHandler");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.thread = Thread.ofPlatform().name(agent.roleName()).daemon(true).unstarted(this::run);
    }

    /** Starts {@code agent} on a new daemon thread named after its role; its deadlines are in System.nanoTime(). */
    public static AgentRunner start(Agent agent, IdleStrategy idle, Consumer<Throwable> errorHandler) {
        return start(agent, idle, errorHandler, System::nanoTime);
    }

    /**
     * Starts {@code agent} on a new daemon thread named after its role.
     *
     * @param clock the clock the agent's {@link Agent#nextDeadlineNanos()} reads, so idling never sleeps past it
     */
    public static AgentRunner start(Agent agent, IdleStrategy idle, Consumer<Throwable> errorHandler,
                                    LongSupplier clock) {
        AgentRunner r = new AgentRunner(agent, idle, errorHandler, clock);
        r.thread.start();
        return r;
    }

    private void run() {
        idle.reset();
        try {
            while (running) {
                if (woken) {
                    woken = false; // a load per cycle, and a fenced store only after a wake
                }
                int work;
                try {
                    work = agent.doWork();
                } catch (Throwable t) {
                    errors.incrementAndGet();
                    errorHandler.accept(t);
                    work = 1;
                }
                if (work == 0) {
                    long limit = untilDeadline(agent, clock);
                    if (!idle.blocksNext(limit)) {
                        // A spin or a yield: the next cycle comes at once, so wakers need not unpark this thread.
                        idle.idle(0, limit);
                        continue;
                    }
                    sleeping = true;
                    if (woken) {
                        // Work was handed over during the cycle that found none: look again at once.
                        idle.reset();
                    } else {
                        idle.idle(0, limit);
                    }
                    sleeping = false;
                } else {
                    idle.idle(work);
                }
            }
        } finally {
            try {
                agent.onClose();
            } catch (Throwable t) {
                errors.incrementAndGet();
                errorHandler.accept(t);
            }
        }
    }

    /**
     * How long an idle runner may wait before {@code agent}'s next timer, on {@code clock}: {@link Long#MAX_VALUE}
     * when it has none, zero or less when one is due. What a runner passes to {@link IdleStrategy#idle(int, long)}.
     */
    static long untilDeadline(Agent agent, LongSupplier clock) {
        long deadline = agent.nextDeadlineNanos();
        return deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - clock.getAsLong();
    }

    /**
     * Wakes the agent's thread if it is idling in a blocking step of its idle strategy, so work handed to it
     * from another thread, or frames arriving for it, are taken up at once. Any thread; cheap when it is busy.
     */
    public void wake() {
        if (!woken) {
            woken = true;
        }
        if (sleeping) {
            LockSupport.unpark(thread);
        }
    }

    /** Exceptions the agent has thrown so far. */
    public long errors() {
        return errors.get();
    }

    /** The runner's thread. */
    public Thread thread() {
        return thread;
    }

    /** True while the thread runs. */
    public boolean isRunning() {
        return thread.isAlive();
    }

    /**
     * Stops the duty cycles and waits for the agent's close to finish on its thread. Called from the runner's own
     * thread (an agent closing itself), it only asks.
     */
    @Override
    public void close() {
        running = false;
        ThreadJoin.uninterruptibly(thread);
    }
}
