package io.xdlink.ccl;

import io.xdlink.rails.Agent;
import io.xdlink.rails.IdleStrategy;
import io.xdlink.rails.agent.ThreadJoin;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Who runs a real host's rails engine (a device in invoker mode): the host's own threads, inside their isend, irecv
 * and test calls, whenever they can take the turn at once, and a standby thread otherwise. A send posted in isend
 * leaves on the socket in that same call, and a host polling test() reads its arrivals itself, so a message costs
 * no hand-off to a progress thread (each a wake-up, which on a loaded host with few cores costs more than the
 * network). The standby keeps the engine going while the host is not calling (timers, acknowledgements, arrivals
 * for a host that waits elsewhere) and sleeps on the rails' sockets, so an arriving frame wakes it at once.
 *
 * <p>A host's call only tries the turn, never waits for it: {@code test()} must never block. The agent's memory
 * passes with the turn's lock. {@link #NONE} is the turn of a device with a progress thread of its own (the
 * simulator's), where stepping does nothing.
 */
public final class EngineTurn implements AutoCloseable {
    /** For devices whose engine runs on its own progress thread: {@link #step} does nothing. */
    public static final EngineTurn NONE = new EngineTurn();

    private final Agent agent;
    private final LongSupplier clock;
    private final ReentrantLock turn = new ReentrantLock();
    private final Thread standby;
    private volatile boolean closed;
    private volatile Throwable lastError;

    private EngineTurn() {
        this.agent = null;
        this.clock = null;
        this.standby = null;
    }

    /** Starts the standby thread for {@code agent}, idling with {@code idle} until the agent's next timer. */
    EngineTurn(Agent agent, IdleStrategy idle, LongSupplier clock) {
        this.agent = agent;
        this.clock = clock;
        this.standby = Thread.ofPlatform().name(agent.roleName() + "-standby").daemon(true)
                .start(() -> standBy(idle));
    }

    /**
     * One duty cycle on the calling thread if the turn is free now; otherwise nothing. Never throws. Nothing either
     * on a thread already inside a duty cycle (a completion it produced drained an end, whose poll steps again):
     * a duty cycle never runs inside another.
     */
    public void step() {
        if (agent == null || closed || turn.isHeldByCurrentThread() || !turn.tryLock()) {
            return;
        }
        try {
            agent.doWork();
        } catch (Throwable t) {
            // The engine's failures reach the connections as errors; a host's call must not carry them.
            lastError = t;
        } finally {
            turn.unlock();
        }
    }

    private void standBy(IdleStrategy idle) {
        while (!closed) {
            int work = 0;
            if (turn.tryLock()) {
                try {
                    work = agent.doWork();
                } catch (Throwable t) {
                    lastError = t;
                    work = 1;
                } finally {
                    turn.unlock();
                }
            }
            long deadline = agent.nextDeadlineNanos();
            idle.idle(work, deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - clock.getAsLong());
        }
    }

    /** The last exception a duty cycle threw, for diagnosis; null if none. */
    Throwable lastError() {
        return lastError;
    }

    /**
     * Stops the standby thread (it wakes within its idle strategy's longest sleep) and waits for it; the device is
     * closed by its owner afterwards. Idempotent.
     */
    @Override
    public void close() {
        closed = true;
        if (standby == null) {
            return;
        }
        ThreadJoin.uninterruptibly(standby);
    }
}
