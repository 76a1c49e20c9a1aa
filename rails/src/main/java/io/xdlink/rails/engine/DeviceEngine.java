package io.xdlink.rails.engine;

import io.xdlink.rails.Agent;
import io.xdlink.rails.ParkedRead;
import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.frame.FrameLayout;
import io.xdlink.rails.verbs.CompletionStatus;
import io.xdlink.rails.verbs.ConnectHandle;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceStats;
import io.xdlink.rails.verbs.Listener;
import io.xdlink.rails.verbs.QpAttributes;
import io.xdlink.rails.verbs.QpState;
import io.xdlink.xdomain.Scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A device's progress engine: the one agent that owns its rails, queue pairs and pools. Each duty cycle takes the
 * commands API calls handed over, polls every rail and dispatches what arrived, runs what the clock made due, sends
 * (unsequenced frames, control frames and ACKs, then data round-robin over the rails) and flushes every transport.
 * It never blocks; every timeout reads the injected {@link Scheduler}'s clock and {@link #nextDeadlineNanos()} says
 * when the clock next matters, so a virtual-time driver can step it exactly.
 *
 * <p>The engine keeps the duty cycle and its order; the jobs it hands out each have a room of their own: frames
 * that arrive go through {@link FrameDispatch}, data in flight is limited by {@link InflightBudget}, what happens
 * is counted in {@link EngineCounters}, and rails and pools are kept in a {@link RailRegistry}. Calls run one way,
 * from the engine down to its rails: a rail reports back only through {@link RailEvents}, which
 * {@link RailLifecycle} answers for the engine.
 */
public final class DeviceEngine implements Agent {
    private static final int POLL_LIMIT = 256;
    /**
     * In an owner's look, a rail that is not its pool's first rail up and handed over nothing for this long is read
     * only once per {@link #IDLE_RAIL_LOOK_NANOS}, where an empty read is a system call ({@link
     * RailTransport#emptyPollIsACall}). Small writes and acknowledgements go on the first rail up, so on two cables a
     * ping-pong keeps the second one idle, and reading it in every look put an empty read on each turn's path.
     */
    static final long IDLE_RAIL_NANOS = 1_000_000;
    static final long IDLE_RAIL_LOOK_NANOS = 20_000;

    final Device device;
    final RailsSettings settings;
    final Scheduler clock;
    final UUID id;
    final SplittableRandom random;
    private final KeyTable keys;
    final QpTable qps;
    private final CommandQueue commands = new CommandQueue();
    final RailRegistry registry = new RailRegistry();
    /** The registry's own lists, read on every duty cycle. */
    private final List<Rail> rails = registry.rails();
    /** The descriptors {@link #watchRails} names, reused. */
    private final int[] watched = new int[ParkedRead.WATCH_FDS];
    private final List<PeerPool> poolList = registry.pools();
    private final List<QpCore> timedQps = new ArrayList<>();
    final ConnectionManager cm = new ConnectionManager(this);
    final EngineCounters counters = new EngineCounters();
    final InflightBudget budget;
    final FrameDispatch dispatch;
    final RailLifecycle lifecycle;
    private final FrameOut out = new FrameOut();

    private static final Runnable NO_WAKER = () -> { };
    private volatile Runnable waker = NO_WAKER;
    private long now;
    /** Whether the last cycle's final send and flush found nothing to do ({@link #parkRead}). */
    private boolean settled;
    private long nextDeadline = Long.MAX_VALUE;
    private int roundRobin;
    private boolean closed;

    public DeviceEngine(Device device, RailsSettings settings, Scheduler clock, UUID id, long seed, KeyTable keys) {
        this.device = device;
        this.settings = settings;
        this.clock = clock;
        this.id = id;
        this.random = new SplittableRandom(seed);
        this.keys = keys;
        this.qps = new QpTable(random.nextInt(255));
        this.budget = new InflightBudget(settings.inflightBytes());
        this.dispatch = new FrameDispatch(this);
        this.lifecycle = new RailLifecycle(this);
    }

    KeyTable keys() {
        return keys;
    }

    @Override
    public String roleName() {
        return "xdlink-device-" + id.toString().substring(0, 8);
    }

    /** Hands work to the engine, waking its thread if it idles; any thread. */
    public void submit(Command c) {
        commands.push(c);
        waker.run();
    }

    /** Who wakes the engine's thread (nobody in invoker mode, where the owner steps it). */
    public void waker(Runnable w) {
        this.waker = w;
    }

    @Override
    public long nextDeadlineNanos() {
        return closed ? Long.MAX_VALUE : nextDeadline;
    }

    void armTimer(long at) {
        if (at < nextDeadline) {
            nextDeadline = at;
        }
    }

    @Override
    public int doWork() {
        return cycle(false, false, false);
    }

    /**
     * A full cycle that reads as an owner's look does: once a message arrived in full, what is left waits for the
     * owner's next call. See {@link #receive}.
     */
    @Override
    public int doWorkPolled() {
        return cycle(false, false, true);
    }

    /**
     * A cycle that only looks, while the owner polls: an acknowledgement the peer asked for is left to the owner's
     * next {@link #doWork} (a post), so it leaves in the same write as what the owner posts then (an answer, an
     * advertisement) instead of in a write of its own; its {@code ack_delay} timer still sends it if no post comes.
     * In the two-host lab a plugin's standby otherwise woke on each arriving frame and sent the acknowledgement
     * alone; between two plugin processes (three rounds each, in turns) 1 MiB messages moved at 9.4-10.8 Gb/s that
     * way and 12.0-17.8 with the acknowledgement left to the host's calls, 64 KiB at 3.3-4.4 against 4.8-9.3.
     */
    @Override
    public int doWorkStandingBy() {
        return cycle(true, false, true);
    }

    /**
     * A post's cycle for an owner that polls: what the owner posted goes out, and the rails are read by its next
     * look, which follows at once (a host's isend is followed by a test() of its oldest request). When the post's own
     * cycle read them too, the look after it read again a few microseconds later and most often found nothing: at
     * 64 KiB between two plugin processes the sending end made 3.6-6.0 reads a message, and 2.1-2.2 this way.
     */
    @Override
    public int doWorkPosting() {
        return cycle(false, true, true);
    }

    private int cycle(boolean standingBy, boolean posting, boolean polled) {
        if (closed) {
            return 0;
        }
        long before = now;
        now = clock.nanoTime();
        // Late beyond both the last cycle and the next deadline: the engine was not running (a collection, a
        // starved thread). A virtual clock only ever jumps to a deadline, so it never looks late.
        long late = now - Math.max(before, nextDeadline);
        if (before != 0 && late > settings.railTimeoutNanos() / 8) {
            paused(late);
        }
        int work = 0;
        for (int i = 0; i < poolList.size(); i++) {
            poolList.get(i).cycleStarted(!standingBy);
        }
        for (Command c; (c = commands.poll()) != null; ) {
            c.run(this);
            work++;
            if (closed) {
                return work;
            }
        }
        if (work > 0) {
            // Fresh requests go out before the rails are read: on a round trip, the read that finds nothing yet
            // would otherwise sit between the application's post and the frame leaving.
            work += send();
            work += flush();
        }
        if (!posting || work == 0) {
            work += receive(standingBy, polled);
        }
        if (now >= nextDeadline) {
            work += runTimers();
        }
        int tail = send() + flush();
        work += tail;
        work += removeClosed();
        settled = tail == 0;
        return work;
    }

    /**
     * Leaves the rail's next read to {@code park} when this engine reads one rail and its last cycle ended with
     * nothing it could send: what it still holds waits for the peer (an acknowledgement, an advertisement, room in
     * the window), which can only come through that read, or for a timer, which the caller keeps before
     * {@code deadline}. Two rails are read in turns by the engine itself.
     */
    @Override
    public boolean parkRead(ParkedRead park, long deadline) {
        if (closed || !settled || rails.size() != 1) {
            return false;
        }
        Rail r = rails.get(0);
        return r.isUp() && r.transport.parkRead(park, deadline);
    }

    /**
     * Names the sockets of this engine's rails in {@code park}'s watch when it reads two or more and its last cycle
     * ended with nothing it could send, each rail's last read having found nothing: what it waits for comes through
     * one of them, or is a timer the caller keeps before {@code deadline}. Not while a rail is coming up, down or
     * without a socket to name.
     */
    @Override
    public boolean watchRails(ParkedRead park, long deadline) {
        int n = rails.size();
        if (closed || !settled || n < 2 || n > ParkedRead.WATCH_FDS) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            Rail r = rails.get(i);
            int fd = r.isUp() ? r.transport.watchDescriptor() : -1;
            if (fd < 0) {
                return false;
            }
            watched[i] = fd;
        }
        park.watch(watched, n, deadline);
        return true;
    }

    @Override
    public long lastCycleNanos() {
        return now;
    }

    private int flush() {
        int work = 0;
        for (int i = 0; i < rails.size(); i++) {
            Rail r = rails.get(i);
            if (r.state != Rail.State.CLOSED) {
                try {
                    work += r.transport.flush();
                } catch (RailClosedException e) {
                    lifecycle.closed(r, e);
                }
            }
        }
        return work;
    }

    /**
     * Polls the rails in slices of {@code ack_every_frames} frames each, sending the ACKs that fell due after every
     * round of slices: an ACK then never speaks for much more than its share of frames per rail, however large the
     * batches waiting in the rings. In an owner's look ({@code look}), idle rails only now and then ({@link #resting}).
     *
     * <p>For an owner that polls ({@code polled}) it stops after the round in which a message arrived in full: the
     * owner then sees it, and what it posts in answer (the advertisement of its next receive, with the ACK of what
     * came) leaves before more is read. Read to the end, a plugin host's call took in a whole window of a 64 KiB
     * stream at once, up to eight messages over some 100 us, while the ACKs that would free the sender's requests
     * waited for the call to end and the sender, its eight requests in flight, waited for them; the stream then went
     * in bursts, the receiving host seeing eight completions at once and nothing for the next 70-130 us.
     */
    private int receive(boolean look, boolean polled) {
        int slice = settings.ackEveryFrames();
        int total = 0;
        long messages = counters.messagesReceived;
        while (total < POLL_LIMIT * Math.max(1, rails.size())) {
            int got = 0;
            boolean more = false;
            for (int i = 0; i < rails.size(); i++) {
                Rail r = rails.get(i);
                if (look && resting(r)) {
                    continue;
                }
                int n = poll(r, slice);
                r.lastPolledAt = now;
                if (n > 0) {
                    r.lastFrameAt = now;
                }
                got += n;
                more |= n >= slice;
            }
            total += got;
            if (got > 0) {
                for (int i = 0; i < poolList.size(); i++) {
                    poolList.get(i).sendAckIfDue(out, now);
                }
            }
            if (!more) {
                break; // every rail handed over less than a slice: none has more waiting, so polling again finds nothing
            }
            if (polled && counters.messagesReceived != messages) {
                break;
            }
        }
        return total;
    }

    /**
     * Whether an owner's look leaves {@code r} alone this time: one of several rails, not its pool's first up, its
     * empty read a system call, nothing from it for {@link #IDLE_RAIL_NANOS} and read within the last
     * {@link #IDLE_RAIL_LOOK_NANOS}. Full cycles (the standby's, an owner's posts) read every rail.
     */
    private boolean resting(Rail r) {
        return rails.size() > 1 && r.transport.emptyPollIsACall()
                && now - r.lastFrameAt >= IDLE_RAIL_NANOS && now - r.lastPolledAt < IDLE_RAIL_LOOK_NANOS
                && (r.pool == null || !r.pool.isFirstUp(r));
    }

    private int poll(Rail rail, int limit) {
        if (rail.state == Rail.State.CLOSED) {
            return 0;
        }
        dispatch.select(rail, now);
        try {
            int n = rail.transport.poll(dispatch, limit);
            dispatch.endRun();
            return n;
        } catch (RailClosedException e) {
            dispatch.endRun();
            lifecycle.closed(rail, e);
            return 1;
        }
    }

    /**
     * This engine did not run for {@code gap} (a collection, a starved thread): silence from peers over that time
     * says nothing about them, so it does not count toward any rail or peer timeout.
     */
    private void paused(long gap) {
        for (int i = 0; i < rails.size(); i++) {
            rails.get(i).paused(gap);
        }
        for (int i = 0; i < timedQps.size(); i++) {
            timedQps.get(i).sender().paused(gap);
        }
    }

    private int runTimers() {
        long next = Long.MAX_VALUE;
        for (int i = 0; i < rails.size(); i++) {
            next = Math.min(next, rails.get(i).onTimer(now));
        }
        for (int i = 0; i < poolList.size(); i++) {
            next = Math.min(next, poolList.get(i).onTimer(now));
        }
        for (int i = 0; i < timedQps.size(); i++) {
            QpCore qp = timedQps.get(i);
            long t = qp.sender().onTimer(now);
            if (t == Long.MAX_VALUE && qp.state() != QpState.CONNECTING) {
                timedQps.remove(i--);
            }
            next = Math.min(next, t);
        }
        next = Math.min(next, cm.onTimer(now));
        nextDeadline = Math.max(next, now + 1);
        return 1;
    }

    private int send() {
        int work = 0;
        for (int i = 0; i < rails.size(); i++) {
            Rail r = rails.get(i);
            if (r.wantsUnsequenced()) {
                int n = r.sendDueUnsequenced(out, now);
                if (n > 0 && r.isUp()) {
                    counters.creditFramesSent += n;
                }
                work += n;
            }
        }
        for (int i = 0; i < poolList.size(); i++) {
            work += poolList.get(i).sendControl(out, now);
        }
        int n = rails.size();
        for (int i = 0; i < n; i++) {
            Rail r = rails.get((roundRobin + i) % n);
            if (r.isUp() && r.pool != null) {
                work += r.pool.sendData(r, out, now, r.transport.burstFrames());
            }
        }
        roundRobin++;
        return work;
    }

    /** A bug met on the engine's thread that the engine lives through: see {@link EngineCounters#internalError}. */
    public void internalError(Throwable t) {
        counters.internalError(t);
    }

    // ---------------------------------------------------------------- rails and pools

    /** A transport joins the device: it starts with a HELLO. */
    public void addRail(RailTransport transport) {
        int number = registry.freeNumber();
        if (number < 0) {
            transport.close();
            throw new IllegalStateException("a device has at most " + FrameLayout.MAX_ACK_RAILS + " rails");
        }
        Rail r = new Rail(lifecycle, settings, id, transport, number, random.nextInt(256));
        r.lastFrameAt = r.lastPolledAt = clock.nanoTime(); // a new rail counts as busy until it has been idle a while
        if (waker != NO_WAKER) {
            // Only a thread that parks needs waking. An invoker-mode engine runs on its owner's thread, which
            // waits its own way, and a transport watching for arrivals nobody waits on only costs wake-ups.
            transport.onArrival(waker);
        }
        registry.add(r);
        armTimer(now);
    }

    private int removeClosed() {
        return registry.removeClosed();
    }

    List<Rail> rails() {
        return rails;
    }

    void timedQp(QpCore qp) {
        timedQps.add(qp);
    }

    // ---------------------------------------------------------------- queue pairs and connections

    /**
     * A new queue pair's engine side, under a number of its own, with room for {@code maxSendWr} sends and
     * {@code maxRecvWr} receives; {@code sendOutstanding} and {@code recvOutstanding} are the counts its handle
     * keeps. Any thread.
     */
    public QpCore newQp(QpAttributes attrs, int maxSendWr, int maxRecvWr, AtomicInteger sendOutstanding,
                        AtomicInteger recvOutstanding) {
        return qps.allocate(qpn -> new QpCore(this, qpn, attrs, maxSendWr, maxRecvWr, sendOutstanding,
                recvOutstanding));
    }

    /** A listener starts listening: connection requests for it join {@code backlog}. Any thread. */
    public void listen(Listener l, Queue<PendingConnection> backlog) {
        cm.listen(l, backlog);
    }

    /** A queue pair starts connecting to {@code target}, now. Engine thread only. */
    public void connect(QpCore qp, ConnectHandle target) {
        cm.connect(qp, target, now);
    }

    /** A listener's accept made {@code qp} for request {@code p}: connect it and answer, now. Engine thread only. */
    public void accept(QpCore qp, PendingConnection p) {
        cm.accept(qp, p, now);
    }

    /** A listener closed: the requests waiting in its {@code backlog} are dropped. Engine thread only. */
    public void listenerClosed(Listener l, Queue<PendingConnection> backlog) {
        cm.listenerClosed(l, backlog);
    }

    // ---------------------------------------------------------------- commands

    void onPostSend(SendRequest w) {
        w.qp.sender().post(w, now);
    }

    void onPostRecv(RecvRequest r) {
        r.qp.receiver().post(r);
    }

    public void closeQp(QpCore qp) {
        if (qp.state() == QpState.CLOSED) {
            return;
        }
        qp.error(CompletionStatus.WR_FLUSH_ERROR, null);
        if (qp.pool != null && qp.peerQpn != 0) {
            qp.pool.disconnect(qp.peerQpn, qp.qpn());
        }
        qp.state(QpState.CLOSED);
        cm.closed(qp);
        qps.release(qp);
        timedQps.remove(qp);
    }

    long now() {
        return now;
    }

    // ---------------------------------------------------------------- closing

    boolean isClosed() {
        return closed;
    }

    /** Closes the engine on its own thread: every request fails with an error, every transport is closed. */
    public void shutdown() {
        if (closed) {
            return;
        }
        acknowledgeOwed();
        closed = true;
        for (Command c; (c = commands.poll()) != null; ) {
            c.flush();
        }
        cm.failAll("device " + id + " closed");
        for (QpCore qp : qps.all()) {
            qp.error(CompletionStatus.WR_FLUSH_ERROR, null);
            qp.state(QpState.CLOSED);
        }
        for (ConnectionManager.Listening l : cm.listeners.values()) {
            l.listener().close();
        }
        for (Rail r : rails) {
            try {
                r.transport.close();
            } catch (RuntimeException e) {
                // A transport's close must not throw; the device still closes the others.
                internalError(e);
            }
        }
        registry.clear();
    }

    /**
     * Sends every ACK owed now, due or not, and flushes the rails: before the rails close, or for a host about to
     * exit, so a peer whose last messages landed here sees them complete rather than fail when the rails go (a
     * coalesced ACK would otherwise still wait for its delay). Best effort: a rail without room or gone is skipped.
     */
    public void acknowledgeOwed() {
        now = clock.nanoTime();
        for (int i = 0; i < poolList.size(); i++) {
            try {
                poolList.get(i).sendOwedAck(out, now);
            } catch (RailClosedException e) {
                // The rail went meanwhile; the peer learns of the close from the rails themselves.
            } catch (RuntimeException e) {
                internalError(e);
            }
        }
        for (int i = 0; i < rails.size(); i++) {
            Rail r = rails.get(i);
            if (r.state != Rail.State.CLOSED) {
                try {
                    r.transport.flush();
                } catch (RailClosedException e) {
                    // As above.
                } catch (RuntimeException e) {
                    internalError(e);
                }
            }
        }
    }

    @Override
    public void onClose() {
        shutdown();
    }

    public DeviceStats stats() {
        return counters.snapshot(budget, rails);
    }

    /** See {@link EngineCounters#dataFramesReceivedFromAnyThread()}. */
    public long dataFramesReceivedFromAnyThread() {
        return counters.dataFramesReceivedFromAnyThread();
    }

    /** The last internal error the engine lived through, or null: see {@link EngineCounters#internalError}. */
    public Throwable lastError() {
        return counters.lastError();
    }

    /** Why the last rail was closed, or null: see {@link RailLifecycle#lastClosure()}. */
    public RailClosedException lastRailClosure() {
        return lifecycle.lastClosure();
    }
}
