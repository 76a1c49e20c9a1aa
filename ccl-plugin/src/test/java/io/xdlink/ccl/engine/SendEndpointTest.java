package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;
import io.xdlink.ccl.CclResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The send and receive ends together over in-memory connections: matching, limits, errors, bytes. */
class SendEndpointTest {
    private static final long SEED = Long.getLong("xdlink.test.seed", 0x5EED_CC1L);

    private final Arena arena = Arena.ofShared();
    private final InMemoryConnections wire = new InMemoryConnections(SEED, 1024);
    private SendEndpoint send;
    private RecvEndpoint recv;

    private void connect() throws CclException {
        send = new SendEndpoint(0, wire.a);
        recv = new RecvEndpoint(0, wire.b);
    }

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

    private static boolean testUntilDone(EngineRequest r, long[] sizes) throws CclException {
        for (int i = 0; i < 100; i++) {
            if (r.test(sizes)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void thirtyTwoReceivesInFlightWithTagsAndGroupsCarryEveryByte() throws CclException {
        connect();
        MemorySegment dst = arena.allocate(32 * 4 * 4096, 64);
        MemorySegment src = InMemoryConnections.filled(arena, 32 * 4 * 4096, SEED);
        RegisteredMemory dstMem = wire.register(dst);
        RegisteredMemory srcMem = wire.register(src);
        List<RecvRequest> receives = new ArrayList<>();
        for (int r = 0; r < 32; r++) {
            MemorySegment[] bufs = new MemorySegment[4];
            int[] tags = new int[4];
            for (int i = 0; i < 4; i++) {
                bufs[i] = dst.asSlice((r * 4L + i) * 4096, 4096);
                tags[i] = 100 + i;
            }
            RecvRequest req = recv.irecv(bufs, tags, new RegisteredMemory[] {dstMem, dstMem, dstMem, dstMem});
            assertThat(req).as("receive %d of 32 must post", r).isNotNull();
            receives.add(req);
        }
        assertThat(recv.irecv(new MemorySegment[] {dst.asSlice(0, 1)}, new int[] {1},
                new RegisteredMemory[] {dstMem})).as("a 33rd receive waits for a slot").isNull();

        List<SendRequest> sends = new ArrayList<>();
        for (int r = 0; r < 32; r++) {
            // Tags in reverse order: a send lands in the buffer of its tag, not in the next free one.
            for (int i = 3; i >= 0; i--) {
                long size = 4096 - 7L * i - r;
                SendRequest s = send.isend(src.asSlice((r * 4L + i) * 4096, size), 100 + i, srcMem);
                assertThat(s).as("send %d/%d", r, i).isNotNull();
                sends.add(s);
            }
        }
        for (SendRequest s : sends) {
            long[] size = new long[1];
            assertThat(testUntilDone(s, size)).isTrue();
            assertThat(size[0]).isEqualTo(s.data.byteSize());
        }
        for (int r = 0; r < 32; r++) {
            long[] sizes = new long[4];
            assertThat(testUntilDone(receives.get(r), sizes)).isTrue();
            for (int i = 0; i < 4; i++) {
                long size = 4096 - 7L * i - r;
                assertThat(sizes[i]).isEqualTo(size);
                long at = (r * 4L + i) * 4096;
                assertThat(dst.asSlice(at, size).mismatch(src.asSlice(at, size))).as("bytes of %d/%d", r, i)
                        .isEqualTo(-1);
            }
        }
    }

    @Test
    void sendWithoutAMatchingReceiveIsRetriedNotLost() throws CclException {
        connect();
        MemorySegment src = InMemoryConnections.filled(arena, 64, SEED);
        MemorySegment dst = arena.allocate(64);
        RegisteredMemory srcMem = wire.register(src);
        RegisteredMemory dstMem = wire.register(dst);
        assertThat(send.isend(src, 7, srcMem)).as("nothing posted yet").isNull();
        RecvRequest r = recv.irecv(new MemorySegment[] {dst}, new int[] {7}, new RegisteredMemory[] {dstMem});
        assertThat(send.isend(src, 8, srcMem)).as("tag 8 matches nothing in the first receive").isNull();
        SendRequest s = send.isend(src, 7, srcMem);
        assertThat(s).isNotNull();
        assertThat(testUntilDone(s, null)).isTrue();
        assertThat(testUntilDone(r, null)).as("sizes may be null").isTrue();
        assertThat(dst.mismatch(src)).isEqualTo(-1);
    }

    @Test
    void aSendLargerThanTheReceiveIsTheUsersError() throws CclException {
        connect();
        MemorySegment src = arena.allocate(128);
        MemorySegment dst = arena.allocate(64);
        RegisteredMemory srcMem = wire.register(src);
        recv.irecv(new MemorySegment[] {dst}, new int[] {1}, new RegisteredMemory[] {wire.register(dst)});
        assertThatThrownBy(() -> send.isend(src, 1, srcMem))
                .isInstanceOfSatisfying(CclException.class, e -> assertThat(e.result()).isEqualTo(CclResult.INVALID_USAGE))
                .hasMessageContaining("128 bytes").hasMessageContaining("64 bytes");
    }

    @Test
    void zeroByteSendsCompleteWithSizeZero() throws CclException {
        connect();
        MemorySegment dst = arena.allocate(16);
        MemorySegment src = arena.allocate(16);
        RecvRequest r = recv.irecv(new MemorySegment[] {dst}, new int[] {3}, new RegisteredMemory[] {wire.register(dst)});
        SendRequest s = send.isend(src.asSlice(0, 0), 3, wire.register(src));
        long[] sizes = {-1};
        assertThat(testUntilDone(s, sizes)).isTrue();
        assertThat(sizes[0]).isZero();
        sizes[0] = -1;
        assertThat(testUntilDone(r, sizes)).isTrue();
        assertThat(sizes[0]).isZero();
    }

    @Test
    void aSendAboveOneChunkGoesAsSeveralWritesAndArrivesWhole() throws CclException {
        connect();
        long size = Immediate.CHUNK_BYTES * 2 + 12_345;
        MemorySegment src = InMemoryConnections.filled(arena, size, SEED);
        MemorySegment dst = arena.allocate(size + 100);
        RecvRequest r = recv.irecv(new MemorySegment[] {dst}, new int[] {0}, new RegisteredMemory[] {wire.register(dst)});
        SendRequest s = send.isend(src, 0, wire.register(src));
        assertThat(testUntilDone(s, null)).isTrue();
        long[] sizes = new long[1];
        assertThat(testUntilDone(r, sizes)).isTrue();
        assertThat(sizes[0]).isEqualTo(size);
        assertThat(wire.a.writesPosted).isEqualTo(3);
        assertThat(dst.asSlice(0, size).mismatch(src)).isEqualTo(-1);
    }

    @Test
    void aFullQueueMeansRetryAndNothingIsPostedTwice() throws CclException {
        InMemoryConnections narrow = new InMemoryConnections(SEED, 33);
        send = new SendEndpoint(0, narrow.a);
        recv = new RecvEndpoint(0, narrow.b);
        MemorySegment src = arena.allocate(8);
        MemorySegment dst = arena.allocate(8 * 4);
        RegisteredMemory dstMem = narrow.register(dst);
        RegisteredMemory srcMem = narrow.register(src);
        List<RecvRequest> rs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            rs.add(recv.irecv(new MemorySegment[] {dst.asSlice(8L * i, 8)}, new int[] {0},
                    new RegisteredMemory[] {dstMem}));
        }
        narrow.a.outstanding = 1000;
        assertThat(send.isend(src, 0, srcMem)).as("queue full: retry later").isNull();
        narrow.a.outstanding = 0;
        SendRequest first = send.isend(src, 0, srcMem);
        assertThat(first).isNotNull();
        assertThat(testUntilDone(first, null)).isTrue();
        for (int i = 1; i < 4; i++) {
            assertThat(testUntilDone(send.isend(src, 0, srcMem), null)).isTrue();
        }
        for (RecvRequest r : rs) {
            assertThat(testUntilDone(r, null)).isTrue();
        }
        assertThat(narrow.a.writesPosted).isEqualTo(4);
    }

    @Test
    void testingADoneRequestAgainIsAnError() throws CclException {
        connect();
        MemorySegment buf = arena.allocate(8);
        RegisteredMemory mem = wire.register(buf);
        RecvRequest r = recv.irecv(new MemorySegment[] {buf}, new int[] {0}, new RegisteredMemory[] {mem});
        SendRequest s = send.isend(buf, 0, mem);
        assertThat(testUntilDone(s, null)).isTrue();
        assertThat(testUntilDone(r, null)).isTrue();
        assertThatThrownBy(() -> s.test(null)).isInstanceOfSatisfying(CclException.class,
                e -> assertThat(e.result()).isEqualTo(CclResult.INTERNAL_ERROR));
        assertThatThrownBy(() -> r.test(null)).isInstanceOf(CclException.class);
    }

    @Test
    void closingFailsWhatIsInFlightAndLaterCallsAreErrors() throws CclException {
        connect();
        MemorySegment buf = arena.allocate(8);
        RegisteredMemory mem = wire.register(buf);
        RecvRequest r = recv.irecv(new MemorySegment[] {buf}, new int[] {0}, new RegisteredMemory[] {mem});
        recv.close();
        assertThatThrownBy(() -> r.test(null)).isInstanceOfSatisfying(CclException.class,
                e -> assertThat(e.result()).isEqualTo(CclResult.SYSTEM_ERROR));
        assertThatThrownBy(() -> recv.irecv(new MemorySegment[] {buf}, new int[] {0}, new RegisteredMemory[] {mem}))
                .isInstanceOf(CclException.class).hasMessageContaining("closeRecv");
        // The peer's send end sees its connection go and refuses new sends.
        assertThatThrownBy(() -> send.isend(buf, 0, mem)).isInstanceOf(CclException.class);
    }

    @Test
    void aBufferOutsideItsRegisteredMemoryIsRefused() throws CclException {
        connect();
        MemorySegment region = arena.allocate(64);
        RegisteredMemory mem = wire.register(region.asSlice(0, 32));
        assertThatThrownBy(() -> recv.irecv(new MemorySegment[] {region.asSlice(16, 32)}, new int[] {0},
                new RegisteredMemory[] {mem})).isInstanceOf(CclException.class).hasMessageContaining("outside");
    }

    @Test
    void aDeregisteredTargetFailsTheWriteAtBothEnds() throws CclException {
        connect();
        MemorySegment src = arena.allocate(8);
        MemorySegment dst = arena.allocate(8);
        RegisteredMemory dstMem = wire.register(dst);
        RecvRequest r = recv.irecv(new MemorySegment[] {dst}, new int[] {0}, new RegisteredMemory[] {dstMem});
        dstMem.close();
        SendRequest s = send.isend(src, 0, wire.register(src));
        assertThatThrownBy(() -> testUntilDone(s, null)).isInstanceOf(CclException.class)
                .hasMessageContaining("remote access");
        assertThatThrownBy(() -> testUntilDone(r, null)).isInstanceOf(CclException.class)
                .hasMessageContaining("remote access");
    }

    @Test
    void aReceiverThatClosesWithEverythingReceivedLingersUntilTheSenderCloses() throws Exception {
        connect();
        MemorySegment buf = arena.allocate(8);
        RegisteredMemory mem = wire.register(buf);
        RecvRequest r = recv.irecv(new MemorySegment[] {buf}, new int[] {0}, new RegisteredMemory[] {mem});
        SendRequest s = send.isend(buf, 0, mem);
        assertThat(testUntilDone(r, null)).isTrue();
        recv.close();
        assertThat(wire.b.open).as("the receiving end stays up for the sender's last acknowledgement").isTrue();
        assertThat(testUntilDone(s, null)).as("the send completes after the receiver closed").isTrue();
        send.close();
        for (int i = 0; i < 6_000 && wire.b.open; i++) {
            Thread.sleep(10);
        }
        assertThat(wire.b.open).as("closed once the peer closed").isFalse();
    }
}
