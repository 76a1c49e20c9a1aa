package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;
import io.xdlink.ccl.EngineTurn;
import io.xdlink.rails.Agent;
import io.xdlink.rails.verbs.MemoryRegion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A test of a request whose end has had no completion since its last look answers "not done" without polling the
 * completion queues, and the first completion to arrive makes the next test poll and find it; the native words say
 * the same as the Java answer. Polling is seen on the receive end's quiet queue (its advertisements' sends), whose
 * completions wait there until the end polls; never timed.
 */
class AttentionTest {
    private static final long SEED = Long.getLong("xdlink.test.seed", 0xA77E_4710L);

    private final Arena arena = Arena.ofShared();
    private RailsWire wire;
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
        wire.close();
        arena.close();
    }

    private void connect() throws Exception {
        wire = new RailsWire(SEED);
        send = wire.sendEnd(false);
        recv = wire.recvEnd(false);
    }

    private static long[] words(Attention a) {
        MemorySegment w = MemorySegment.ofAddress(a.address()).reinterpret(Attention.BYTES);
        return new long[] {w.get(JAVA_LONG, 0), w.get(JAVA_LONG, 8), w.get(JAVA_LONG, 16), w.get(JAVA_LONG, 24),
                w.get(JAVA_LONG, 32)};
    }

    private IsendRequest sendWhenMatched(MemorySegment data, int tag, MemoryRegion memory) throws CclException {
        IsendRequest s = null;
        for (int i = 0; i < 100 && s == null; i++) {
            s = send.isend(data, tag, memory);
            if (s == null) {
                wire.step();
            }
        }
        return s;
    }

    @Test
    void aPendingRequestOnAQuietEndIsAnsweredWithoutPollingUntilACompletionArrives() throws Exception {
        connect();
        MemorySegment dst = arena.allocate(64, 64);
        MemorySegment src = RailsWire.filled(arena, 8, SEED);
        MemoryRegion dstMem = recv.register(dst);
        MemoryRegion srcMem = send.register(src);

        IrecvRequest r = recv.irecv(new MemorySegment[] {dst}, new int[] {7}, new MemoryRegion[] {dstMem});
        assertThat(r).isNotNull();
        assertThat(r.test(null)).isFalse();
        wire.step();
        assertThat(wire.recvQp.sendCq().size()).as("the advertisement's send completed, unannounced").isEqualTo(1);
        for (int i = 0; i < 100; i++) {
            assertThat(r.test(new long[1])).as("test %d of a receive nothing sent to", i).isFalse();
        }
        assertThat(wire.recvQp.sendCq().size()).as("no test of the quiet end polled").isEqualTo(1);
        long[] quiet = words(recv.attention);
        assertThat(quiet[0]).as("arrivals = seen, drive 0: %s", java.util.Arrays.toString(quiet)).isEqualTo(quiet[1]);
        assertThat(quiet[2]).isZero();
        assertThat(r.finished()).isFalse();

        IsendRequest s = sendWhenMatched(src, 7, srcMem);
        assertThat(s).as("the send matched the advertised receive").isNotNull();
        wire.step();
        long[] woken = words(recv.attention);
        assertThat(woken[0]).as("the write-with-immediate counted as an arrival").isGreaterThan(woken[1]);

        long[] sizes = new long[1];
        assertThat(r.test(sizes)).as("the next test polls and finds the receive done").isTrue();
        assertThat(wire.recvQp.sendCq().size()).as("that test polled").isZero();
        assertThat(sizes[0]).isEqualTo(8);
        assertThat(dst.asSlice(0, 8).mismatch(src)).isEqualTo(-1);
        assertThat(r.finished()).isTrue();
        assertThatThrownBy(() -> r.test(null)).as("a released request is never answered from the words")
                .isInstanceOf(CclException.class).hasMessageContaining("tested again");

        long[] size = new long[1];
        assertThat(wire.await(s, size)).isTrue();
        assertThat(size[0]).isEqualTo(8);
    }

    @Test
    void aRequestFinishedWhileAnotherCallPolledIsReportedDoneAtOnce() throws Exception {
        connect();
        MemorySegment dst = arena.allocate(64, 64);
        MemorySegment src = RailsWire.filled(arena, 16, SEED);
        MemoryRegion dstMem = recv.register(dst);
        MemoryRegion srcMem = send.register(src);
        IrecvRequest first = recv.irecv(new MemorySegment[] {dst.asSlice(0, 16)}, new int[] {1},
                new MemoryRegion[] {dstMem});
        assertThat(sendWhenMatched(src, 1, srcMem)).isNotNull();
        wire.step();
        // The next irecv drains the completion that finishes the first, and a test of the second drains the rest:
        // the end is quiet then, so only the first request's own finished state can tell its test it is done.
        IrecvRequest second = recv.irecv(new MemorySegment[] {dst.asSlice(32, 16)}, new int[] {2},
                new MemoryRegion[] {dstMem});
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
    void aNewEndIsNotQuietUntilItsFirstLook() throws Exception {
        connect();
        assertThat(recv.attention.quiet()).as("nothing looked yet: a test must drive the end").isFalse();
        MemorySegment dst = arena.allocate(8, 64);
        IrecvRequest r = recv.irecv(new MemorySegment[] {dst}, new int[] {7},
                new MemoryRegion[] {recv.register(dst)});
        assertThat(r.test(null)).isFalse();
        assertThat(recv.attention.quiet()).as("settled by that look").isTrue();
    }

    @Test
    void closingAnEndFinishesWhatIsInFlightAndLeavesItsWordsNeverQuiet() throws Exception {
        connect();
        MemorySegment dst = arena.allocate(64, 64);
        MemoryRegion dstMem = recv.register(dst);
        IrecvRequest r = recv.irecv(new MemorySegment[] {dst}, new int[] {7}, new MemoryRegion[] {dstMem});
        boolean[] told = new boolean[1];
        r.onFinish(req -> told[0] = true);
        assertThat(r.test(null)).isFalse();
        Attention attention = recv.attention;
        recv.close();
        assertThat(r.finished()).isTrue();
        assertThat(told[0]).as("the finish listener ran").isTrue();
        assertThat(words(attention)[2]).as("drive of a released block").isEqualTo(Attention.DRIVE_PROGRESS);
        assertThat(words(attention)[4]).as("a released block leads to no parked read").isZero();
        assertThatThrownBy(() -> r.test(null)).isInstanceOf(CclException.class);
    }

    @Test
    void aSendEndWithNoAdvertisementStaysStarvedUntilOneArrivesAndAfterItsLastBufferIsUsed() throws Exception {
        connect();
        MemorySegment dst = arena.allocate(64, 64);
        MemorySegment src = RailsWire.filled(arena, 8, SEED);
        MemoryRegion dstMem = recv.register(dst);
        MemoryRegion srcMem = send.register(src);
        assertThat(send.surelyStarved()).as("a new end has not looked yet").isFalse();

        assertThat(send.isend(src, 7, srcMem)).as("nothing advertised yet").isNull();
        assertThat(send.surelyStarved()).as("starved after a look that found no advertisement").isTrue();
        assertThat(words(send.attention)[3]).as("the starved word natives read").isEqualTo(1);
        wire.step();
        assertThat(send.surelyStarved()).as("nothing arrived meanwhile").isTrue();

        IrecvRequest r = recv.irecv(new MemorySegment[] {dst}, new int[] {7}, new MemoryRegion[] {dstMem});
        assertThat(r).isNotNull();
        wire.step();
        assertThat(send.surelyStarved()).as("the advertisement arrived as a completion").isFalse();
        IsendRequest s = send.isend(src, 7, srcMem);
        assertThat(s).as("the send found the advertised buffer").isNotNull();
        assertThat(send.surelyStarved()).as("its last buffer used, the end is starved again (or has news)")
                .isEqualTo(send.attention.quiet());
        assertThat(words(send.attention)[3]).as("starved word after the last buffer was used").isEqualTo(1);

        long[] size = new long[1];
        assertThat(wire.await(s, size)).isTrue();
        assertThat(size[0]).isEqualTo(8);
        assertThat(send.surelyStarved()).as("after draining the send's completion: starved, no advertisement").isTrue();
        long[] got = new long[1];
        assertThat(wire.await(r, got)).isTrue();
        assertThat(got[0]).isEqualTo(8);
        assertThat(dst.asSlice(0, 8).mismatch(src)).isEqualTo(-1);

        Attention attention = send.attention;
        send.close();
        send = null;
        assertThat(words(attention)[3]).as("a released block is never starved").isZero();
        assertThat(words(attention)[2]).as("nor quiet").isEqualTo(1);
    }

    @Test
    void theEndsOfAHostThatPollsAreNeverQuietSoEveryCallReachesJava() throws Exception {
        wire = new RailsWire(SEED);
        // The wire's engines move only when the test steps them; this turn's agent is a stand-in that does nothing.
        Agent idle = new Agent() {
            @Override
            public int doWork() {
                return 0;
            }

            @Override
            public String roleName() {
                return "stand-in";
            }
        };
        try (EngineTurn polls = new EngineTurn(idle, w -> LockSupport.parkNanos(1_000_000), System::nanoTime, true, 0)) {
            send = wire.sendEnd(false, polls);
            recv = wire.recvEnd(false, polls);
            MemorySegment dst = arena.allocate(64, 64);
            MemorySegment src = RailsWire.filled(arena, 8, SEED);
            MemoryRegion dstMem = recv.register(dst);
            MemoryRegion srcMem = send.register(src);

            assertThat(send.isend(src, 7, srcMem)).as("nothing advertised yet").isNull();
            assertThat(send.surelyStarved()).as("starved, but a polling host's isend still steps the engine").isFalse();
            assertThat(words(send.attention)[2]).as("the drive word natives read: driven only because the host polls")
                    .isEqualTo(Attention.DRIVE_HOST_POLLS);
            assertThat(words(send.attention)[4]).as("where the turn leaves its rail's read to the host's looks")
                    .isEqualTo(polls.parkAddress()).isNotZero();
            IrecvRequest r = recv.irecv(new MemorySegment[] {dst}, new int[] {7}, new MemoryRegion[] {dstMem});
            assertThat(r.test(null)).isFalse();
            assertThat(recv.attention.quiet()).as("a look settled, and still driven").isFalse();

            IsendRequest s = sendWhenMatched(src, 7, srcMem);
            assertThat(s).isNotNull();
            long[] got = new long[1];
            assertThat(wire.await(s, new long[1])).isTrue();
            assertThat(wire.await(r, got)).isTrue();
            assertThat(got[0]).isEqualTo(8);
            assertThat(dst.asSlice(0, 8).mismatch(src)).isEqualTo(-1);
            assertThat(send.attention.quiet()).isFalse();
            send.close();
            recv.close();
            send = null;
            recv = null;
        }
    }
}
