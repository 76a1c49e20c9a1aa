package io.xdlink.rails.tcp;

import io.xdlink.rails.testing.Closer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TcpControlTest {
    static final InetSocketAddress ANY_LOCAL = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    static final byte[] HELLO = {0, 8, 1, 0, 0x58, 0x44, 0x4C, 0x43, 0, 1};
    @RegisterExtension
    final Closer closer = new Closer();

    private static TcpSettings keepalive(long intervalMs, long timeoutMs) {
        return TcpSettings.defaults().withKeepalive(Duration.ofMillis(intervalMs), Duration.ofMillis(timeoutMs));
    }

    private static byte[] packet(int words, int seed) {
        byte[] p = new byte[words * 4];
        for (int i = 0; i < p.length; i++) {
            p[i] = (byte) (seed + i);
        }
        return p;
    }

    @Test
    void packetsTravelUnchangedBothWays() throws Exception {
        IoLoop loop = closer.track(new IoLoop("control-test"));
        CompletableFuture<TcpControlChannel> server = new CompletableFuture<>();
        TcpListener listener = closer.track(TcpControl.listen(loop, ANY_LOCAL, TcpSettings.defaults(), server::complete));
        TcpControlChannel a = closer.track(TcpControl.connect(loop, null, listener.address(), TcpSettings.defaults())
                .get(30, TimeUnit.SECONDS));
        TcpControlChannel b = closer.track(server.get(30, TimeUnit.SECONDS));
        List<byte[]> atA = new CopyOnWriteArrayList<>();
        List<byte[]> atB = new CopyOnWriteArrayList<>();
        a.receiver(atA::add);
        b.receiver(atB::add);
        for (int i = 1; i <= 64; i++) {
            a.send(packet(i, i));
        }
        b.send(packet(63, 7));
        Await.until("64 packets at b and 1 at a", () -> atB.size() == 64 && atA.size() == 1);
        for (int i = 1; i <= 64; i++) {
            assertThat(atB.get(i - 1)).isEqualTo(packet(i, i));
        }
        assertThat(atA.getFirst()).isEqualTo(packet(63, 7));
        assertThatThrownBy(() -> a.send(new byte[6])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("whole 32-bit words, 4 to 256 bytes, not 6");
        assertThatThrownBy(() -> a.send(new byte[260])).isInstanceOf(IllegalArgumentException.class);
        a.close();
        assertThat(a.isOpen()).isFalse();
        Await.until("b to see the close", () -> !b.isOpen());
        a.send(packet(1, 1)); // dropped, as on a closed ring 0, without an error
    }

    @Test
    void aPeerThatStaysSilentIsDeclaredDeadAndOneThatBeatsIsNot() throws Exception {
        IoLoop loop = closer.track(new IoLoop("control-test"));
        // A raw peer that says hello, then reads everything and never sends again: alive at TCP level, dead above.
        ServerSocket raw = closer.track(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
        CompletableFuture<Integer> heartbeatsSeen = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try (Socket s = raw.accept()) {
                s.getOutputStream().write(HELLO);
                DataInputStream in = new DataInputStream(s.getInputStream());
                int beats = 0;
                while (true) {
                    int len = in.readUnsignedShort();
                    byte[] body = in.readNBytes(len);
                    if (body[0] == ControlConnection.HEARTBEAT) {
                        beats++;
                    }
                    if (in.available() == 0 && beats > 0 && !s.isClosed()) {
                        heartbeatsSeen.complete(beats);
                    }
                }
            } catch (IOException e) {
                heartbeatsSeen.complete(-1);
            }
        });
        TcpControlChannel ch = closer.track(TcpControl.connect(loop, null, (InetSocketAddress) raw.getLocalSocketAddress(),
                keepalive(10, 150)).get(30, TimeUnit.SECONDS));
        assertThat(heartbeatsSeen.get(30, TimeUnit.SECONDS)).as("a quiet session sends heartbeats").isPositive();
        Await.until("the silent peer to be declared dead", () -> !ch.isOpen());

        // Two real ends keep each other alive well past many timeouts' worth of heartbeats.
        CompletableFuture<TcpControlChannel> server = new CompletableFuture<>();
        TcpListener listener = closer.track(TcpControl.listen(loop, ANY_LOCAL, keepalive(2, 60), server::complete));
        TcpControlChannel a = closer.track(TcpControl.connect(loop, null, listener.address(), keepalive(2, 60))
                .get(30, TimeUnit.SECONDS));
        TcpControlChannel b = closer.track(server.get(30, TimeUnit.SECONDS));
        List<byte[]> got = new CopyOnWriteArrayList<>();
        b.receiver(got::add);
        for (int round = 0; round < 20; round++) {
            int want = round + 1;
            a.send(packet(2, round));
            Await.until("packet " + want, () -> got.size() == want);
        }
        assertThat(a.isOpen()).isTrue();
        assertThat(b.isOpen()).isTrue();
    }

    private static String refusalOf(byte[] bytes) throws Exception {
        IoLoop loop = new IoLoop("control-test");
        try (ServerSocket raw = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread.ofPlatform().daemon().start(() -> {
                try (Socket s = raw.accept()) {
                    OutputStream out = s.getOutputStream();
                    out.write(bytes);
                    s.shutdownOutput();
                    InputStream in = s.getInputStream();
                    while (in.read() >= 0) {
                        // Keep the stream open until the other side gives up on it.
                    }
                } catch (IOException ignored) {
                    // The other side closed on us, which is what the test wants.
                }
            });
            CompletableFuture<TcpControlChannel> f = TcpControl.connect(loop, null,
                    (InetSocketAddress) raw.getLocalSocketAddress(), TcpSettings.defaults());
            try {
                TcpControlChannel ch = f.get(30, TimeUnit.SECONDS);
                ch.receiver(p -> { });
                Await.until("the channel to close", () -> !ch.isOpen());
                return "opened, then closed: " + ch.failure().orElseThrow().getMessage();
            } catch (ExecutionException e) {
                return e.getCause().getMessage();
            }
        } finally {
            loop.close();
        }
    }

    @Test
    void malformedStreamsAreRefusedWithAClearError() throws Exception {
        assertThat(refusalOf(new byte[] {0, 6, 2, 0, 1, 2, 3, 4})).endsWith("the first record is of kind 2, expected a hello (1); not an xdlink session");
        assertThat(refusalOf(new byte[] {0, 8, 1, 0, 'H', 'T', 'T', 'P', 0, 1})).endsWith("hello magic 0x48545450 is not 0x58444c43; not an xdlink session");
        assertThat(refusalOf(new byte[] {0, 8, 1, 0, 0x58, 0x44, 0x4C, 0x43, 0, 2})).endsWith("session version 2 is not 1");
        assertThat(refusalOf(new byte[] {(byte) 0xFF, (byte) 0xFF})).contains("record length 65535 is outside 2..258");
        assertThat(refusalOf(new byte[] {0, 8, 1})).contains("the stream ended inside a record of 8 bytes (1 arrived)");
        assertThat(refusalOf(new byte[] {0})).contains("the stream ended inside a record's length prefix (1 of 2 bytes)");
    }

    @Test
    void malformedRecordsAfterTheHelloCloseTheSession() throws Exception {
        byte[][] bad = {
                {0, 4, 9, 0, 0, 0},
                {0, 5, 2, 0, 1, 2, 3},
                {0, 6, 2, 7, 1, 2, 3, 4},
                {0, 3, 3, 0, 1},
                HELLO,
                {0, 6, 2, 0, 1, 2, 3, 4},
        };
        String[] why = {
                "unknown record kind 9",
                "packet of 3 bytes; an XDomain packet is whole 32-bit words, 4 to 256 bytes",
                "packet on channel 7; channels are 0..1",
                "heartbeat with a body of 1 bytes",
                "a second hello",
                "the peer closed the session",
        };
        for (int i = 0; i < bad.length; i++) {
            byte[] stream = new byte[HELLO.length + bad[i].length];
            System.arraycopy(HELLO, 0, stream, 0, HELLO.length);
            System.arraycopy(bad[i], 0, stream, HELLO.length, bad[i].length);
            assertThat(refusalOf(stream)).as("case %d", i).startsWith("opened, then closed: ").endsWith(why[i]);
        }
    }

    @Test
    void connectingToNothingFailsWithinTheConnectTimeout() throws Exception {
        IoLoop loop = closer.track(new IoLoop("control-test"));
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        CompletableFuture<TcpControlChannel> f = TcpControl.connect(loop, null,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), port), TcpSettings.defaults());
        assertThatThrownBy(() -> f.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IOException.class);
    }
}
