package io.xdlink.cli.bench;

import io.xdlink.rails.tcp.CongestionControl;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.NetworkChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.net.BindException;
import java.nio.channels.ClosedChannelException;

/**
 * {@code --baseline raw}: the same sizes and iterations over one plain TCP connection, without xdlink's protocol, so
 * the overhead shows as a ratio in the same run. Bandwidth is bytes over the time from the first write until the
 * server acknowledges the last byte (no peak: a socket has no completions to window); latency is a ping-pong of the
 * same size with perftest's statistics.
 *
 * <p>With {@code --baseline poll} both ends make every call of a run non-blocking and call again at once while it
 * moves nothing, as xdlink's ends poll their completions: on a virtual machine a blocking socket's round trip pays
 * for the wake-up of the thread it woke, two to four times what a polling one takes, which would flatter xdlink's
 * latency. The server still waits for each run's header in a blocking call, so that between runs, while xdlink's
 * share of a run in turns goes on, it takes no processor from it.
 *
 * <p>Both ends' sockets use the congestion control the rails use ({@code tcp_congestion}, cubic unless set), so a
 * host whose default is another (bbr) sets neither side apart: the ratio is xdlink's software against a socket's.
 */
final class RawBaseline {
    private static final int HEADER = 16;

    private RawBaseline() {
    }

    /**
     * Gives {@code ch} the rails' congestion control, before its connection begins as the rails' sockets take it (a
     * connecting socket once bound, a listener for the sockets it accepts). Where it cannot be set the rails could not
     * take it either, and both keep the host's default: the run's warnings say so as it starts
     * ({@link CongestionControl#unusable}), and the baseline's line names the host's.
     */
    private static void likeTheRails(NetworkChannel ch, String congestion) {
        if (!congestion.isEmpty()) {
            CongestionControl.set(ch, congestion);
        }
    }

    /** Where the server listens for the baseline: the rendezvous port + 1. */
    static int port(int rendezvousPort) {
        return rendezvousPort == 65535 ? 65534 : rendezvousPort + 1;
    }

    /** As {@link #listen(String, int, String)}, with the host's congestion control. */
    static ServerSocketChannel listen(String bindAddress, int port) {
        return listen(bindAddress, port, "");
    }

    /**
     * Opens the server's listening socket before the barrier, so the client never races it; the connection it accepts
     * takes the rails' {@code congestion} control from it ({@link #likeTheRails}; empty: the host's).
     */
    static ServerSocketChannel listen(String bindAddress, int port, String congestion) {
        try {
            return bind(bindAddress, port, congestion);
        } catch (BindException taken) {
            // Something else holds the rendezvous port + 1 (on one host, any socket's ephemeral port may): take a
            // free one instead; the client learns it from the server's RAW record.
            try {
                return bind(bindAddress, 0, congestion);
            } catch (IOException e) {
                throw new BenchException("cannot listen for the raw baseline: " + e.getMessage());
            }
        } catch (IOException e) {
            throw new BenchException("cannot listen for the raw baseline on port " + port + ": " + e.getMessage());
        }
    }

    private static ServerSocketChannel bind(String bindAddress, int port, String congestion) throws IOException {
        ServerSocketChannel ss = ServerSocketChannel.open();
        try {
            ss.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            ss.bind(bindAddress == null ? new InetSocketAddress(port) : new InetSocketAddress(bindAddress, port), 1);
            likeTheRails(ss, congestion);
            return ss;
        } catch (IOException e) {
            ss.close();
            throw e;
        }
    }

    /** The server's answer to the client's "raw" step: the port its baseline listens on. */
    static String portRecord(ServerSocketChannel ss) {
        return BenchRecord.of("RAW").with("port", ss.socket().getLocalPort()).format();
    }

    /** The client's half of the "raw" step: asks the server where its baseline listens. */
    static int askPort(Rendezvous rv) {
        return (int) BenchRecord.parse(rv.exchange("SYNC raw"), "RAW").getLong("port", 1, 65535);
    }

    /** The client's baseline run, one row per size, its socket on the rails' {@code congestion} control. */
    static List<BenchResult> client(BenchSettings s, String host, int port, String congestion) {
        List<BenchResult> rows = new ArrayList<>();
        try (Client c = Client.connect(s, host, port, congestion)) {
            for (long size : s.sizes()) {
                rows.add(c.row(size));
            }
        }
        return rows;
    }

    /**
     * The client's end of the baseline's one connection. A run takes each size whole ({@link #row}), or in turns
     * with xdlink's ({@link #streamTurn}, {@link #pingTurn}); the socket warms up before each size's first measured
     * run when the run warms up at all, as xdlink does.
     */
    static final class Client implements AutoCloseable {
        private final BenchSettings s;
        private final SocketChannel ch;
        private final Watchdog dog;
        private final ByteBuffer buf;
        private final ByteBuffer header = ByteBuffer.allocateDirect(HEADER);
        /** The size the socket last warmed up for, -1 before any; 0 when the run does not warm up. */
        private long warmedFor;

        private Client(BenchSettings s, SocketChannel ch, Watchdog dog) {
            this.s = s;
            this.ch = ch;
            this.dog = dog;
            this.buf = ByteBuffer.allocateDirect(Math.toIntExact(s.maxSize()));
            this.warmedFor = s.warmUp() ? -1 : 0;
        }

        /** Connects to the server's baseline, the socket on {@code congestion} control (empty: the host's). */
        static Client connect(BenchSettings s, String host, int port, String congestion) {
            SocketChannel ch = null;
            Watchdog dog = null;
            try {
                ch = SocketChannel.open();
                dog = new Watchdog(ch, s.timeout());
                ch.bind(null);
                likeTheRails(ch, congestion);
                ch.socket().connect(new InetSocketAddress(host, port), timeoutMillis(s.timeout()));
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.configureBlocking(!s.baselinePolls());
                return new Client(s, ch, dog);
            } catch (IOException e) {
                closeQuietly(ch, dog);
                throw failure(e, s);
            }
        }

        /** One size's whole row: the run's iterations at once. */
        BenchResult row(long size) {
            try {
                warmUpFor(size);
                long iters = s.iterations();
                if (s.test().isBandwidth()) {
                    long elapsed = stream(ch, dog, buf, header, size, iters, false);
                    return new BenchResult.Bw(BwStatistics.duration(size, iters, elapsed, s.unit()));
                }
                int n = Math.toIntExact(iters);
                long[] stamps = new long[n];
                pingPong(ch, dog, buf, header, size, n, stamps);
                return new BenchResult.Lat(LatencyStatistics.compute(size, stamps, n, 2));
            } catch (IOException e) {
                throw failure(e, s);
            }
        }

        /** One turn of a bandwidth row: {@code iters} messages streamed and acknowledged. */
        BwResult streamTurn(long size, long iters) {
            try {
                warmUpFor(size);
                long elapsed = stream(ch, dog, buf, header, size, iters, false);
                dog.rest();
                return BwStatistics.duration(size, iters, elapsed, s.unit());
            } catch (IOException e) {
                throw failure(e, s);
            }
        }

        /** One turn of a latency row: {@link Turns#LEAD_IN} unmeasured round trips, then {@code n}, timed (ns). */
        long[] pingTurn(long size, int n) {
            try {
                warmUpFor(size);
                pingPong(ch, dog, buf, header, size, Turns.LEAD_IN, null);
                long[] stamps = new long[n + 1];
                pingPong(ch, dog, buf, header, size, n, stamps);
                stamps[n] = System.nanoTime();
                dog.rest();
                return Turns.roundTrips(stamps);
            } catch (IOException e) {
                throw failure(e, s);
            }
        }

        /** Warms the socket up once for each size, as xdlink warms up before it: the first at the first pace. */
        private void warmUpFor(long size) throws IOException {
            dog.progress();
            if (warmedFor != 0 && warmedFor != size) {
                WarmUpPlateau.Pace pace = warmedFor < 0 ? WarmUpPlateau.Pace.FIRST : WarmUpPlateau.Pace.AGAIN;
                warmUp(ch, dog, buf, header, s, size, pace);
                warmedFor = size;
            }
        }

        @Override
        public void close() {
            closeQuietly(ch, dog);
        }
    }

    private static void closeQuietly(SocketChannel ch, Watchdog dog) {
        if (dog != null) {
            dog.close();
        }
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // the baseline is over either way
            }
        }
    }

    /**
     * The socket's own warm-up, so that a warm row is compared with a warm socket (its code compiled, its connection
     * past slow start): rounds of messages, or of round trips, until their rate is level, as xdlink's warm-up runs
     * ({@link WarmUpPlateau}).
     */
    private static void warmUp(SocketChannel ch, Watchdog dog, ByteBuffer buf, ByteBuffer header, BenchSettings s,
                               long size, WarmUpPlateau.Pace pace) throws IOException {
        WarmUpPlateau.run(pace, WarmUpPlateau.firstRound(BandwidthRun.WARM_UP_FIRST_MESSAGES, size), 1,
                WarmUpPlateau.NO_PEER, n -> {
            if (s.test().isBandwidth()) {
                stream(ch, dog, buf, header, size, n, true);
            } else {
                pingPong(ch, dog, buf, header, size, Math.toIntExact(n), null);
            }
        });
    }

    /** Announces {@code iters} messages of {@code size} (unmeasured if {@code warmUp}), writes them and waits for
     * the server's acknowledgement of the last byte; returns the nanoseconds that took. */
    private static long stream(SocketChannel ch, Watchdog dog, ByteBuffer buf, ByteBuffer header, long size,
                               long iters, boolean warmUp) throws IOException {
        announce(ch, dog, header, size, iters, warmUp);
        long start = System.nanoTime();
        for (long i = 0; i < iters; i++) {
            buf.clear().limit((int) size);
            writeFully(ch, buf, dog);
        }
        header.clear().limit(1);
        readFully(ch, header, dog);
        return System.nanoTime() - start;
    }

    /** Announces and makes {@code n} round trips of {@code size}, stamping each in {@code stamps} unless null. */
    private static void pingPong(SocketChannel ch, Watchdog dog, ByteBuffer buf, ByteBuffer header, long size, int n,
                                 long[] stamps) throws IOException {
        announce(ch, dog, header, size, n, stamps == null);
        for (int i = 0; i < n; i++) {
            if (stamps != null) {
                stamps[i] = System.nanoTime();
            }
            buf.clear().limit((int) size);
            writeFully(ch, buf, dog);
            buf.clear().limit((int) size);
            readFully(ch, buf, dog);
        }
    }

    /** The header before each run: its size and count; a warm-up's count is sent negated, so the server knows it
     * is not one of the agreed sizes. */
    private static void announce(SocketChannel ch, Watchdog dog, ByteBuffer header, long size, long iters,
                                 boolean warmUp) throws IOException {
        header.clear().putLong(size).putLong(warmUp ? -iters : iters).flip();
        writeFully(ch, header, dog);
    }

    /** The server's baseline: accepts one connection and answers every size the client runs. */
    static void server(ServerSocketChannel ss, BenchSettings s) {
        try (Server server = Server.accept(ss, s)) {
            server.serveRuns(s.sizes().size());
        }
    }

    /** The server's end of the baseline's one connection. */
    static final class Server implements AutoCloseable {
        private final BenchSettings s;
        private final SocketChannel ch;
        private final Watchdog dog;
        private final ByteBuffer header = ByteBuffer.allocateDirect(HEADER);
        private final ByteBuffer buf;
        private final long max;
        private Thread serving;
        private volatile RuntimeException failure;

        private Server(BenchSettings s, SocketChannel ch) {
            this.s = s;
            this.ch = ch;
            this.dog = new Watchdog(ch, s.timeout());
            this.max = s.maxSize();
            this.buf = ByteBuffer.allocateDirect(Math.toIntExact(max));
        }

        /** Accepts the client's connection on {@code ss}, which it then closes: there is only ever one. */
        static Server accept(ServerSocketChannel ss, BenchSettings s) {
            try (ss) {
                ss.socket().setSoTimeout(timeoutMillis(s.timeout()));
                SocketChannel ch = ss.socket().accept().getChannel();
                try {
                    ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                } catch (IOException e) {
                    ch.close();
                    throw e;
                }
                return new Server(s, ch);
            } catch (SocketTimeoutException e) {
                throw new BenchException("the raw baseline client did not connect within "
                        + Rendezvous.seconds(s.timeout()));
            } catch (IOException e) {
                throw failure(e, s);
            }
        }

        /**
         * Answers {@code measured} runs on a thread of its own, for a run in turns: each comes between two of
         * xdlink's shares, when the client gets to it. {@link #finish} waits for the last.
         */
        void startServing(int measured) {
            dog.rest();
            serving = Thread.ofPlatform().name("xdlink-bench-raw").daemon().start(() -> {
                try {
                    serveRuns(measured);
                } catch (RuntimeException e) {
                    failure = e;
                }
            });
        }

        /** After {@link #startServing}: waits for the last run to be answered and rethrows what serving failed with. */
        void finish() {
            try {
                serving.join(s.timeout());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (serving.isAlive()) {
                close();
                throw new BenchException("the raw baseline's last turn did not come within "
                        + Rendezvous.seconds(s.timeout()));
            }
            if (failure != null) {
                throw failure;
            }
        }

        /**
         * Answers the client's runs until {@code measured} of them were not warm-ups. Between runs the connection
         * rests: in turns, xdlink's share runs meanwhile, for as long as it takes.
         */
        void serveRuns(int measured) {
            try {
                for (int k = 0; k < measured; ) {
                    header.clear();
                    ch.configureBlocking(true);
                    readFully(ch, header, dog);
                    ch.configureBlocking(!s.baselinePolls());
                    long size = header.getLong(0);
                    long announced = header.getLong(8);
                    // A negative count is an unmeasured warm-up before the size that follows.
                    long iters = Math.abs(announced);
                    if (size < 1 || size > max || iters < 1 || iters > BenchOptions.MAX_ITERS) {
                        throw new BenchException("the raw baseline client sent size " + size + " x " + iters
                                + ", not what was agreed");
                    }
                    if (s.test().isBandwidth()) {
                        long left = size * iters;
                        while (left > 0) {
                            buf.clear().limit((int) Math.min(buf.capacity(), left));
                            left -= readFully(ch, buf, dog);
                        }
                        header.clear().put((byte) 1).flip();
                        writeFully(ch, header, dog);
                    } else {
                        for (long i = 0; i < iters; i++) {
                            buf.clear().limit((int) size);
                            readFully(ch, buf, dog);
                            buf.flip();
                            writeFully(ch, buf, dog);
                        }
                    }
                    if (announced > 0) {
                        k++;
                        dog.rest();
                    }
                }
            } catch (IOException e) {
                throw failure(e, s);
            }
        }

        @Override
        public void close() {
            closeQuietly(ch, dog);
        }
    }

    private static BenchException failure(IOException e, BenchSettings s) {
        // The watchdog closed the channel: a blocking call it woke says AsynchronousCloseException, a polling one's
        // next call its superclass.
        if (e instanceof ClosedChannelException) {
            return new BenchException("the raw baseline made no progress for " + Rendezvous.seconds(s.timeout())
                    + "; the peer stopped");
        }
        return new BenchException("the raw baseline failed: " + e.getMessage());
    }

    /** Writes all of {@code b}; a non-blocking channel's call that wrote nothing is made again at once. */
    private static void writeFully(SocketChannel ch, ByteBuffer b, Watchdog dog) throws IOException {
        while (b.hasRemaining()) {
            moved(ch.write(b), dog);
        }
    }

    /** Reads until {@code b} is full, as {@link #writeFully} writes; returns the bytes read. */
    private static int readFully(SocketChannel ch, ByteBuffer b, Watchdog dog) throws IOException {
        int n = 0;
        while (b.hasRemaining()) {
            int r = ch.read(b);
            if (r < 0) {
                throw new EOFException("the peer closed the baseline connection");
            }
            n += r;
            moved(r, dog);
        }
        return n;
    }

    /** Only bytes that moved count as progress: a polling end that finds none spins, and its peer may be gone. */
    private static void moved(int bytes, Watchdog dog) {
        if (bytes > 0) {
            dog.progress();
        } else {
            Thread.onSpinWait();
        }
    }

    /**
     * Blocking channel calls have no timeout of their own; the watchdog closes the channel when nothing moved for
     * the run's timeout, which wakes the blocked call with an AsynchronousCloseException. Between turns the
     * connection rests while xdlink's turn runs, for as long as that takes, and the watchdog does not count.
     */
    private static final class Watchdog implements AutoCloseable {
        private final Thread thread;
        private volatile long last = System.nanoTime();
        private volatile boolean resting;
        private volatile boolean done;

        Watchdog(SocketChannel ch, Duration timeout) {
            thread = Thread.ofVirtual().name("xdlink-bench-watchdog").start(() -> {
                while (!done) {
                    if (!resting && System.nanoTime() - last > timeout.toNanos()) {
                        try {
                            ch.close();
                        } catch (IOException ignored) {
                            // closing is the point; nothing else to do
                        }
                        return;
                    }
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
        }

        void progress() {
            last = System.nanoTime();
            resting = false;
        }

        /** Nothing is due on the connection until the next {@link #progress}. */
        void rest() {
            resting = true;
        }

        @Override
        public void close() {
            done = true;
            thread.interrupt();
        }
    }

    private static int timeoutMillis(Duration d) {
        return Math.toIntExact(Math.min(Integer.MAX_VALUE, Math.max(1, d.toMillis())));
    }
}
