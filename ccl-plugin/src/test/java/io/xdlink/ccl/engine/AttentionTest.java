package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A test of a request whose end has had no completion since its last look answers "not done" without polling the
 * connection, and the first completion to arrive makes the next test poll and find it; the native words say the
 * same as the Java answer. Counted in polls, never timed.
 */
class AttentionTest {
    private static final long SEED = Long.getLong("xdlink.test.seed", 0xA77E_4710L);

    private final Arena arena = Arena.ofShared();
    private SendEndpoint send;
    private RecvEndpoint recv;

    @AfterEach
    void close() {
        if (send != null) {
            send.close();
        }
        if (recv != null) {
            recv.close();
        }
        arena.close();
    }

    /** Both ends over {@code wire}: a send end on its side a, a receive end on side b. */
    private InMemoryConnections connect(InMemoryConnections wire) throws CclException {
        send = new SendEndpoint(0, wire.a);
        recv = new RecvEndpoint(0, wire.b);
        return wire;
    }

    private static long[] words(Attention a) {
        MemorySegment w = MemorySegment.ofAddress(a.address()).reinterpret(Attention.BYTES);
        return new long[] {w.get(JAVA_LONG, 0), w.get(JAVA_LONG, 8), w.get(JAVA_LONG, 16), w.get(JAVA_LONG, 24)};
    }

    @Test
    void aPendingRequestOnAQuietEndIsAnsweredWithoutPollingUntilACompletionArrives() throws CclException {
        InMemoryConnections wire = connect(new InMemoryConnections(SEED, 1024).notifying());
        MemorySegment dst = arena.allocate(64, 64);
        MemorySegment src = InMemoryConnections.filled(arena, 8, SEED);
        RegisteredMemory dstMem = wire.register(dst);
        RegisteredMemory srcMem = wire.register(src);

        RecvRequest r = recv.irecv(new MemorySegment[] {dst}, new int[] {7}, new RegisteredMemory[] {dstMem});
        assertThat(r).isNotNull();
        assertThat(r.test(null)).isFalse();
        int polls = wire.b.polls;
        for (int i = 0; i < 100; i++) {
            assertThat(r.test(new long[1])).as("test %d of a receive nothing sent to", i).isFalse();
        }
        assertThat(wire.b.polls).as("polls of a quiet end's connection").isEqualTo(polls);
        long[] quiet = words(recv.attention);
        assertThat(quiet[0]).as("arrivals = seen, drive 0: %s", java.util.Arrays.toString(quiet)).isEqualTo(quiet[1]);
        assertThat(quiet[2]).isZero();
        assertThat(r.finished()).isFalse();

        SendRequest s = null;
        for (int i = 0; i < 10 && s == null; i++) {
            s = send.isend(src, 7, srcMem);
        }
        assertThat(s).as("the send matched the advertised receive").isNotNull();
        long[] woken = words(recv.attention);
        assertThat(woken[0]).as("the write-with-immediate counted as an arrival").isGreaterThan(woken[1]);

        long[] sizes = new long[1];
        assertThat(r.test(sizes)).as("the next test polls and finds the receive done").isTrue();
        assertThat(wire.b.polls).isGreaterThan(polls);
        assertThat(sizes[0]).isEqualTo(8);
        assertThat(dst.asSlice(0, 8).mismatch(src)).isEqualTo(-1);
        assertThat(r.finished()).isTrue();
        assertThatThrownBy(() -> r.test(null)).as("a released request is never answered from the words")
                .isInstanceOf(CclException.class).hasMessageContaining("tested again");

        long[] size = new long[1];
        boolean sent = false;
        for (int i = 0; i < 10 && !sent; i++) {
            sent = s.test(size);
        }
        assertThat(sent).isTrue();
        assertThat(size[0]).isEqualTo(8);
    }

    @Test
    void aRequestFinishedWhileAnotherCallPolledIsReportedDoneAtOnce() throws CclException {
        InMemoryConnections wire = connect(new InMemoryConnections(SEED, 1024).notifying());
        MemorySegment dst = arena.allocate(64, 64);
        MemorySegment src = InMemoryConnections.filled(arena, 16, SEED);
        RegisteredMemory dstMem = wire.register(dst);
        RegisteredMemory srcMem = wire.register(src);
        RecvRequest first = recv.irecv(new MemorySegment[] {dst.asSlice(0, 16)}, new int[] {1},
                new RegisteredMemory[] {dstMem});
        assertThat(send.isend(src, 1, srcMem)).isNotNull();
        // The next irecv drains the completion that finishes the first, and a test of the second drains the rest:
        // the end is quiet then, so only the first request's own finished state can tell its test it is done.
        RecvRequest second = recv.irecv(new MemorySegment[] {dst.asSlice(32, 16)}, new int[] {2},
                new RegisteredMemory[] {dstMem});
        assertThat(second).isNotNull();
        assertThat(second.test(null)).isFalse();
        assertThat(recv.attention.quiet()).isTrue();
        assertThat(first.finished()).isTrue();
        long[] sizes = new long[1];
        assertThat(first.test(sizes)).isTrue();
        assertThat(sizes[0]).isEqualTo(16);
        assertThat(dst.asSlice(0, 16).mismatch(src)).isEqualTo(-1);
    }

    @Test
    void anEndWhoseConnectionCannotTellPollsOnEveryTest() throws CclException {
        InMemoryConnections wire = new InMemoryConnections(SEED, 1024);
        recv = new RecvEndpoint(0, wire.b);
        send = new SendEndpoint(0, wire.a);
        MemorySegment dst = arena.allocate(64, 64);
        RegisteredMemory dstMem = wire.register(dst);
        RecvRequest r = recv.irecv(new MemorySegment[] {dst}, new int[] {7}, new RegisteredMemory[] {dstMem});
        int polls = wire.b.polls;
        for (int i = 0; i < 10; i++) {
            assertThat(r.test(null)).isFalse();
        }
        assertThat(wire.b.polls).as("at least one poll per test").isGreaterThanOrEqualTo(polls + 10);
        assertThat(words(recv.attention)[2]).as("drive").isEqualTo(1);
    }

    @Test
    void closingAnEndFinishesWhatIsInFlightAndLeavesItsWordsNeverQuiet() throws CclException {
        InMemoryConnections wire = connect(new InMemoryConnections(SEED, 1024).notifying());
        MemorySegment dst = arena.allocate(64, 64);
        RegisteredMemory dstMem = wire.register(dst);
        RecvRequest r = recv.irecv(new MemorySegment[] {dst}, new int[] {7}, new RegisteredMemory[] {dstMem});
        boolean[] told = new boolean[1];
        r.onFinish(() -> told[0] = true);
        assertThat(r.test(null)).isFalse();
        Attention attention = recv.attention;
        recv.close();
        assertThat(r.finished()).isTrue();
        assertThat(told[0]).as("the finish listener ran").isTrue();
        assertThat(words(attention)[2]).as("drive of a released block").isEqualTo(1);
        assertThatThrownBy(() -> r.test(null)).isInstanceOf(CclException.class);
    }

    @Test
    void aSendEndWithNoAdvertisementStaysStarvedUntilOneArrivesAndAfterItsLastBufferIsUsed() throws CclException {
        InMemoryConnections wire = connect(new InMemoryConnections(SEED, 1024).notifying());
        MemorySegment dst = arena.allocate(64, 64);
        MemorySegment src = InMemoryConnections.filled(arena, 8, SEED);
        RegisteredMemory dstMem = wire.register(dst);
        RegisteredMemory srcMem = wire.register(src);
        assertThat(send.surelyStarved()).as("a new end has not looked yet").isFalse();

        assertThat(send.isend(src, 7, srcMem)).as("nothing advertised yet").isNull();
        assertThat(send.surelyStarved()).as("starved after a look that found no advertisement").isTrue();
        assertThat(words(send.attention)[3]).as("the starved word natives read").isEqualTo(1);
        int polls = wire.a.polls;
        for (int i = 0; i < 100; i++) {
            assertThat(send.surelyStarved()).as("check %d of a starved end", i).isTrue();
        }
        assertThat(wire.a.polls).as("checking a starved end polls nothing").isEqualTo(polls);

        RecvRequest r = recv.irecv(new MemorySegment[] {dst}, new int[] {7}, new RegisteredMemory[] {dstMem});
        assertThat(r).isNotNull();
        assertThat(send.surelyStarved()).as("the advertisement arrived as a completion").isFalse();
        SendRequest s = send.isend(src, 7, srcMem);
        assertThat(s).as("the send found the advertised buffer").isNotNull();
        assertThat(send.surelyStarved()).as("its last buffer used, the end is starved again (or has news)")
                .isEqualTo(send.attention.quiet());
        assertThat(words(send.attention)[3]).as("starved word after the last buffer was used").isEqualTo(1);

        long[] size = new long[1];
        boolean sent = false;
        for (int i = 0; i < 10 && !sent; i++) {
            sent = s.test(size);
        }
        assertThat(sent).isTrue();
        assertThat(size[0]).isEqualTo(8);
        assertThat(send.surelyStarved()).as("after draining the send's completion: starved, no advertisement").isTrue();
        long[] got = new long[1];
        assertThat(r.test(got)).isTrue();
        assertThat(got[0]).isEqualTo(8);
        assertThat(dst.asSlice(0, 8).mismatch(src)).isEqualTo(-1);

        Attention attention = send.attention;
        send.close();
        send = null;
        assertThat(words(attention)[3]).as("a released block is never starved").isZero();
        assertThat(words(attention)[2]).as("nor quiet").isEqualTo(1);
    }
}
