package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;
import io.xdlink.ccl.CclResult;
import io.xdlink.ccl.EngineTurn;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.CompletionQueue;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.QpState;
import io.xdlink.rails.verbs.QueuePair;
import io.xdlink.rails.verbs.WorkOpcode;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What both ends of a connection share: the rails queue pair they post on, its completion queues they poll, the
 * engine turn a post or a poll takes, the end's lock and its {@link Attention}.
 *
 * <p>When a completion queue the end listens on announces a completion, it is counted in the attention; where
 * {@code ccl_drain_on_progress} allows draining on the thread that produced it and no call of the end holds its
 * lock, the end drains at once, so a request is finished before its host tests it. The producing thread only tries
 * the lock: it never waits on a host's call, and a host's call never waits on it.
 */
abstract sealed class Endpoint permits SendEndpoint, RecvEndpoint {
    /**
     * Which end: {@code kind} names it in messages; {@code posts} is the opcode of the work it posts and
     * {@code receives} that of the work it receives; no other completion is its.
     */
    record Role(String kind, WorkOpcode posts, WorkOpcode receives) {
    }

    static final Role SENDING = new Role("send", WorkOpcode.WRITE_WITH_IMM, WorkOpcode.RECV);
    static final Role RECEIVING = new Role("receive", WorkOpcode.SEND, WorkOpcode.RECV_WRITE_WITH_IMM);

    private final Role role;
    private final int device;
    final QueuePair qp;
    private final EngineTurn turn;
    /** This end's lock; a producing thread only tries it, so it never waits on a host's call. */
    final ReentrantLock lock = new ReentrantLock();
    private final boolean drainOnArrival;
    final Attention attention = new Attention();
    /**
     * The end's message buffers, one advertisement per slot: the send end's receives for advertisements, the
     * receive end's advertisements as they go out. Registered for local writes and the peer's writes.
     */
    final MemorySegment messages;
    final MemoryRegion messageMemory;
    /** Why the connection failed, or null. */
    String failure;
    boolean closed;

    Endpoint(Role role, int device, QueuePair qp, EngineTurn turn, boolean drainOnArrival) throws CclException {
        this.role = role;
        this.device = device;
        this.qp = qp;
        this.turn = turn;
        this.drainOnArrival = drainOnArrival;
        attention.park(turn.parkAddress());
        // Freed by the collector once the end and its region are gone, not by a close: a shared arena's memory costs
        // every system call that writes an advertisement from it, or reads one into it, an atomic acquire and
        // release of the arena (Java's channels hold a shared arena open across each call), and the bytes are few.
        this.messages = Arena.ofAuto().allocate((long) Advertisement.MAX_BYTES * Advertisement.SLOTS, 64);
        this.messageMemory = register(messages);
    }

    /** Where the message buffer of {@code slot} starts in {@link #messages}. */
    static long messageAt(long slot) {
        return slot * Advertisement.MAX_BYTES;
    }

    /**
     * Stops announcing completions, closes the queue pair if asked, hands the attention back and lets the message
     * buffers go: for an end that closes, or one that could not be built (whose queue pair its maker closes).
     */
    final void letGo(boolean closeQueuePair) {
        stopAnnouncing();
        if (closeQueuePair) {
            qp.close();
        }
        messageMemory.deregister();
    }

    /**
     * Stops announcing completions and hands the attention back: for an end that closes, whether its queue pair
     * closes now ({@link #letGo}) or lingers ({@link Linger}).
     */
    final void stopAnnouncing() {
        qp.recvCq().onPush(null);
        qp.sendCq().onPush(null);
        attention.release();
    }

    /** The plugin device this end belongs to. */
    public final int device() {
        return device;
    }

    /** Registers memory on this end's protection domain, for sends from it or receives into it. */
    public final MemoryRegion register(MemorySegment region) throws CclException {
        return Regions.register(qp, region);
    }

    /**
     * The attention of this end; a send end's {@code starved} word says, while the end is quiet, that a send would
     * be told to retry: the plugin's C trampolines answer such an isend without entering Java.
     */
    public final Attention attention() {
        return attention;
    }

    /** Announces every completion {@code cq} produces to this end (an end listens on the queues that finish work). */
    final void listenOn(CompletionQueue cq) {
        cq.onPush(this::arrived);
    }

    /** The engine turn this end's posts and looks take. */
    final EngineTurn turn() {
        return turn;
    }

    /** Runs one duty cycle of the engine on this thread when the end's turn allows it; after a post that was taken. */
    final void step() {
        turn.step();
    }

    /** Leaves what this end just posted to the host's next call when the host polls ({@link EngineTurn#postLater}). */
    final void stepLater() {
        turn.postLater();
    }

    /**
     * Hands every completion of the queue pair to {@link #take}, sends first: a receive end learns its
     * advertisement left before it looks at the writes that answer it. With {@code look}, each round runs a duty
     * cycle of the engine first, so what the rails hold arrives, until {@code until} (the request a test() asks
     * about; null: none) is done; without, only what already completed is taken (a post, whose own cycle follows
     * it, looks only when that is not enough).
     */
    final void drainCompletions(boolean look, EngineRequest until) {
        CompletionQueue sends = qp.sendCq();
        CompletionQueue receives = qp.recvCq();
        // A duty cycle after every round that took something in: what arrived meanwhile (the rest of a message
        // whose first frames were read, the answer to what was just taken) is taken in by this same host call,
        // instead of waiting for the next one. Not once the request a test() asks about is done: its host has an
        // answer to post, and in an 8-byte ping-pong between two plugin processes the read that found nothing cost
        // each end a system call per turn.
        boolean took = true;
        while (took) {
            if (look) {
                turn.poll();
            }
            took = false;
            Completion c;
            while ((c = sends == receives ? null : sends.poll()) != null || (c = receives.poll()) != null) {
                take(c);
                took = look && (until == null || !until.done());
            }
        }
    }

    /**
     * Publishes a look through the attention ({@link Attention#settle}): every completion up to {@code arrivals} was
     * drained, and the end must still be driven when {@code drive} says so or the host polls the engine
     * ({@code ccl_host_polls}: then no call is answered by the native mirror alone, unless the mirror reads the
     * engine's rail itself and finds nothing, {@link EngineTurn#parkAddress}).
     */
    final void settle(long arrivals, boolean drive) {
        attention.settle(arrivals, drive, turn.hostPolls());
    }

    /** One completion of this end's queue pair, under the end's lock. */
    private void take(Completion c) {
        if (c.opcode() == role.posts()) {
            posted(c);
        } else if (c.opcode() == role.receives()) {
            received(c);
        } else {
            fail("unexpected " + describe(c) + " on a " + role.kind() + " comm");
        }
    }

    /** Work this end posted completed, or failed. */
    abstract void posted(Completion c);

    /** Work of the peer arrived here, or failed. */
    abstract void received(Completion c);

    /** Fails the connection for good and everything in flight on it. */
    final void fail(String why) {
        if (failure == null) {
            failure = why;
        }
        failAll(why);
    }

    /** Fails every request in flight with {@code why}. */
    abstract void failAll(String why);

    /**
     * Reports whether {@code r}, one of this end's requests, is done, with its sizes; releases it when done or
     * failed. Never waits: while the progress thread drains this end, the request is not reported done yet.
     */
    final boolean test(EngineRequest r, long[] sizes) throws CclException {
        if (!lock.tryLock()) {
            return false;
        }
        try {
            if (r.released || r.reportedElsewhere()) {
                throw CclException.internal(role.kind() + " request tested again after it was reported done");
            }
            if (!closed) {
                // What already completed first: a request found done goes back to its host at once, which has an
                // answer to post, instead of after one more read of the rails that finds nothing.
                progress(false, null);
                if (!r.done() && r.error == null) {
                    progress(true, r);
                }
            }
            if (r.error != null) {
                release(r);
                throw new CclException(CclResult.SYSTEM_ERROR, role.kind() + " failed: " + r.error);
            }
            if (!r.done()) {
                return false;
            }
            if (sizes != null) {
                for (int i = 0; i < Math.min(sizes.length, r.sizeCount()); i++) {
                    sizes[i] = r.size(i);
                }
            }
            release(r);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Marks a request reported to its host; an end frees what the request held. Under the end's lock. */
    void release(EngineRequest r) {
        r.released = true;
    }

    /** Drains, running the engine, and settles the attention; under the end's lock. */
    final void progress() {
        progress(true, null);
    }

    /**
     * Drains (with {@code look}, after running the engine until {@code until} is done, see
     * {@link #drainCompletions}) and settles the attention; under the end's lock.
     */
    abstract void progress(boolean look, EngineRequest until);

    /** False once the queue pair failed or closed. */
    final boolean open() {
        QpState s = qp.state();
        return s != QpState.ERROR && s != QpState.CLOSED;
    }

    static String describe(Completion c) {
        return c.status() + " on " + c.opcode();
    }

    /** Throws when the end is closed ({@code closeCall} names the call that closed it) or its connection failed. */
    final void usable(String closeCall) throws CclException {
        if (closed) {
            throw CclException.internal(role.kind() + " comm used after " + closeCall);
        }
        if (failure != null) {
            throw new CclException(CclResult.SYSTEM_ERROR, "connection failed: " + failure);
        }
    }

    /**
     * A completion became pollable: counted, and drained at once when {@code ccl_drain_on_progress} allows it and
     * no call of this end runs (the thread that produced it may be inside one of them, e.g. a post that flushed).
     */
    private void arrived() {
        if (!drainOnArrival || lock.isHeldByCurrentThread() || !lock.tryLock()) {
            attention.arrived();
            return;
        }
        try {
            if (closed) {
                attention.arrived();
                return;
            }
            try {
                progress();
            } catch (RuntimeException e) {
                // Not for the producing thread (a device's progress thread) to carry: left not quiet, the end is
                // driven again by the host's next call, which meets the failure itself.
                attention.arrived();
                return;
            }
            // Drained first, then counted: the end never looks busy for a completion already taken in.
            attention.arrivedDrained();
        } finally {
            lock.unlock();
        }
    }

    /** Closes the end; what is in flight fails. */
    public final void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            closeLocked();
        } finally {
            lock.unlock();
        }
    }

    /** Fails what is in flight and lets the queue pair and memory go; under the end's lock, once. */
    abstract void closeLocked();
}
