package io.xdlink.ccl;

import io.xdlink.rails.Agent;
import io.xdlink.rails.IdleStrategy;
import io.xdlink.rails.ParkedRead;
import io.xdlink.rails.agent.ThreadJoin;
import io.xdlink.rails.agent.ThreadNice;

import java.util.concurrent.locks.LockSupport;
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
 * <p>A host's call only tries the turn, never waits for it: {@code test()} must never block. A call that finds the
 * turn taken leaves a mark, and the thread holding the turn runs one more duty cycle before it idles, so what the
 * call posted leaves at once rather than when the standby next wakes (in the lab, with the host polling, an 8-byte
 * isend took a median of 73 us to complete without the mark and 37 us with it; 126 against 89 us without polling). The agent's memory passes with the turn's lock. {@link #NONE} is the turn of a device
 * with a progress thread of its own (the simulator's), where stepping does nothing.
 *
 * <p>{@link #hostPolls} says whether the host's calls should step the engine even on a comm with nothing new
 * ({@code ccl_host_polls}): the ends then keep their attention driven, so the native mirror sends every
 * {@code test()} and isend into Java, where it runs a duty cycle and reads the rails, as a socket transport's
 * {@code test()} reads its socket. The standby's cycles and the host's looks ({@link #poll}) then leave an
 * acknowledgement the peer asked for to the host's next post ({@link io.xdlink.rails.Agent#doWorkStandingBy}),
 * where it shares a write with what the host posts. With {@code ccl_standby_pause_us} (1 ms by default) the standby
 * thread steps aside while such calls keep coming: it pauses that long at a time instead of sleeping on the rails,
 * where every frame that arrives wakes it to compete with the host's own thread for the turn and for a processor
 * (see {@link CclParams#STANDBY_PAUSE} for what that cost).
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
    /** A call found the turn taken since the holder's cycle began: the holder runs another before it idles. */
    private volatile boolean missed;
    /** A host's post left its work to the next cycle ({@link #postLater}), which then runs as a post's. */
    private volatile boolean postPending;
    private final boolean hostPolls;
    /** How long the standby pauses while host calls keep stepping the engine; 0: it never does. */
    private final long pauseNanos;
    /** When a host call last ran a duty cycle, on {@link #clock}; read by the standby. */
    private volatile long hostCalledAt;
    /**
     * Where a host's cycle that left nothing to do leaves the rail's next read for the host's next looks outside Java
     * ({@link #parkAddress}); null unless the host polls.
     */
    private final ParkedRead park;
    /** The longest a parked read stands in for the host's looks before one runs the engine again. */
    private final long parkNanos;
    /** How long a large send may wait for its comm's next one ({@code ccl_send_hold_us}); 0 unless the host polls. */
    private final long sendHoldNanos;

    private EngineTurn() {
        this.agent = null;
        this.clock = null;
        this.standby = null;
        this.hostPolls = false;
        this.pauseNanos = 0;
        this.park = null;
        this.parkNanos = 0;
        this.sendHoldNanos = 0;
    }

    /**
     * Starts the standby thread for {@code agent}, idling with {@code idle} until the agent's next timer.
     *
     * @param hostPolls         whether host calls step the engine even on comms with nothing new
     *                          ({@code ccl_host_polls})
     * @param standbyPauseNanos while the host polls, how long the standby pauses at a time (0: never) as long as host
     *                          calls stepped the engine within that time ({@code ccl_standby_pause_us})
     */
    public EngineTurn(Agent agent, IdleStrategy idle, LongSupplier clock, boolean hostPolls, long standbyPauseNanos) {
        this(agent, idle, clock, hostPolls, standbyPauseNanos, 0);
    }

    /**
     * As {@link #EngineTurn(Agent, IdleStrategy, LongSupplier, boolean, long)}, with the standby thread at nice value
     * {@code standbyNice} (0 to 19, {@code ccl_standby_nice}; where the platform cannot set it, the thread keeps the
     * one it started with).
     */
    public EngineTurn(Agent agent, IdleStrategy idle, LongSupplier clock, boolean hostPolls, long standbyPauseNanos,
                      int standbyNice) {
        this(agent, idle, clock, hostPolls, standbyPauseNanos, standbyNice, 0);
    }

    /**
     * As {@link #EngineTurn(Agent, IdleStrategy, LongSupplier, boolean, long, int)}, letting a large send wait up to
     * {@code sendHoldNanos} for its comm's next one while the host polls ({@link #sendHoldNanos()}).
     */
    public EngineTurn(Agent agent, IdleStrategy idle, LongSupplier clock, boolean hostPolls, long standbyPauseNanos,
                      int standbyNice, long sendHoldNanos) {
        this(agent, idle, clock, hostPolls, standbyPauseNanos, standbyNice, sendHoldNanos, 0);
    }

    /**
     * As {@link #EngineTurn(Agent, IdleStrategy, LongSupplier, boolean, long, int, long)}, with a host's looks through
     * the parked read waiting on the rail's socket once its looks have found nothing for {@code lookWaitNanos} (0:
     * never; {@code ccl_look_wait_us}), up to the engine's next timer.
     */
    public EngineTurn(Agent agent, IdleStrategy idle, LongSupplier clock, boolean hostPolls, long standbyPauseNanos,
                      int standbyNice, long sendHoldNanos, long lookWaitNanos) {
        if (standbyPauseNanos < 0 || sendHoldNanos < 0 || lookWaitNanos < 0) {
            throw new IllegalArgumentException("negative standby pause " + standbyPauseNanos + ", send hold "
                    + sendHoldNanos + " or look wait " + lookWaitNanos);
        }
        if (standbyNice < 0 || standbyNice > ThreadNice.LOWEST) {
            throw new IllegalArgumentException("standby nice value " + standbyNice + " is not 0.." + ThreadNice.LOWEST);
        }
        this.agent = agent;
        this.clock = clock;
        this.hostPolls = hostPolls;
        this.pauseNanos = hostPolls ? standbyPauseNanos : 0;
        this.park = hostPolls ? new ParkedRead(lookWaitNanos) : null;
        // Only while the host polls: its calls then come back to a comm with a held send, which is what sends it.
        this.sendHoldNanos = hostPolls ? sendHoldNanos : 0;
        // A quarter of the standby's pause, so host calls keep running the engine (and keep the standby aside) while
        // the host polls; without a pause, 100 us.
        this.parkNanos = pauseNanos > 0 ? Math.max(1, pauseNanos / 4) : 100_000;
        this.hostCalledAt = clock.getAsLong() - this.pauseNanos;
        this.standby = Thread.ofPlatform().name(agent.roleName() + "-standby").daemon(true)
                .start(() -> {
                    if (standbyNice > 0) {
                        ThreadNice.set(standbyNice);
                    }
                    standBy(idle);
                });
    }

    /**
     * One duty cycle on the calling thread if the turn is free now, for a call that just posted work; when the turn
     * is taken, the holder runs another cycle before it idles, so the work leaves at once. Never throws. Nothing on a
     * thread already inside a duty cycle (a completion it produced drained an end, whose poll steps again): a duty
     * cycle never runs inside another.
     */
    public void step() {
        run(true);
    }

    /**
     * As {@link #step}, for a call that only looks for what arrived: a taken turn is left alone, since its holder
     * is reading the rails already. While the host polls, the look is a standing-by cycle
     * ({@link Agent#doWorkStandingBy}): an acknowledgement the peer asked for waits for the host's next post (or its
     * {@code ack_delay}), so it leaves in one write with the advertisement or the answer the host posts once it
     * sees what arrived, instead of in a write of its own from the look that took the message in. In the two-host
     * lab each end of an 8-byte ping-pong otherwise made about two writes more per turn: acknowledgements of the
     * message and of the peer's advertisement, each alone.
     */
    public void poll() {
        run(false);
    }

    /**
     * For a post whose work may wait for the host's next call, when the host polls: nothing runs now, and the next
     * cycle, whoever runs it, runs as a post's ({@link Agent#doWork}), so what the peer asked to have acknowledged
     * leaves with it. A receive's advertisement then shares a write with the send the host posts next, or leaves
     * from its next {@code test()}: in an 8-byte ping-pong between two plugin processes each end posts its next
     * receive right before its answer, and the advertisement in a write of its own made two writes where a socket
     * makes one. Only while the host keeps calling (within {@code ccl_standby_pause_us}, when the standby steps
     * aside and comes back within that pause once the calls stop, running the post's cycle then): a host that does
     * not poll, or has not called lately, may not call again soon, so its post runs the cycle now, as {@link #step}.
     */
    public void postLater() {
        if (agent == null || pauseNanos == 0 || !hostCalledWithinPause(clock.getAsLong())) {
            step();
            return;
        }
        postPending = true;
        revokePark();
    }

    /**
     * The address of the block where this engine leaves its rail's next read for a host's looks
     * ({@link ParkedRead}), or 0 when the host's calls do not step it: a host polling for a request that is not done,
     * on a comm with nothing new, then reads the socket itself and answers "not done" outside Java when the read
     * finds nothing, as a socket transport's {@code test()} does. Armed at the end of a host call's duty cycle that
     * left nothing to send ({@link Agent#parkRead}), until the engine's next timer or a quarter of the standby's
     * pause; taken back by the rail's next read, and by any post that needs a duty cycle to leave.
     */
    public long parkAddress() {
        return park == null ? 0 : park.address();
    }

    private void revokePark() {
        if (park != null) {
            park.revoke();
            park.unwatch();
        }
    }

    private void run(boolean posted) {
        if (agent == null || closed || turn.isHeldByCurrentThread()) {
            return;
        }
        if (!turn.tryLock()) {
            if (pauseNanos > 0) {
                // The host called: the standby, if it holds the turn, steps aside once its cycle ends.
                hostCalledAt = clock.getAsLong();
            }
            if (!posted) {
                return;
            }
            // Marked before the second try: either the holder sees the mark after it lets go, or the turn is free
            // by then and this call takes it.
            missed = true;
            if (!turn.tryLock()) {
                // The holder may be arming the parked read right now: it checks the mark after arming, and this
                // takes back what it armed before, so the host's next look runs a cycle either way.
                revokePark();
                return;
            }
        }
        try {
            cycle(posted);
            if (park != null) {
                parkRead();
            }
        } catch (Throwable t) {
            // The engine's failures reach the connections as errors; a host's call must not carry them.
            lastError = t;
            if (park != null) {
                park.unwatch();
            }
        } finally {
            if (pauseNanos > 0) {
                stampHostCall();
            }
            turn.unlock();
        }
    }

    /**
     * One duty cycle of the agent, by a call that posted work ({@code posts}) or one that only looks. While the host
     * polls, a look leaves what rides better with the host's posts to its next one (see
     * {@link Agent#doWorkStandingBy}), and a post leaves reading the rails to the look that follows it
     * ({@link Agent#doWorkPosting}); otherwise the cycle sends everything and reads, since no post or look may come,
     * and while the host polls it reads only until a message arrived in full ({@link Agent#doWorkPolled}), as every
     * cycle does then, so the host answers it before more is read.
     */
    private int cycle(boolean posts) {
        if (posts && hostPolls) {
            // The host looks again right after it posts (its test() of the oldest request), and that look reads.
            postPending = false;
            return agent.doWorkPosting();
        }
        if (posts || postPending || !hostPolls) {
            postPending = false;
            return hostPolls ? agent.doWorkPolled() : agent.doWork();
        }
        return agent.doWorkStandingBy();
    }

    /**
     * Leaves the rail's next read to the host's next looks when the cycle just run left nothing to do until the
     * engine's next timer, or, on an engine that reads several rails, names their sockets for a quiet host thread to
     * wait on ({@link ParkedRead#watch}); any other cycle takes the watch back. A post marked meanwhile
     * ({@code postPending}, {@code missed}) takes either back: the post and the arming each check the other after
     * writing their own word.
     */
    private void parkRead() {
        if (postPending) {
            park.unwatch();
            return;
        }
        long next = agent.nextDeadlineNanos();
        long wait = next == Long.MAX_VALUE ? parkNanos : Math.min(parkNanos, next - clock.getAsLong());
        if (wait <= 0) {
            park.unwatch();
            return;
        }
        long deadline = System.nanoTime() + wait;
        if (agent.parkRead(park, deadline)) {
            if (postPending || missed) {
                park.revoke();
            }
        } else if (!agent.watchRails(park, deadline) || postPending || missed) {
            park.unwatch();
        }
    }

    /**
     * Notes that a host's call ran a cycle, at the time that cycle read (a host polls many times for each message,
     * and a clock read here is about 25 ns each). A call that found the turn taken notes itself with a clock read of
     * its own ({@link #run}), so a standby holding the turn learns the host is calling.
     */
    private void stampHostCall() {
        long at = agent.lastCycleNanos();
        hostCalledAt = at != Long.MIN_VALUE ? at : clock.getAsLong();
    }

    private void standBy(IdleStrategy idle) {
        boolean stoodAside = false;
        while (!closed) {
            if (stoodAside && !missed) {
                long left = hostCalledAt + pauseNanos - clock.getAsLong();
                if (left > 0) {
                    // The host called again while this thread stood aside: stay aside until a whole pause has passed
                    // since its last call, without taking the turn. A cycle here raced the host's own for the turn
                    // and the rails about once a pause, and a standby at nice 19 that a host's thread preempted while
                    // it held the turn kept that host's calls finding it taken until it ran again.
                    LockSupport.parkNanos(left);
                    continue;
                }
            }
            stoodAside = false;
            int work = 0;
            boolean aside = false;
            boolean ran = turn.tryLock();
            if (ran) {
                try {
                    missed = false;
                    work = cycle(false);
                    aside = pauseNanos > 0 && hostCalledWithinPause(clock.getAsLong());
                    if (aside) {
                        // Decided while the turn is held, since the rails' registrations are the engine's.
                        idle.stepAside();
                    }
                } catch (Throwable t) {
                    lastError = t;
                    work = 1;
                } finally {
                    turn.unlock();
                }
            }
            if (missed) {
                // A host's call posted work while a cycle held the turn: run another now. When the holder is
                // another host thread, wait for it by yielding, not by sleeping on the rails.
                if (!ran) {
                    Thread.yield();
                }
                continue;
            }
            if (!ran && pauseNanos > 0) {
                // A host's cycle holds the turn and is reading the rails: a sleep on them would end at once, on the
                // bytes it has not read yet, and set the standby spinning against it for a processor. The host is
                // calling, so step aside for a whole pause, as below. Waiting 50 us at a time instead woke the
                // standby about 4,000 times a second on each end of a 64 KiB stream between two plugin processes
                // (a futex wait and a failed try each), on the processors the hosts' threads and their TCP work
                // need: in the two-host lab, six rounds in turns, 64 KiB moved 11.2-22.3 Gb/s (mean 15.7) against
                // 8.7-15.8 (mean 11.7), 1 MiB 0.75-0.93 of the socket against 0.53-0.88, 8 MiB 0.89-1.03 against
                // 0.64-0.99, and the 8-byte round trip's median 17.9-26.4 us against 17.2-29.8.
                LockSupport.parkNanos(pauseNanos);
                continue;
            }
            if (aside) {
                // The host's calls run the engine: stay off the rails and the processors until they stop.
                stoodAside = true;
                LockSupport.parkNanos(pauseNanos);
                continue;
            }
            long deadline = agent.nextDeadlineNanos();
            idle.idle(work, deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - clock.getAsLong());
        }
    }

    /**
     * Whether host calls came within the last pause before {@code at}, whether they ran a cycle or found the turn
     * taken: the standby then pauses, whatever its own cycle just did, and a post may leave its cycle to the host's
     * next call. It used to stay on the sockets after a
     * cycle that found work and while a transfer ran, and a host's call that found the turn taken went unnoted: once
     * the standby held the turn while a stream arrived, its cycles always found frames and it never heard of the
     * host, so it ran the receiving end for the rest of the stream, a third busy thread on two processors. A sampler
     * of each thread's processor time caught the receiving end's standby so in three of ten plugin-only 64 KiB runs
     * between two processes (17-45 of 200 ticks in 2 s, its host thread at 84-92% of a processor) and in none of ten
     * with this rule (5-10 ticks).
     */
    private boolean hostCalledWithinPause(long at) {
        return at - hostCalledAt < pauseNanos;
    }

    /**
     * How long a send end may hold a large send back for its comm's next send, so both leave in one socket write
     * ({@code ccl_send_hold_us}); 0 when it may not: for {@link #NONE}, and unless the host polls.
     */
    public long sendHoldNanos() {
        return sendHoldNanos;
    }

    /** The engine's clock, in nanoseconds; for {@link #NONE}, {@link System#nanoTime()}. */
    public long nanoTime() {
        return clock == null ? System.nanoTime() : clock.getAsLong();
    }

    /** Whether the host's calls step the engine even on comms with nothing new; false for {@link #NONE}. */
    public boolean hostPolls() {
        return hostPolls;
    }

    /** The last exception a duty cycle threw, for diagnosis; null if none. */
    Throwable lastError() {
        return lastError;
    }

    /**
     * Stops the standby thread (a pause ends at once; a sleep on the rails within its idle strategy's longest) and
     * waits for it; the device is closed by its owner afterwards. Idempotent.
     */
    @Override
    public void close() {
        closed = true;
        if (standby == null) {
            return;
        }
        LockSupport.unpark(standby);
        ThreadJoin.uninterruptibly(standby);
    }
}
