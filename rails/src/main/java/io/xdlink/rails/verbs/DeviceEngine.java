package io.xdlink.rails.verbs;

import io.xdlink.rails.Agent;
import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.frame.FrameException;
import io.xdlink.rails.frame.FrameField;
import io.xdlink.rails.frame.FrameFlags;
import io.xdlink.rails.frame.FrameLayout;
import io.xdlink.rails.frame.FrameView;
import io.xdlink.rails.frame.Opcode;
import io.xdlink.xdomain.Scheduler;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * A device's progress engine: the one agent that owns its rails, queue pairs and pools. Each duty cycle takes the
 * commands API calls handed over, polls every rail and dispatches what arrived, runs what the clock made due, sends
 * (unsequenced frames, control frames and ACKs, then data round-robin over the rails) and flushes every transport.
 * It never blocks; every timeout reads the injected {@link Scheduler}'s clock and {@link #nextDeadlineNanos()} says
 * when the clock next matters, so a virtual-time driver can step it exactly.
 */
final class DeviceEngine implements Agent, RailTransport.FrameReceiver {
    private static final int POLL_LIMIT = 256;
    private static final int BURST = 64;
    private static final VarHandle DATA_FRAMES_RECEIVED;

    static {
        try {
            DATA_FRAMES_RECEIVED = MethodHandles.lookup().findVarHandle(DeviceEngine.class, "dataFramesReceived",
                    long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Device device;
    final RailsSettings settings;
    final Scheduler clock;
    final UUID id;
    final SplittableRandom random;
    private final KeyTable keys;
    final QpTable qps;
    private final CommandQueue commands = new CommandQueue();
    private final Rail[] railsByNumber = new Rail[FrameLayout.MAX_ACK_RAILS];
    private final List<Rail> rails = new ArrayList<>();
    private final Map<UUID, PeerPool> pools = new HashMap<>();
    private final List<PeerPool> poolList = new ArrayList<>();
    private final List<QueuePair> timedQps = new ArrayList<>();
    final ConnectionManager cm = new ConnectionManager(this);
    private final FrameView view = new FrameView();
    private final FrameOut out = new FrameOut();
    private final ReceiveRun run = new ReceiveRun(this);
    /** Set by the queue pair that took the frame being dispatched when its next frame may continue a run. */
    QpReceiver runCandidate;

    private static final Runnable NO_WAKER = () -> { };
    private volatile Runnable waker = NO_WAKER;
    private Rail current;
    private long now;
    private long nextDeadline = Long.MAX_VALUE;
    private int roundRobin;
    private long inflightBytes;
    private long queuedFrames;
    private boolean closed;

    long dataFramesSent;
    long dataFramesReceived;
    /** Data frames that continued a run ({@link ReceiveRun}): taken the short way. */
    long runFrames;
    long ackFramesSent;
    long ackFramesReceived;
    long creditFramesSent;
    long nakFramesSent;
    long nakFramesQueued;
    long retransmittedFrames;
    long duplicateData;
    long corruptFrames;
    long malformedFrames;
    long staleFrames;
    long rnrEvents;
    long maxInflightBytes;
    /**
     * Bugs the engine met and lived through ({@link #internalError}): written on the engine's thread only, volatile
     * so a test or a tool on another thread sees a count that is never meant to be anything but zero.
     */
    private volatile long internalErrors;
    private volatile Throwable lastError;
    volatile RailClosedException lastRailClosure;

    DeviceEngine(Device device, RailsSettings settings, Scheduler clock, UUID id, long seed, KeyTable keys) {
        this.device = device;
        this.settings = settings;
        this.clock = clock;
        this.id = id;
        this.random = new SplittableRandom(seed);
        this.keys = keys;
        this.qps = new QpTable(random.nextInt(255));
    }

    KeyTable keys() {
        return keys;
    }

    @Override
    public String roleName() {
        return "xdlink-device-" + id.toString().substring(0, 8);
    }

    /** Hands work to the engine, waking its thread if it idles; any thread. */
    void submit(Command c) {
        commands.push(c);
        waker.run();
    }

    /** Who wakes the engine's thread (nobody in invoker mode, where the owner steps it). */
    void waker(Runnable w) {
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
            poolList.get(i).cycleStarted();
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
        work += receive();
        if (now >= nextDeadline) {
            work += runTimers();
        }
        work += send();
        work += flush();
        work += removeClosed();
        return work;
    }

    private int flush() {
        int work = 0;
        for (int i = 0; i < rails.size(); i++) {
            Rail r = rails.get(i);
            if (r.state != Rail.State.CLOSED) {
                try {
                    work += r.transport.flush();
                } catch (RailClosedException e) {
                    railClosed(r, e);
                }
            }
        }
        return work;
    }

    /**
     * Polls the rails in slices of {@code ack_every_frames} frames each, sending the ACKs that fell due after every
     * round of slices: an ACK then never speaks for much more than its share of frames per rail, however large the
     * batches waiting in the rings.
     */
    private int receive() {
        int slice = settings.ackEveryFrames();
        int total = 0;
        while (total < POLL_LIMIT * Math.max(1, rails.size())) {
            int got = 0;
            boolean more = false;
            for (int i = 0; i < rails.size(); i++) {
                int n = poll(rails.get(i), slice);
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
        }
        return total;
    }

    private int poll(Rail rail, int limit) {
        if (rail.state == Rail.State.CLOSED) {
            return 0;
        }
        current = rail;
        // Between polls commands and timers may have changed anything a run relies on.
        run.end();
        try {
            int n = rail.transport.poll(this, limit);
            // The run's frames are booked on their rail and pool before anything else looks at either.
            run.end();
            return n;
        } catch (RailClosedException e) {
            run.end();
            railClosed(rail, e);
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
            QueuePair qp = timedQps.get(i);
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
                    creditFramesSent += n;
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
                work += r.pool.sendData(r, out, now, BURST);
            }
        }
        roundRobin++;
        return work;
    }

    // ---------------------------------------------------------------- receiving

    @Override
    public void onFrame(MemorySegment frame) {
        onFrame(frame, 0, frame.byteSize());
    }

    @Override
    public void onFrame(MemorySegment buffer, long offset, int length) {
        onFrame(buffer, offset, (long) length);
    }

    @Override
    public void onFrame(MemorySegment head, long headOffset, int headLength, MemorySegment payload,
                        long payloadOffset, int payloadLength) {
        Rail rail = current;
        try {
            if (run.take(rail, head, headOffset, headLength, payload, payloadOffset, payloadLength, now)) {
                return;
            }
        } catch (RuntimeException e) {
            internalError(e);
            run.end();
            return;
        }
        run.end();
        try {
            view.wrap(head, headOffset, headLength, payload, payloadOffset, payloadLength, rail.checksCrc);
        } catch (FrameException e) {
            countBad(e);
            return;
        } catch (RuntimeException e) {
            // Not a bad frame but memory the transport handed over that cannot be read (closed, another thread's).
            internalError(e);
            return;
        }
        runCandidate = null;
        deliver(rail);
        if (runCandidate != null && !rail.checksCrc) {
            // Only where a frame's CRC is not checked: a run's frames are read in full but not checked again.
            run.begin(rail, runCandidate, head, headOffset, headLength, payloadLength);
        }
    }

    /** A run of a WRITE's frames that continues this rail's run goes straight to its place in the region. */
    @Override
    public MemorySegment placement(MemorySegment heads, long headOffset, int headLength, int frames,
                                   int payloadLength) {
        Rail rail = current;
        if (rail == null || rail.checksCrc) {
            return null;
        }
        return run.placement(rail, heads, headOffset, headLength, frames, payloadLength);
    }

    private void countBad(FrameException e) {
        if (e.field() == FrameField.CRC) {
            corruptFrames++;
        } else {
            malformedFrames++;
        }
    }

    private void onFrame(MemorySegment buffer, long offset, long length) {
        Rail rail = current;
        run.end();
        try {
            view.wrap(buffer, offset, length, rail.checksCrc);
        } catch (FrameException e) {
            countBad(e);
            return;
        } catch (RuntimeException e) {
            // As in the two-part onFrame: the transport's memory, not the frame, is at fault.
            internalError(e);
            return;
        }
        deliver(rail);
    }

    private void deliver(Rail rail) {
        try {
            dispatch(rail, view);
        } catch (RuntimeException e) {
            // A bug must not take the rail's transport down with it; count it, keep the last one for diagnosis.
            internalError(e);
        }
    }

    /**
     * A bug met on the engine's thread (a frame's handling, a duty cycle, a close) that the engine lives through:
     * counted in {@link DeviceStats#internalErrors()} and kept as {@link Device#lastError()}, never swallowed, since
     * on a lossy fabric retransmission would otherwise hide it.
     */
    void internalError(Throwable t) {
        internalErrors++;
        lastError = t;
    }

    Throwable lastError() {
        return lastError;
    }

    private void dispatch(Rail rail, FrameView v) {
        Opcode op = v.opcode();
        if (op == Opcode.HELLO) {
            rail.onHello(v, now);
            return;
        }
        if (rail.state != Rail.State.UP || v.epoch() != rail.epoch || rail.pool == null) {
            staleFrames++;
            return;
        }
        rail.onHeader(v, now);
        if (op == Opcode.CREDIT) {
            rail.onCredit(v, now);
            return;
        }
        if (!rail.acceptSequenced(v.seq(), now)) {
            return;
        }
        PeerPool pool = rail.pool;
        switch (op) {
            case WRITE, WRITE_WITH_IMM, SEND -> {
                rail.dataFramesReceived++;
                dataFramesReceived++;
                pool.onDataReceived(v.hasFlag(FrameFlags.ACK_REQUEST), now);
                QueuePair qp = qps.get(v.qpn());
                if (qp == null || qp.pool != pool) {
                    malformedFrames++;
                    return;
                }
                qp.receiver().onData(v, pool, now);
            }
            case ACK -> pool.onAck(v, now);
            case NAK -> {
                QueuePair qp = qps.get(v.nakQpn());
                if (qp != null && qp.pool == pool) {
                    qp.sender().onNak(v.nakMsn(), v.nakReason(), now);
                }
            }
            case CONNECT_REQUEST -> cm.onRequest(pool, v);
            case CONNECT_REPLY -> cm.onReply(pool, v, now);
            case CONNECT_REJECT -> cm.onReject(pool, v);
            case DISCONNECT -> {
                QueuePair qp = qps.get(v.disconnectDstQpn());
                if (qp != null && qp.pool == pool && qp.peerQpn == v.disconnectSrcQpn()) {
                    qp.error(CompletionStatus.WR_FLUSH_ERROR, null);
                }
            }
            default -> staleFrames++;
        }
    }

    // ---------------------------------------------------------------- rails and pools

    Rail rail(int number) {
        return number >= 0 && number < railsByNumber.length ? railsByNumber[number] : null;
    }

    PeerPool pool(UUID peer) {
        return pools.get(peer);
    }

    QueuePair qp(int qpn) {
        return qps.get(qpn);
    }

    /** A transport joins the device: it starts with a HELLO. */
    void addRail(RailTransport transport) {
        int number = -1;
        for (int i = 0; i < railsByNumber.length; i++) {
            if (railsByNumber[i] == null) {
                number = i;
                break;
            }
        }
        if (number < 0) {
            transport.close();
            throw new IllegalStateException("a device has at most " + FrameLayout.MAX_ACK_RAILS + " rails");
        }
        Rail r = new Rail(this, transport, number, random.nextInt(256));
        if (waker != NO_WAKER) {
            // Only a thread that parks needs waking. An invoker-mode engine runs on its owner's thread, which
            // waits its own way, and a transport watching for arrivals nobody waits on only costs wake-ups.
            transport.onArrival(waker);
        }
        railsByNumber[number] = r;
        rails.add(r);
        armTimer(now);
    }

    /** HELLO agreed an epoch: the rail joins (or rejoins) its peer's pool. */
    void railUp(Rail rail, UUID peer) {
        PeerPool pool = pools.get(peer);
        if (pool == null) {
            pool = new PeerPool(this, peer);
            pools.put(peer, pool);
            poolList.add(pool);
        }
        pool.attach(rail);
        pool.railUp(rail);
        cm.poolUp(pool);
    }

    void detach(Rail rail) {
        if (rail.pool != null) {
            rail.pool.detach(rail);
            rail.pool = null;
        }
    }

    /** No progress on the rail for the rail timeout: fail it over and probe it until it answers. */
    void railSilent(Rail rail) {
        rail.fail(Rail.State.DOWN);
    }

    /**
     * The transport is closed or broken: fail the rail over and let it go. When the fabric says the whole peer is
     * lost, no other rail to it will do better, so every queue pair connected (or connecting) to that peer fails
     * now, as the peer timeout would have failed it later: its oldest request with
     * {@link CompletionStatus#RETRY_EXCEEDED_ERROR}, the rest flushed.
     */
    void railClosed(Rail rail, RailClosedException cause) {
        PeerPool pool = rail.pool;
        // Kept for diagnosis: a request that fails later can say why its rails went.
        lastRailClosure = cause;
        rail.fail(Rail.State.CLOSED);
        rail.transport.close();
        if (cause.peerLost() && pool != null) {
            peerLost(pool);
        }
    }

    private void peerLost(PeerPool pool) {
        for (QueuePair qp : qps.all()) {
            if (qp.pool == pool && (qp.state() == QpState.READY || qp.state() == QpState.CONNECTING)) {
                qp.sender().fail(CompletionStatus.RETRY_EXCEEDED_ERROR);
            }
        }
    }

    private int removeClosed() {
        int removed = 0;
        for (int i = rails.size() - 1; i >= 0; i--) {
            Rail r = rails.get(i);
            if (r.state == Rail.State.CLOSED) {
                rails.remove(i);
                railsByNumber[r.number] = null;
                detach(r);
                removed++;
            }
        }
        return removed;
    }

    List<Rail> rails() {
        return rails;
    }

    // ---------------------------------------------------------------- accounting

    void sentData(Rail rail, int len, long at) {
        sentData(rail, 1, len, at);
    }

    /** {@code frames} data frames of {@code bytes} in all went out on {@code rail} and are in its log. */
    void sentData(Rail rail, int frames, long bytes, long at) {
        dataFramesSent += frames;
        inflightBytes += bytes;
        if (inflightBytes > maxInflightBytes) {
            maxInflightBytes = inflightBytes;
        }
        if (rail.log.unsettled() == frames) {
            // The log was empty before them: the retransmission timer starts with them.
            armTimer(at + settings.retransmitNanos());
        }
    }

    void delivered(Rail rail, int seq) {
        inflightBytes -= rail.log.length(seq);
        rail.log.settle(seq);
    }

    /** Data frames of {@code bytes} in all were settled at once ({@link RailSendLog#settleBelow}). */
    void deliveredBytes(long bytes) {
        inflightBytes -= bytes;
    }

    void settled(Rail rail, int seq) {
        inflightBytes -= rail.log.length(seq);
        rail.log.settle(seq);
    }

    boolean budgetAllows(int len) {
        return inflightBytes == 0 || inflightBytes + len <= settings.inflightBytes();
    }

    /** How many frames of {@code len} bytes {@link #budgetAllows} lets go one after another now. */
    long budgetRoom(int len) {
        long limit = settings.inflightBytes();
        if (inflightBytes == 0) {
            return Math.max(1, limit / len);
        }
        return Math.max(0, (limit - inflightBytes) / len);
    }

    void queued(long frames) {
        queuedFrames += frames;
    }

    long queuedFrames() {
        return queuedFrames;
    }

    long inflightBytes() {
        return inflightBytes;
    }

    void timedQp(QueuePair qp) {
        timedQps.add(qp);
    }

    // ---------------------------------------------------------------- commands

    void onPostSend(SendRequest w) {
        w.qp.sender().post(w, now);
    }

    void onPostRecv(RecvRequest r) {
        r.qp.receiver().post(r);
    }

    void connected(QueuePair qp, PeerPool pool, int peerQpn, int maxMessages, int psnWindow, long at) {
        qp.pool = pool;
        qp.peerQpn = peerQpn;
        qp.peerDevice(pool.peer);
        qp.sender().peerMaxMessages = Math.max(1, maxMessages);
        qp.sender().peerPsnWindow = Math.min(psnWindow, settings.qpPsnWindow());
        if (qp.state() == QpState.CONNECTING) {
            qp.state(QpState.READY);
            qp.sender().onReady(at);
        }
        if (qp.connecting != null) {
            qp.connecting.connected();
        }
    }

    void failConnect(QueuePair qp, String why) {
        if (qp.connecting != null) {
            qp.connecting.fail(why);
        }
        qp.error(CompletionStatus.WR_FLUSH_ERROR, null);
    }

    void closeQp(QueuePair qp) {
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
    void shutdown() {
        if (closed) {
            return;
        }
        acknowledgeOwed();
        closed = true;
        for (Command c; (c = commands.poll()) != null; ) {
            if (c instanceof SendRequest w) {
                w.qp.sendDone();
                w.qp.sendCq().push(new Completion(w.wrId, w.opcode, CompletionStatus.WR_FLUSH_ERROR, 0, 0, false,
                        w.qp.qpn()));
            } else if (c instanceof RecvRequest r) {
                r.qp.recvDone();
                r.qp.recvCq().push(new Completion(r.wrId, WorkOpcode.RECV, CompletionStatus.WR_FLUSH_ERROR, 0, 0,
                        false, r.qp.qpn()));
            }
        }
        cm.failAll("device " + id + " closed");
        for (QueuePair qp : qps.all()) {
            qp.error(CompletionStatus.WR_FLUSH_ERROR, null);
            qp.state(QpState.CLOSED);
        }
        for (Listener l : cm.listeners.values()) {
            l.close();
        }
        for (Rail r : rails) {
            try {
                r.transport.close();
            } catch (RuntimeException e) {
                // A transport's close must not throw; the device still closes the others.
                internalError(e);
            }
        }
        rails.clear();
    }

    /**
     * Sends every ACK owed now, due or not, and flushes the rails: before the rails close, or for a host about to
     * exit, so a peer whose last messages landed here sees them complete rather than fail when the rails go (a
     * coalesced ACK would otherwise still wait for its delay). Best effort: a rail without room or gone is skipped.
     */
    void acknowledgeOwed() {
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

    /**
     * {@link #dataFramesReceived} from any thread: the engine counts with plain stores, this reads the last one it
     * can see, never a torn value, at most a moment behind.
     */
    long dataFramesReceivedFromAnyThread() {
        return (long) DATA_FRAMES_RECEIVED.getOpaque(this);
    }

    DeviceStats stats() {
        List<RailStats> rs = new ArrayList<>();
        for (Rail r : List.copyOf(rails)) {
            rs.add(r.stats());
        }
        return new DeviceStats(dataFramesSent, dataFramesReceived, ackFramesSent, ackFramesReceived,
                creditFramesSent, nakFramesSent, retransmittedFrames, duplicateData, corruptFrames, malformedFrames,
                staleFrames, inflightBytes, maxInflightBytes, internalErrors, rs);
    }
}
