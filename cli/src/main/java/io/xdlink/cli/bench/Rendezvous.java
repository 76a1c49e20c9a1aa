package io.xdlink.cli.bench;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import static io.xdlink.cli.bench.RendezvousRecords.abbreviate;
import static io.xdlink.cli.bench.RendezvousRecords.decode;
import static io.xdlink.cli.bench.RendezvousRecords.encode;
import static io.xdlink.cli.bench.RendezvousRecords.printable;

/**
 * perftest's out-of-band exchange: one TCP connection (port 18515 by default) over which the two sides swap
 * fixed-size ASCII records, the client writing first and the server reading first. The same exchange is the barrier
 * after set-up and between sizes. Every failure (port in use, server unreachable or silent, peer gone mid-run, a
 * record that is not ours) is a {@link BenchException} with one line saying what happened, and the socket is closed
 * so the port is free again.
 *
 * <p>Each side greets the other first ({@value #GREETING}), checked byte by byte as it arrives: a server drops a
 * connection that is not an xdlink bench client (idle, an HTTP request, garbage) within {@link #GREETING_TIMEOUT}
 * with a log line and goes on waiting, and a client pointed at another program says so as soon as it answers
 * wrongly, or after {@link #GREETING_TIMEOUT} of silence. While a side waits for a record, a {@link #watch} may say
 * the peer's host is gone (its session's heartbeat stopped), which ends the wait at once instead of after the
 * whole timeout.
 */
public final class Rendezvous implements AutoCloseable {
    /** Bytes in every record: printable ASCII, NUL padded. */
    public static final int RECORD_BYTES = 256;
    /** perftest's default port. */
    public static final int DEFAULT_PORT = 18515;
    /**
     * What the first record each side sends, its greeting, starts with; the number after it is the version of the
     * records that follow.
     */
    static final String GREETING_NAME = "XDLINK-BENCH ";
    /**
     * The greeting. Version 2: a client's warm-up asks after the server's compilers between its rounds
     * ({@link PeerCompilers}), a record a version 1 server would take for the size's result.
     */
    static final String GREETING = GREETING_NAME + "2";
    /** How long a side waits for the other's greeting. */
    static final Duration GREETING_TIMEOUT = Duration.ofSeconds(5);
    /** How often a waiting read looks at the {@link #watch}. */
    private static final int SLICE_MILLIS = 100;

    private final Socket socket;
    private final boolean server;
    private final String peer;
    private final InputStream in;
    private final OutputStream out;
    private final Duration timeout;
    private volatile Supplier<String> watch = () -> null;
    /** The peer's greeting named xdlink bench with another version. */
    private boolean otherVersion;
    /** A wait that nothing measures: the whole timeout counts from its start. */
    private static final LongSupplier STILL = () -> 0;

    private Rendezvous(Socket socket, boolean server, Duration timeout) throws IOException {
        this.socket = socket;
        this.server = server;
        this.timeout = timeout;
        this.peer = socket.getRemoteSocketAddress().toString();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(SLICE_MILLIS);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /**
     * Sets what a waiting read asks every {@value #SLICE_MILLIS} ms: null while the peer is believed alive, else why
     * it is gone (the read then fails with that).
     */
    public void watch(Supplier<String> watch) {
        this.watch = watch == null ? () -> null : watch;
    }

    /**
     * Waits for one client on {@code port} (0 picks a free port, reported through {@code boundPort}). A connection
     * that does not greet as an xdlink bench client within {@link #GREETING_TIMEOUT} is dropped with a line to
     * {@code log}, and the wait goes on.
     *
     * @param bindAddress address to listen on, or null for every address
     * @param acceptTimeout how long to wait for the client (zero: for ever)
     * @param timeout      how long any later exchange may wait for the peer
     * @param boundPort    receives the port actually bound before waiting (may be null)
     * @param log          receives a line for each connection dropped (may be null)
     */
    public static Rendezvous listen(String bindAddress, int port, Duration acceptTimeout, Duration timeout,
                                    IntConsumer boundPort, Consumer<String> log) {
        checkPort(port);
        try (ServerSocket ss = new ServerSocket()) {
            ss.setReuseAddress(true);
            try {
                ss.bind(bindAddress == null ? new InetSocketAddress(port) : new InetSocketAddress(bindAddress, port), 4);
            } catch (BindException e) {
                throw new BenchException("port " + port + " is already in use (another xdlink bench or perftest "
                        + "server?); choose another with -p");
            }
            if (boundPort != null) {
                boundPort.accept(ss.getLocalPort());
            }
            long deadline = acceptTimeout.isZero() ? Long.MAX_VALUE : System.nanoTime() + acceptTimeout.toNanos();
            while (true) {
                long left = deadline == Long.MAX_VALUE ? 0 : deadline - System.nanoTime();
                if (deadline != Long.MAX_VALUE && left <= 0) {
                    throw new BenchException("no client connected to port " + ss.getLocalPort() + " within "
                            + seconds(acceptTimeout));
                }
                // A zero accept timeout waits for ever, as a perftest server does.
                ss.setSoTimeout(deadline == Long.MAX_VALUE ? 0 : (int) Math.max(1, Math.min(Integer.MAX_VALUE,
                        TimeUnit.NANOSECONDS.toMillis(left))));
                Socket s;
                try {
                    s = ss.accept();
                } catch (SocketTimeoutException e) {
                    continue;
                }
                Rendezvous rv;
                try {
                    rv = new Rendezvous(s, true, timeout);
                } catch (IOException e) {
                    closeQuietly(s);
                    continue;
                }
                String refused = rv.greet();
                if (refused == null) {
                    return rv;
                }
                rv.close();
                if (log != null) {
                    log.accept("xdlink: dropped a connection from " + rv.peer + ": " + refused
                            + "; still waiting for a client");
                }
            }
        } catch (IOException e) {
            throw new BenchException("cannot listen on port " + port + ": " + e.getMessage(), e);
        }
    }

    /** As {@link #listen(String, int, Duration, Duration, IntConsumer, Consumer)} with nothing logged. */
    public static Rendezvous listen(String bindAddress, int port, Duration acceptTimeout, Duration timeout,
                                    IntConsumer boundPort) {
        return listen(bindAddress, port, acceptTimeout, timeout, boundPort, null);
    }

    /**
     * Exchanges greetings: the server reads the client's first, the client writes first. Returns null when the
     * peer greeted as xdlink, else what was wrong.
     */
    private String greet() {
        try {
            if (server) {
                String wrong = readGreeting();
                // A client of another version hears this side's greeting before the drop, so it can say which.
                if (wrong == null || otherVersion) {
                    write(encode(GREETING));
                }
                return wrong;
            }
            write(encode(GREETING));
            return readGreeting();
        } catch (BenchException e) {
            return e.getMessage();
        }
    }

    /** Reads the peer's greeting, failing at its first byte that differs; null when it is ours. */
    private String readGreeting() {
        byte[] want = encode(GREETING);
        byte[] got = new byte[RECORD_BYTES];
        int n = 0;
        long deadline = System.nanoTime() + Math.min(GREETING_TIMEOUT.toNanos(), Math.max(1, timeout.toNanos()));
        try {
            while (n < got.length) {
                int r;
                try {
                    r = in.read(got, n, got.length - n);
                } catch (SocketTimeoutException e) {
                    if (System.nanoTime() - deadline > 0) {
                        return (n == 0 ? "it sent nothing" : "it sent " + n + " bytes of a greeting and stopped")
                                + " within " + seconds(GREETING_TIMEOUT.compareTo(timeout) < 0 ? GREETING_TIMEOUT
                                : timeout) + " (not an xdlink bench peer?)";
                    }
                    continue;
                }
                if (r < 0) {
                    return n == 0 ? "it closed the connection without a word" : "it closed the connection after "
                            + printable(got, n);
                }
                for (int i = n; i < n + r; i++) {
                    if (got[i] != want[i]) {
                        if (i < GREETING_NAME.length()) {
                            return "it is not an xdlink bench peer (it sent " + printable(got, n + r) + ")";
                        }
                        otherVersion = true;
                        int end = 0;
                        while (end < n + r && got[end] != 0) {
                            end++;
                        }
                        return "it runs another version of xdlink bench (it sent " + printable(got, end)
                                + ", this side " + GREETING + "); run the same xdlink on both hosts";
                    }
                }
                n += r;
            }
            return null;
        } catch (IOException e) {
            return "the connection failed: " + e.getMessage();
        }
    }

    /** How long a client waits between tries while this host cannot use its address towards the server yet. */
    static final Duration ADDRESS_RETRY = Duration.ofMillis(100);

    /** Opens a client's connection: {@link Socket#connect(java.net.SocketAddress, int)}, or a stand-in in tests. */
    @FunctionalInterface
    interface Opener {
        void connect(Socket socket, InetSocketAddress to, int timeoutMillis) throws IOException;
    }

    /** Connects to a server, waiting at most {@code timeout} for the connection and for each exchange. */
    public static Rendezvous connect(String host, int port, Duration timeout) {
        return connect(host, port, timeout, Socket::connect);
    }

    /**
     * As {@link #connect(String, int, Duration)}, opening each try with {@code opener}. A try that finds no usable
     * local address towards the server ({@code EADDRNOTAVAIL}, a {@link BindException}) is tried again every
     * {@link #ADDRESS_RETRY} until {@code timeout}: that is an interface still coming up, most often an IPv6
     * link-local address in duplicate address detection for the second or so after a cable's interface appears
     * (in the two-host lab with {@code --addr v6}, a client started at once failed this way), and it passes on its
     * own. A refused connection still fails at once, as perftest's client does when no server runs.
     */
    static Rendezvous connect(String host, int port, Duration timeout, Opener opener) {
        checkPort(port);
        if (port == 0) {
            throw new BenchException("port 0 is not a server port");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Socket s = new Socket();
            try {
                long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
                opener.connect(s, new InetSocketAddress(host, port), Math.toIntExact(left));
                Rendezvous rv = new Rendezvous(s, false, timeout);
                String wrong = rv.greet();
                if (wrong != null) {
                    closeQuietly(s);
                    throw new BenchException("the listener at " + host + ":" + port
                            + (rv.otherVersion ? " is an xdlink bench server, but "
                                    : " is not an xdlink bench server: ") + wrong);
                }
                return rv;
            } catch (BindException e) {
                closeQuietly(s);
                if (System.nanoTime() + ADDRESS_RETRY.toNanos() - deadline >= 0) {
                    throw new BenchException("could not connect to " + host + ":" + port + " within "
                            + seconds(timeout) + ": " + e.getMessage() + " (this host has no usable address towards it;"
                            + " is the link's interface up, with its address configured?)", e);
                }
                pause(ADDRESS_RETRY);
            } catch (UnknownHostException e) {
                closeQuietly(s);
                throw new BenchException("unknown host '" + host + "'");
            } catch (ConnectException e) {
                closeQuietly(s);
                throw new BenchException("could not reach an xdlink bench server at " + host + ":" + port + " ("
                        + e.getMessage() + "); is the server running?");
            } catch (SocketTimeoutException e) {
                closeQuietly(s);
                throw new BenchException("the server at " + host + ":" + port + " did not answer within "
                        + seconds(timeout));
            } catch (IOException | IllegalArgumentException e) {
                closeQuietly(s);
                throw new BenchException("could not connect to " + host + ":" + port + ": " + e.getMessage(), e);
            }
        }
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted while waiting to connect");
        }
    }

    /** Sends our record and returns the peer's: the client writes first, the server reads first. */
    public String exchange(String record) {
        byte[] mine = encode(record);
        if (server) {
            String theirs = read(STILL);
            write(mine);
            return theirs;
        }
        write(mine);
        return read(STILL);
    }

    /**
     * Server: reads the client's record, answers with what {@code reply} makes of it, and returns the client's
     * record. If {@code reply} throws, the client is told why (an ERROR record) before the exception goes on.
     */
    public String serve(UnaryOperator<String> reply) {
        return serve(reply, STILL);
    }

    /**
     * As {@link #serve(UnaryOperator)}, for a wait that lasts as long as the peer's run (a
     * latency test's thousands of round trips): the timeout counts from the last time {@code progress} changed, not
     * from the start of the wait, so a peer that is slow (a loaded host, every round trip waiting for a processor) is
     * waited for as long as it moves, and only one that stopped moving for the whole timeout is given up on.
     */
    public String serve(UnaryOperator<String> reply, LongSupplier progress) {
        String theirs = read(progress);
        String mine;
        try {
            mine = reply.apply(theirs);
        } catch (RuntimeException e) {
            sendQuietly(BenchRecord.error(e.getMessage() == null ? e.toString() : e.getMessage()));
            throw e;
        }
        write(encode(mine));
        return theirs;
    }

    /** Writes one record and ignores any failure: the last word before giving up. */
    public void sendQuietly(String record) {
        try {
            out.write(encode(record));
            out.flush();
        } catch (IOException | IllegalArgumentException ignored) {
            // the peer is gone already; the local error is what matters
        }
    }

    /** Both sides wait here until the other arrives. */
    public void barrier(String name) {
        String back = exchange("SYNC " + name);
        if (back.startsWith("ERROR")) {
            BenchRecord.parse(back, "SYNC");
        }
        if (!back.equals("SYNC " + name)) {
            throw new BenchException("the peer is out of step: expected barrier '" + name + "', got '"
                    + abbreviate(back) + "'");
        }
    }

    /** The local port of the rendezvous connection (the server's listening port). */
    public int localPort() {
        return socket.getLocalPort();
    }

    /** The peer's address, for messages. */
    public String peer() {
        return peer;
    }

    public boolean isServer() {
        return server;
    }

    private void write(byte[] record) {
        try {
            out.write(record);
            out.flush();
        } catch (IOException e) {
            throw new BenchException("lost the connection to " + peer + " (" + e.getMessage() + ")", e);
        }
    }

    private String read(LongSupplier progress) {
        byte[] b = new byte[RECORD_BYTES];
        int n = 0;
        long deadline = System.nanoTime() + timeout.toNanos();
        long seen = progress.getAsLong();
        try {
            while (n < b.length) {
                int r;
                try {
                    r = in.read(b, n, b.length - n);
                } catch (SocketTimeoutException slice) {
                    String gone = watch.get();
                    if (gone != null) {
                        throw new BenchException(gone);
                    }
                    long now = progress.getAsLong();
                    if (now != seen) {
                        seen = now;
                        deadline = System.nanoTime() + timeout.toNanos();
                    } else if (System.nanoTime() - deadline > 0) {
                        throw new BenchException("the peer " + peer + " went silent (nothing for " + seconds(timeout)
                                + (progress == STILL ? "" : ", and no progress in the run") + ")");
                    }
                    continue;
                }
                if (r < 0) {
                    throw new EOFException();
                }
                n += r;
            }
        } catch (EOFException e) {
            throw new BenchException("the peer " + peer + " disconnected"
                    + (n > 0 ? " in the middle of a record" : "") + "; did it stop or fail?");
        } catch (IOException e) {
            throw new BenchException("lost the connection to " + peer + " (" + e.getMessage() + ")", e);
        }
        return decode(b);
    }

    private static void checkPort(int port) {
        if (port < 0 || port > 65535) {
            throw new BenchException("port " + port + " is out of range 1..65535");
        }
    }

    static String seconds(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + " s" : (ms / 1000.0) + " s";
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing more to free
        }
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }
}
