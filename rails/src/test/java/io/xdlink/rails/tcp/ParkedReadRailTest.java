package io.xdlink.rails.tcp;

import io.xdlink.rails.ParkedRead;
import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.testing.Closer;
import io.xdlink.rails.testing.HostLook;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.xdlink.rails.tcp.TcpRailTransportTest.drain;
import static io.xdlink.rails.tcp.TcpRailTransportTest.pollUntilClosed;
import static io.xdlink.rails.tcp.TcpRailTransportTest.railFedBy;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A rail's next read left to a host's look outside Java ({@link ParkedRead}): what that read brings reaches the
 * engine at the rail's next poll exactly as the rail's own read would have brought it, and the rail never leaves its
 * read to anyone while it has something else under way or once it closes.
 */
class ParkedReadRailTest {
    private static final long FAR = TimeUnit.SECONDS.toNanos(60);
    @RegisterExtension
    final Closer closer = new Closer();

    /** The rail under test, fed by {@link #socket} once {@link #connect} ran. */
    private TcpRailTransport rail;
    private Socket socket;
    private final ParkedRead park = new ParkedRead();
    /** The frames the rail handed over. */
    private final List<byte[]> got = new ArrayList<>();

    /** Connects {@link #rail} to a plain socket, which the test's closer closes when {@code closeSocket}. */
    private void connect(boolean closeSocket) throws Exception {
        CompletableFuture<Socket> raw = new CompletableFuture<>();
        rail = railFedBy(closer, raw);
        socket = raw.get(30, TimeUnit.SECONDS);
        if (closeSocket) {
            closer.track(socket);
        }
    }

    private static void send(Socket s, int... bytes) throws IOException {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) bytes[i];
        }
        send(s, b);
    }

    private static void send(Socket s, byte[] bytes) throws IOException {
        s.getOutputStream().write(bytes);
        s.getOutputStream().flush();
    }

    /** Looks as a polling host does until a look leaves something for Java. */
    private void lookUntilFilled() {
        Await.until("the host's look to bring bytes", () -> HostLook.look(park) < 0);
        assertThat(park.state()).isEqualTo(ParkedRead.FILLED);
    }

    @Test
    void whatTheHostsReadBringsIsTakenAtTheRailsNextPollAsItsOwnReadWouldHaveTakenIt() throws Exception {
        connect(true);
        assertThat(rail.parkRead(park, System.nanoTime() + FAR)).as("no poll yet, so no read that found nothing")
                .isFalse();
        drain(rail, got);
        assertThat(rail.parkRead(park, System.nanoTime() + FAR)).isTrue();
        assertThat(park.state()).isEqualTo(ParkedRead.ARMED);
        assertThat(HostLook.look(park)).as("nothing sent yet").isZero();
        assertThat(park.state()).isEqualTo(ParkedRead.ARMED);
        assertThat(park.emptyReads()).isEqualTo(1);

        send(socket, 0, 2, 7, 8, 0, 3, 1, 2, 3, 0, 4, 4, 5);
        lookUntilFilled();
        assertThat(got).as("nothing is handed over before the rail polls").isEmpty();
        assertThat(drain(rail, got)).isEqualTo(2);
        assertThat(got).containsExactly(new byte[] {7, 8}, new byte[] {1, 2, 3});
        assertThat(park.state()).as("the poll took the block back").isEqualTo(ParkedRead.IDLE);

        // The rest of the third frame comes through the rail's own read; then the host reads again.
        send(socket, 6, 7);
        Await.until("the third frame", () -> {
            drain(rail, got);
            return got.size() == 3;
        });
        assertThat(got.get(2)).containsExactly(4, 5, 6, 7);
        assertThat(rail.parkRead(park, System.nanoTime() + FAR))
                .as("the poll that handed it stopped on a read that emptied the socket, not on one that found nothing")
                .isFalse();
        drain(rail, got);
        assertThat(rail.parkRead(park, System.nanoTime() + FAR)).isTrue();
        SplittableRandom random = new SplittableRandom(7);
        byte[] record = new byte[2 + 3000];
        record[0] = (byte) (3000 >> 8);
        record[1] = (byte) 3000;
        for (int i = 2; i < record.length; i++) {
            record[i] = (byte) random.nextInt();
        }
        send(socket, record);
        lookUntilFilled();
        Await.until("the fourth frame", () -> {
            drain(rail, got);
            return got.size() == 4;
        });
        assertThat(got.get(3)).containsExactly(java.util.Arrays.copyOfRange(record, 2, record.length));
        assertThat(park.fillingReads()).isEqualTo(2);
    }

    @Test
    void theHostsReadFinishesARecordTheRailBeganAndLooksPastTheDeadlineReadNothing() throws Exception {
        connect(true);
        send(socket, 0);
        Await.until("the record's first byte read", () -> {
            drain(rail, got);
            return rail.midTransfer();
        });
        assertThat(rail.parkRead(park, System.nanoTime() - 1)).isTrue();
        assertThat(HostLook.look(park)).as("a look past the deadline leaves it to Java").isEqualTo(-1);
        assertThat(park.state()).isEqualTo(ParkedRead.ARMED);
        assertThat(park.emptyReads() + park.fillingReads()).as("reading nothing").isZero();
        drain(rail, got);
        assertThat(rail.parkRead(park, System.nanoTime() + FAR)).isTrue();
        send(socket, 2, 9, 10);
        lookUntilFilled();
        drain(rail, got);
        assertThat(got).containsExactly(new byte[] {9, 10});
        assertThat(rail.midTransfer()).isFalse();
    }

    @Test
    void aRailWithOutputWaitingForRoomKeepsItsReadToItselfAndNamesNoSocketToWatch() throws IOException {
        TcpSettings small = new TcpSettings(64 << 10, 64 << 10, TcpSettings.MIN_RAIL_BUFFER, Duration.ofSeconds(10),
                Duration.ofMillis(10), Duration.ofMillis(200), Duration.ofMillis(50));
        TcpLoopbackPair pair = closer.track(TcpLoopbackPair.open(small, TcpRailTransportTest.LINK));
        MemorySegment frame = MemorySegment.ofArray(new byte[4096]);
        while (pair.a().offer(frame)) {
            pair.a().flush();
        }
        drain(pair.a(), new ArrayList<>());
        assertThat(pair.a().pendingBytes()).isPositive();
        assertThat(pair.a().parkRead(park, System.nanoTime() + FAR)).isFalse();
        assertThat(park.state()).isEqualTo(ParkedRead.IDLE);
        assertThat(pair.a().watchDescriptor()).isEqualTo(-1);
        Await.until("the output drained", () -> {
            pair.a().flush();
            drain(pair.b(), new ArrayList<>());
            return pair.a().pendingBytes() == 0;
        });
        drain(pair.a(), new ArrayList<>());
        assertThat(pair.a().watchDescriptor()).isNotNegative();
        assertThat(pair.a().parkRead(park, System.nanoTime() + FAR)).isTrue();
    }

    @Test
    void aRailNamesItsSocketForAWatchOnlyAfterAReadThatFoundNothingAndNeverOnceItFailed() throws Exception {
        connect(true);
        assertThat(rail.watchDescriptor()).as("no poll yet, so no read that found nothing").isEqualTo(-1);
        drain(rail, got);
        int fd = rail.watchDescriptor();
        assertThat(fd).isNotNegative();
        assertThat(rail.parkRead(park, System.nanoTime() + FAR)).isTrue();
        assertThat((int) park.block().get(java.lang.foreign.ValueLayout.JAVA_INT, ParkedRead.DESCRIPTOR))
                .as("the socket the rail reads").isEqualTo(fd);
        park.claim(rail);
        send(socket, 0, 1, 42);
        Await.until("the frame", () -> {
            drain(rail, got);
            return got.size() == 1;
        });
        assertThat(rail.watchDescriptor()).as("the poll that handed it emptied the socket: no read found nothing")
                .isEqualTo(-1);
        drain(rail, got);
        assertThat(rail.watchDescriptor()).isEqualTo(fd);
        rail.fail("peer dead (keepalive)", null);
        assertThat(rail.watchDescriptor()).isEqualTo(-1);
    }

    @Test
    void aRailThatClosesTakesItsReadBackFirstAndNeverLeavesItAgain() throws Exception {
        connect(true);
        drain(rail, got);
        assertThat(rail.parkRead(park, System.nanoTime() + FAR)).isTrue();
        rail.fail("peer dead (keepalive)", null);
        assertThat(park.state()).isEqualTo(ParkedRead.IDLE);
        assertThat(HostLook.look(park)).as("no read of a closed descriptor").isEqualTo(-1);
        assertThat(park.emptyReads() + park.fillingReads()).isZero();
        assertThat(rail.parkRead(park, System.nanoTime() + FAR)).isFalse();
    }

    @Test
    void theStreamsEndThatTheHostsReadMetIsMetAgainByTheRailsOwnRead() throws Exception {
        connect(false);
        drain(rail, got);
        assertThat(rail.parkRead(park, System.nanoTime() + FAR)).isTrue();
        socket.close();
        lookUntilFilled();
        assertThat(rail.isOpen()).as("the rail learns of the end at its own read").isTrue();
        RailClosedException e = pollUntilClosed(rail, got);
        assertThat(got).isEmpty();
        assertThat(e).hasMessage("rail x: the peer closed the rail");
        assertThat(park.state()).isEqualTo(ParkedRead.IDLE);
    }
}
