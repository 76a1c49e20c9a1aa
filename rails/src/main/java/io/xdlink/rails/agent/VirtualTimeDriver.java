package io.xdlink.rails.agent;

import io.xdlink.rails.Agent;
import io.xdlink.xdomain.VirtualScheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Runs agents in invoker mode in virtual time, deterministically: step every agent, in the order added, until a
 * whole round does no work and no scheduler task is due; then move the clock to the earliest of the agents'
 * {@link Agent#nextDeadlineNanos() deadlines} and the scheduler's tasks, and step again. Nothing sleeps, and a seed
 * and a scenario give the same run every time. Not thread-safe: one thread drives.
 */
public final class VirtualTimeDriver {
    /** Rounds one {@link #stepUntilIdle} may take before it calls the agents livelocked. */
    public static final int MAX_ROUNDS = 10_000_000;

    private final VirtualScheduler scheduler;
    private final List<Agent> agents = new ArrayList<>();
    private long rounds;

    public VirtualTimeDriver(VirtualScheduler scheduler, Agent... agents) {
        this.scheduler = scheduler;
        this.agents.addAll(List.of(agents));
    }

    /** Adds an agent; it is stepped after those added before it. */
    public VirtualTimeDriver add(Agent agent) {
        agents.add(agent);
        return this;
    }

    /** Removes an agent (a closed device). */
    public void remove(Agent agent) {
        agents.remove(agent);
    }

    public VirtualScheduler scheduler() {
        return scheduler;
    }

    /** Virtual rounds stepped so far, for tests that compare runs. */
    public long rounds() {
        return rounds;
    }

    /**
     * Steps every agent, and runs the scheduler's due tasks, until a whole round does nothing.
     *
     * @return the work done
     * @throws IllegalStateException when the agents never go idle (a livelock)
     */
    public long stepUntilIdle() {
        long total = 0;
        for (int round = 0; round < MAX_ROUNDS; round++) {
            long work = scheduler.runDue();
            for (int i = 0; i < agents.size(); i++) {
                work += agents.get(i).doWork();
            }
            rounds++;
            if (work == 0) {
                return total;
            }
            total += work;
        }
        throw new IllegalStateException("agents still busy after " + MAX_ROUNDS + " rounds at virtual time "
                + scheduler.nanoTime() + " ns: a livelock");
    }

    /** The earliest time anything is due: an agent's deadline or a scheduled task. */
    public long nextEvent() {
        long next = scheduler.nextDeadline();
        for (Agent a : agents) {
            next = Math.min(next, a.nextDeadlineNanos());
        }
        return next;
    }

    /**
     * Goes idle, then moves the clock to the next event and goes idle again.
     *
     * @return false when nothing at all is pending (the clock did not move)
     */
    public boolean advance() {
        stepUntilIdle();
        long next = nextEvent();
        if (next == Long.MAX_VALUE) {
            return false;
        }
        scheduler.advanceTo(Math.max(next, scheduler.nanoTime()));
        stepUntilIdle();
        return true;
    }

    /**
     * Runs until {@code done} holds or {@code maxNanos} of virtual time have passed or nothing is pending.
     *
     * @return whether {@code done} holds at the end
     */
    public boolean runUntil(BooleanSupplier done, long maxNanos) {
        long end = Math.addExact(scheduler.nanoTime(), maxNanos);
        stepUntilIdle();
        while (!done.getAsBoolean()) {
            long next = nextEvent();
            if (next == Long.MAX_VALUE || next > end) {
                return done.getAsBoolean();
            }
            scheduler.advanceTo(Math.max(next, scheduler.nanoTime()));
            stepUntilIdle();
        }
        return true;
    }

    /** Lets {@code nanos} of virtual time pass, handling every event on the way. */
    public void runFor(long nanos) {
        long end = Math.addExact(scheduler.nanoTime(), nanos);
        stepUntilIdle();
        while (true) {
            long next = nextEvent();
            if (next > end) {
                break;
            }
            scheduler.advanceTo(Math.max(next, scheduler.nanoTime()));
            stepUntilIdle();
        }
        scheduler.advanceTo(end);
        stepUntilIdle();
    }
}
