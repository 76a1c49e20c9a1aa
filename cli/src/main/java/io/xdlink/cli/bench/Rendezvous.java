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
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * perftest's out-of-band exchange: one TCP connection (port 18515 by default) over which the two sides swap
 * fixed-size ASCII records, the client writing first and the server reading first. The same exchange is the barrier
 * after set-up and between sizes. Every failure (port in use, server unreachable or silent, peer gone mid-run, a
 * record that is not ours) is a {@link BenchException} with one line saying what happened, and the socket is closed
 * so the port is free again.
 */
public final class Rendezvous implements AutoCloseable {
    /** Bytes in every record: printable ASCII, NUL padded. */
    public static final int RECORD_BYTES = 256;
    /** perftest's default port. */
    public static final int DEFAULT_PORT = 18515;

    private final Socket socket;
    private final boolean server;
    private final String peer;
    private final InputStream in;
    private final OutputStream out;

    private Rendezvous(Socket socket, boolean server, Duration timeout) throws IOException {
        this.socket = socket;
        this.server = server;
        this.peer = socket.getRemoteSocketAddress().toString();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(Math.toIntExact(Math.max(1, timeout.toMillis())));
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /**
     * Waits for one client on {@code port} (0 picks a free port, reported through {@code boundPort}).
     *
     * @param bindAddress address to listen on, or null for every address
     * @param acceptTimeout how long to wait for the client
     * @param timeout      how long any later exchange may wait for the peer
     * @param boundPort    receives the port actually bound before waiting (may be null)
     */
    public static Rendezvous listen(String bindAddress, int port, Duration acceptTimeout, Duration timeout,
                                    java.util.function.IntConsumer boundPort) {
        checkPort(port);
        try (ServerSocket ss = new ServerSocket()) {
            ss.setReuseAddress(true);
            try {
                ss.bind(bindAddress == null ? new InetSocketAddress(port) : new InetSocketAddress(bindAddress, port), 1);
            } catch (BindException e) {
                throw new BenchException("port " + port + " is already in use (another xdlink bench or perftest "
                        + "server?); choose another with -p");
            }
            if (boundPort != null) {
                boundPort.accept(ss.getLocalPort());
            }
            // A zero accept timeout waits for ever, as a perftest server does.
            ss.setSoTimeout(acceptTimeout.isZero() ? 0 : Math.toIntExact(Math.max(1, acceptTimeout.toMillis())));
            Socket s;
            try {
                s = ss.accept();
            } catch (SocketTimeoutException e) {
                throw new BenchException("no client connected to port " + ss.getLocalPort() + " within "
                        + seconds(acceptTimeout));
            }
            try {
                return new Rendezvous(s, true, timeout);
            } catch (IOException e) {
                closeQuietly(s);
                throw new BenchException("client connection failed: " + e.getMessage(), e);
            }
        } catch (IOException e) {
            throw new BenchException("cannot listen on port " + port + ": " + e.getMessage(), e);
        }
    }

    /** Connects to a server, waiting at most {@code timeout} for the connection and for each exchange. */
    public static Rendezvous connect(String host, int port, Duration timeout) {
        checkPort(port);
        if (port == 0) {
            throw new BenchException("port 0 is not a server port");
        }
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(host, port), Math.toIntExact(Math.max(1, timeout.toMillis())));
            return new Rendezvous(s, false, timeout);
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

    /** Sends our record and returns the peer's: the client writes first, the server reads first. */
    public String exchange(String record) {
        byte[] mine = encode(record);
        if (server) {
            String theirs = read();
            write(mine);
            return theirs;
        }
        write(mine);
        return read();
    }

    /**
     * Server: reads the client's record, answers with what {@code reply} makes of it, and returns the client's
     * record. If {@code reply} throws, the client is told why (an ERROR record) before the exception goes on.
     */
    public String serve(java.util.function.UnaryOperator<String> reply) {
        String theirs = read();
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

    private String read() {
        byte[] b = new byte[RECORD_BYTES];
        int n = 0;
        try {
            while (n < b.length) {
                int r = in.read(b, n, b.length - n);
                if (r < 0) {
                    throw new EOFException();
                }
                n += r;
            }
        } catch (SocketTimeoutException e) {
            throw new BenchException("the peer " + peer + " went silent (nothing for " + socketTimeoutSeconds()
                    + ")");
        } catch (EOFException e) {
            throw new BenchException("the peer " + peer + " disconnected"
                    + (n > 0 ? " in the middle of a record" : "") + "; did it stop or fail?");
        } catch (IOException e) {
            throw new BenchException("lost the connection to " + peer + " (" + e.getMessage() + ")", e);
        }
        return decode(b);
    }

    static byte[] encode(String record) {
        byte[] text = record.getBytes(StandardCharsets.US_ASCII);
        if (text.length >= RECORD_BYTES) {
            throw new IllegalArgumentException("record longer than " + (RECORD_BYTES - 1) + " bytes");
        }
        for (int i = 0; i < record.length(); i++) {
            char c = record.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                throw new IllegalArgumentException("record has a non-printable character at " + i);
            }
        }
        byte[] b = new byte[RECORD_BYTES];
        System.arraycopy(text, 0, b, 0, text.length);
        return b;
    }

    static String decode(byte[] b) {
        int end = 0;
        while (end < b.length && b[end] != 0) {
            int c = b[end] & 0xff;
            if (c < 0x20 || c > 0x7e) {
                throw new BenchException("the peer sent a record that is not an xdlink bench record (byte 0x"
                        + Integer.toHexString(c) + " at " + end + "); is it a perftest or another program?");
            }
            end++;
        }
        for (int i = end; i < b.length; i++) {
            if (b[i] != 0) {
                throw new BenchException("the peer sent a malformed record (data after the terminator at " + end
                        + ")");
            }
        }
        return new String(b, 0, end, StandardCharsets.US_ASCII);
    }

    private String socketTimeoutSeconds() {
        try {
            return seconds(Duration.ofMillis(socket.getSoTimeout()));
        } catch (IOException e) {
            return "the timeout";
        }
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

    static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 37) + "..." : s;
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
