package io.xdlink.rails.tcp;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import io.xdlink.xdomain.Scheduler;
import java.util.function.Supplier;

/**
 * One session stream between two hosts, run on an {@link IoLoop}: XDomain packets travel in it unchanged, on a few
 * numbered channels, beside heartbeats that tell each side the other is alive.
 *
 * <p>Records: a 2-byte big-endian length, a kind byte, a channel byte and a body. The first record each way is a
 * HELLO (magic {@code XDLC}, version); then PACKETs (an XDomain packet exactly as ring 0 carries it: whole words,
 * CRC included, 4 to 256 bytes) and HEARTBEATs (no body). Anything else closes the stream with an error that names
 * what arrived. A peer silent for the keepalive timeout is declared dead and the stream closed, so everything that
 * depends on it learns at once.
 */
public final class ControlConnection implements IoLoop.Handler {
    static final byte HELLO = 1;
    static final byte PACKET = 2;
    static final byte HEARTBEAT = 3;
    /** Channel the session's own XDomain exchange uses. */
    public static final int SESSION_CHANNEL = 0;
    /** Channel handed out by {@code Fabric.openControl}. */
    public static final int USER_CHANNEL = 1;
    static final int CHANNELS = 2;
    static final int MAX_PACKET_BYTES = 256;
    static final int MAGIC = 0x58444C43;
    static final int VERSION = 1;
    /** Packets queued for sending beyond which new ones are dropped, as a full ring 0 drops them. */
    static final int MAX_QUEUED_PACKETS = 1024;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** What the owner of a connection hears about it; called on the loop. */
    public interface Listener {
        /** Both hellos went through: packets may flow. */
        void opened(ControlConnection connection);

        /** The stream is gone; called once, with why. */
        void closed(ControlConnection connection, IOException cause);
    }

    private final IoLoop loop;
    private final SocketChannel channel;
    private final TcpSettings settings;
    private final Listener listener;
    private final boolean outbound;
    private final String name;
    private final RecordReader reader;
    private final RecordWriter writer = new RecordWriter(64 << 10);
    private final AtomicReferenceArray<Consumer<byte[]>> receivers = new AtomicReferenceArray<>(CHANNELS);
    private final AtomicInteger queued = new AtomicInteger();
    private SelectionKey key;
    private Keepalive keepalive;
    private Scheduler.Timer timer;
    private boolean helloSeen;
    private volatile boolean open;
    private volatile boolean closed;
    private volatile IOException cause;

    private ControlConnection(IoLoop loop, SocketChannel channel, TcpSettings settings, Listener listener,
                              boolean outbound, String name) {
        this.loop = loop;
        this.channel = channel;
        this.settings = settings;
        this.listener = listener;
        this.outbound = outbound;
        this.name = name;
        this.reader = new RecordReader(name, 4096, 2, 2 + MAX_PACKET_BYTES);
    }

    /**
     * Starts connecting to {@code remote} (from {@code local} when not null); the listener hears {@code opened} or
     * {@code closed} within the connect timeout. Call on the loop.
     */
    public static ControlConnection connect(IoLoop loop, InetSocketAddress local, InetSocketAddress remote,
                                     TcpSettings settings, Listener listener) throws IOException {
        SocketChannel ch = SocketChannel.open();
        try {
            ch.configureBlocking(false);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            if (local != null) {
                ch.bind(local);
            }
            ControlConnection c = new ControlConnection(loop, ch, settings, listener, true, "session to " + remote);
            c.armDeadline();
            if (ch.connect(remote)) {
                c.key = loop.register(ch, 0, c);
                c.start();
            } else {
                c.key = loop.register(ch, SelectionKey.OP_CONNECT, c);
            }
            return c;
        } catch (IOException | RuntimeException e) {
            IoLoop.closeQuietly(ch);
            throw e;
        }
    }

    /** Listens on {@code local}; each accepted stream runs with a listener of its own from {@code listeners}. */
    public static TcpListener listen(IoLoop loop, InetSocketAddress local, TcpSettings settings,
                                     Supplier<Listener> listeners) throws IOException {
        return TcpListener.open(loop, local, 0, ch -> accepted(loop, ch, settings, listeners.get()));
    }

    /** A control channel over one of this stream's channels; {@code onClose} runs when it is closed. */
    public TcpControlChannel channel(int ch, Runnable onClose) {
        if (ch < 0 || ch >= CHANNELS) {
            throw new IllegalArgumentException("channel " + ch + " is outside 0.." + (CHANNELS - 1));
        }
        return new TcpControlChannel(this, ch, onClose);
    }

    /** Runs a connection a listener accepted. Call on the loop. */
    static ControlConnection accepted(IoLoop loop, SocketChannel ch, TcpSettings settings, Listener listener)
            throws IOException {
        ch.configureBlocking(false);
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ControlConnection c = new ControlConnection(loop, ch, settings, listener, false,
                "session from " + ch.getRemoteAddress());
        c.armDeadline();
        c.key = loop.register(ch, 0, c);
        c.start();
        return c;
    }

    /** Until both hellos are through, the connect timeout applies; afterwards the keepalive does. */
    private void armDeadline() {
        timer = loop.schedule(settings.connectTimeout().toNanos(), () -> {
            if (!open) {
                fail(new SocketTimeoutException(name + ": no session within "
                        + settings.connectTimeout().toMillis() + " ms"));
            }
        });
    }

    private void start() throws IOException {
        MemorySegment hello = MemorySegment.ofArray(new byte[6]);
        hello.set(INT, 0, MAGIC);
        hello.set(SHORT, 4, (short) VERSION);
        writer.append(HELLO, (byte) SESSION_CHANNEL, hello.toArray(ValueLayout.JAVA_BYTE));
        key.interestOps(SelectionKey.OP_READ);
        flushNow();
    }

    @Override
    public void ready(SelectionKey k) throws IOException {
        if (k.isConnectable()) {
            channel.finishConnect();
            start();
            return;
        }
        if (k.isWritable()) {
            flushNow();
        }
        if (k.isReadable()) {
            read();
        }
    }

    private void read() throws IOException {
        while (!closed) {
            MemorySegment record = reader.next();
            if (record == null) {
                int n = reader.fill(channel);
                if (n == 0) {
                    return;
                }
                if (n < 0) {
                    reader.next(); // throws when the stream ended inside a record
                    fail(new IOException(name + ": the peer closed the session"));
                    return;
                }
                continue;
            }
            onRecord(record);
        }
    }

    private void onRecord(MemorySegment record) throws StreamFormatException {
        byte kind = record.get(ValueLayout.JAVA_BYTE, 0);
        int ch = Byte.toUnsignedInt(record.get(ValueLayout.JAVA_BYTE, 1));
        long bodyBytes = record.byteSize() - 2;
        if (!helloSeen) {
            if (kind != HELLO) {
                throw new StreamFormatException(name + ": the first record is of kind " + kind + ", expected a hello ("
                        + HELLO + "); not an xdlink session");
            }
            if (bodyBytes != 6) {
                throw new StreamFormatException(name + ": hello body is " + bodyBytes + " bytes, expected 6");
            }
            int magic = record.get(INT, 2);
            int version = Short.toUnsignedInt(record.get(SHORT, 6));
            if (magic != MAGIC) {
                throw new StreamFormatException(name + ": hello magic 0x" + Integer.toHexString(magic) + " is not 0x"
                        + Integer.toHexString(MAGIC) + "; not an xdlink session");
            }
            if (version != VERSION) {
                throw new StreamFormatException(name + ": session version " + version + " is not " + VERSION);
            }
            helloSeen = true;
            open = true;
            long now = loop.nanoTime();
            keepalive = new Keepalive(settings.keepaliveInterval().toNanos(), settings.keepaliveTimeout().toNanos(), now);
            timer.cancel();
            tick();
            listener.opened(this);
            return;
        }
        keepalive.heard(loop.nanoTime());
        switch (kind) {
            case HEARTBEAT -> {
                if (bodyBytes != 0) {
                    throw new StreamFormatException(name + ": heartbeat with a body of " + bodyBytes + " bytes");
                }
            }
            case PACKET -> {
                if (ch >= CHANNELS) {
                    throw new StreamFormatException(name + ": packet on channel " + ch + "; channels are 0.." + (CHANNELS - 1));
                }
                if (bodyBytes < 4 || bodyBytes % 4 != 0) {
                    throw new StreamFormatException(name + ": packet of " + bodyBytes
                            + " bytes; an XDomain packet is whole 32-bit words, 4 to " + MAX_PACKET_BYTES + " bytes");
                }
                Consumer<byte[]> r = receivers.get(ch);
                if (r != null) {
                    r.accept(record.asSlice(2).toArray(ValueLayout.JAVA_BYTE));
                }
            }
            case HELLO -> throw new StreamFormatException(name + ": a second hello");
            default -> throw new StreamFormatException(name + ": unknown record kind " + kind);
        }
    }

    /** Heartbeats and the dead-peer check, re-armed for whichever falls due first. */
    private void tick() {
        if (closed) {
            return;
        }
        long now = loop.nanoTime();
        if (keepalive.dead(now)) {
            fail(new SocketTimeoutException(name + ": peer silent for "
                    + TimeUnit.NANOSECONDS.toMillis(keepalive.silentFor(now)) + " ms (keepalive timeout "
                    + TimeUnit.NANOSECONDS.toMillis(keepalive.timeoutNanos()) + " ms)"));
            return;
        }
        if (keepalive.heartbeatDue(now)) {
            enqueue(HEARTBEAT, 0, new byte[0]);
        }
        timer = loop.schedule(Math.max(keepalive.untilNextCheck(loop.nanoTime()), 100_000), this::tick);
    }

    /** Sends one XDomain packet on a channel; any thread, never blocks; dropped when closed or too many queue. */
    void sendPacket(int ch, byte[] packet) {
        if (ch < 0 || ch >= CHANNELS) {
            throw new IllegalArgumentException("channel " + ch + " is outside 0.." + (CHANNELS - 1));
        }
        if (packet.length < 4 || packet.length > MAX_PACKET_BYTES || packet.length % 4 != 0) {
            throw new IllegalArgumentException("an XDomain packet is whole 32-bit words, 4 to " + MAX_PACKET_BYTES
                    + " bytes, not " + packet.length);
        }
        if (closed || queued.incrementAndGet() > MAX_QUEUED_PACKETS) {
            if (!closed) {
                queued.decrementAndGet();
            }
            return;
        }
        byte[] copy = packet.clone();
        loop.execute(() -> {
            queued.decrementAndGet();
            if (open && !closed) {
                enqueue(PACKET, ch, copy);
            }
        });
    }

    private void enqueue(byte kind, int ch, byte[] body) {
        if (writer.append(kind, (byte) ch, body)) {
            try {
                flushNow();
            } catch (IOException e) {
                fail(e);
            }
        }
    }

    private void flushNow() throws IOException {
        if (writer.writeTo(channel) > 0 && keepalive != null) {
            keepalive.sent(loop.nanoTime());
        }
        if (key.isValid()) {
            int ops = SelectionKey.OP_READ | (writer.pending() > 0 ? SelectionKey.OP_WRITE : 0);
            if (key.interestOps() != ops) {
                key.interestOps(ops);
            }
        }
    }

    /** Installs the receiver of one channel's packets (null: drop them). Any thread. */
    void receiver(int ch, Consumer<byte[]> receiver) {
        receivers.set(ch, receiver);
    }

    @Override
    public void failed(Exception cause) {
        fail(cause instanceof IOException io ? io : new IOException(name + ": " + cause, cause));
    }

    private void fail(IOException cause) {
        if (closed) {
            return;
        }
        this.cause = cause;
        closed = true;
        open = false;
        if (timer != null) {
            timer.cancel();
        }
        if (key != null) {
            key.cancel();
        }
        IoLoop.closeQuietly(channel);
        listener.closed(this, cause);
    }

    /** Closes the stream (what is queued goes out first if the socket takes it); any thread. */
    public void close() {
        loop.execute(() -> {
            if (!closed) {
                try {
                    writer.writeTo(channel);
                } catch (IOException ignored) {
                    // Closing anyway.
                }
                fail(new IOException(name + ": closed"));
            }
        });
    }

    /** True from both hellos until closed. */
    public boolean isOpen() {
        return open && !closed;
    }

    /** Why the stream closed, or null while it is open. */
    public IOException cause() {
        return cause;
    }

    /** True when this host connected; false when it accepted. */
    public boolean outbound() {
        return outbound;
    }

    public String name() {
        return name;
    }

    IoLoop loop() {
        return loop;
    }

    @Override
    public String toString() {
        return name;
    }
}
