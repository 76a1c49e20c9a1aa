package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;
import io.xdlink.ccl.CclResult;
import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.QpState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The send and receive ends together over a rails queue pair: matching, limits, errors, bytes. */
class SendEndpointTest {
    private static final long SEED = Long.getLong("xdlink.test.seed", 0x5EED_CC1L);

    private final Arena arena = Arena.ofShared();
    private RailsWire wire;
    private SendEndpoint send;
    private RecvEndpoint recv;

    private void connect() throws Exception {
        connect(new RailsWire(SEED));
    }

    private void connect(RailsWire w) throws CclException {
        wire = w;
        send = w.sendEnd(false);
        recv = w.recvEnd(false);
    }

    @AfterEach
    void close() {
        if (send != null) {
            send.close();
        }
        if (recv != null) {
            recv.close();
        }
        if (wire != null) {
            wire.close();
        }
        arena.close();
    }

    private boolean testUntilDone(EngineRequest r, long[] sizes) throws CclException {
        return wire.await(r, sizes);
    }

    private IsendRequest sendWhenMatched(MemorySegment data, int tag, MemoryRegion memory) throws CclException {
        for (int i = 0; i < 100; i++) {
            IsendRequest s = send.isend(data, tag, memory);
            if (s != null) {
                return s;
            }
            wire.step();
        }
        return null;
    }

    /** A receive of one buffer, {@code dst} under {@code tag}, from {@code memory}. */
    private IrecvRequest receiveInto(MemorySegment dst, int tag, MemoryRegion memory) throws CclException {
        return recv.irecv(new MemorySegment[] {dst}, new int[] {tag}, new MemoryRegion[] {memory});
    }

    @Test
    void thirtyTwoReceivesInFlightWithTagsAndGroupsCarryEveryByte() throws Exception {
        connect();
        MemorySegment dst = arena.allocate(32 * 4 * 4096, 64);
        MemorySegment src = RailsWire.filled(arena, 32 * 4 * 4096, SEED);
        MemoryRegion dstMem = recv.register(dst);
        MemoryRegion srcMem = send.register(src);
        List<IrecvRequest> receives = new ArrayList<>();
        for (int r = 0; r < 32; r++) {
            MemorySegment[] bufs = new MemorySegment[4];
            int[] tags = new int[4];
            for (int i = 0; i < 4; i++) {
                bufs[i] = dst.asSlice((r * 4L + i) * 4096, 4096);
                tags[i] = 100 + i;
            }
            IrecvRequest req = recv.irecv(bufs, tags, new MemoryRegion[] {dstMem, dstMem, dstMem, dstMem});
            assertThat(req).as("receive %d of 32 must post", r).isNotNull();
            receives.add(req);
        }
        assertThat(recv.irecv(new MemorySegment[] {dst.asSlice(0, 1)}, new int[] {1},
                new MemoryRegion[] {dstMem})).as("a 33rd receive waits for a slot").isNull();

        List<IsendRequest> sends = new ArrayList<>();
        for (int r = 0; r < 32; r++) {
            // Tags in reverse order: a send lands in the buffer of its tag, not in the next free one.
            for (int i = 3; i >= 0; i--) {
                long size = 4096 - 7L * i - r;
                IsendRequest s = sendWhenMatched(src.asSlice((r * 4L + i) * 4096, size), 100 + i, srcMem);
                assertThat(s).as("send %d/%d", r, i).isNotNull();
                sends.add(s);
            }
        }
        for (IsendRequest s : sends) {
            long[] size = new long[1];
            assertThat(testUntilDone(s, size)).isTrue();
            assertThat(size[0]).isEqualTo(s.bytes);
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
    void sendWithoutAMatchingReceiveIsRetriedNotLost() throws Exception {
        connect();
        MemorySegment src = RailsWire.filled(arena, 64, SEED);
        MemorySegment dst = arena.allocate(64);
        MemoryRegion srcMem = send.register(src);
        MemoryRegion dstMem = recv.register(dst);
        assertThat(send.isend(src, 7, srcMem)).as("nothing posted yet").isNull();
        IrecvRequest r = receiveInto(dst, 7, dstMem);
        wire.step();
        assertThat(send.isend(src, 8, srcMem)).as("tag 8 matches nothing in the first receive").isNull();
        IsendRequest s = send.isend(src, 7, srcMem);
        assertThat(s).isNotNull();
        assertThat(testUntilDone(s, null)).isTrue();
        assertThat(testUntilDone(r, null)).as("sizes may be null").isTrue();
        assertThat(dst.mismatch(src)).isEqualTo(-1);
    }

    @Test
    void aSendLargerThanTheReceiveIsTheUsersError() throws Exception {
        connect();
        MemorySegment src = arena.allocate(128);
        MemorySegment dst = arena.allocate(64);
        MemoryRegion srcMem = send.register(src);
        receiveInto(dst, 1, recv.register(dst));
        wire.step();
        assertThatThrownBy(() -> send.isend(src, 1, srcMem))
                .isInstanceOfSatisfying(CclException.class, e -> assertThat(e.result()).isEqualTo(CclResult.INVALID_USAGE))
                .hasMessageContaining("128 bytes").hasMessageContaining("64 bytes");
    }

    @Test
    void zeroByteSendsCompleteWithSizeZero() throws Exception {
        connect();
        MemorySegment dst = arena.allocate(16);
        MemorySegment src = arena.allocate(16);
        IrecvRequest r = receiveInto(dst, 3, recv.register(dst));
        IsendRequest s = sendWhenMatched(src.asSlice(0, 0), 3, send.register(src));
        long[] sizes = {-1};
        assertThat(testUntilDone(s, sizes)).isTrue();
        assertThat(sizes[0]).isZero();
        sizes[0] = -1;
        assertThat(testUntilDone(r, sizes)).isTrue();
        assertThat(sizes[0]).isZero();
    }

    @Test
    void aSendOfManyMegabytesGoesAsOneWriteAndArrivesWhole() throws Exception {
        connect();
        long size = (32L << 20) + 12_345;
        MemorySegment src = RailsWire.filled(arena, size, SEED);
        MemorySegment dst = arena.allocate(size + 100);
        IrecvRequest r = receiveInto(dst, 0, recv.register(dst));
        IsendRequest s = sendWhenMatched(src, 0, send.register(src));
        assertThat(s).isNotNull();
        assertThat(wire.sendQp.sendOutstanding()).as("writes posted for one send").isEqualTo(1);
        assertThat(testUntilDone(s, null)).isTrue();
        long[] sizes = new long[1];
        assertThat(testUntilDone(r, sizes)).isTrue();
        assertThat(sizes[0]).isEqualTo(size);
        assertThat(dst.asSlice(0, size).mismatch(src)).isEqualTo(-1);
    }

    @Test
    void aFullQueueMeansRetryAndNothingIsPostedTwice() throws Exception {
        connect(new RailsWire(SEED, 1));
        MemorySegment src = RailsWire.filled(arena, 8 * 4, SEED);
        MemorySegment dst = arena.allocate(8 * 4);
        MemoryRegion dstMem = recv.register(dst);
        MemoryRegion srcMem = send.register(src);
        List<IrecvRequest> rs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            rs.add(recv.irecv(new MemorySegment[] {dst.asSlice(8L * i, 8)}, new int[] {0},
                    new MemoryRegion[] {dstMem}));
        }
        IsendRequest first = sendWhenMatched(src.asSlice(0, 8), 0, srcMem);
        assertThat(first).isNotNull();
        assertThat(send.isend(src.asSlice(8, 8), 0, srcMem)).as("the queue holds one write: retry later").isNull();
        assertThat(testUntilDone(first, null)).isTrue();
        for (int i = 1; i < 4; i++) {
            IsendRequest s = sendWhenMatched(src.asSlice(8L * i, 8), 0, srcMem);
            assertThat(s).isNotNull();
            assertThat(testUntilDone(s, null)).isTrue();
        }
        for (IrecvRequest r : rs) {
            long[] size = new long[1];
            assertThat(testUntilDone(r, size)).isTrue();
            assertThat(size[0]).isEqualTo(8);
        }
        assertThat(dst.mismatch(src)).as("each send landed once, in its own buffer").isEqualTo(-1);
        assertThat(recv.irecv(new MemorySegment[] {dst.asSlice(0, 8)}, new int[] {0},
                new MemoryRegion[] {dstMem})).as("the end is still healthy").isNotNull();
    }

    @Test
    void testingADoneRequestAgainIsAnError() throws Exception {
        connect();
        MemorySegment buf = arena.allocate(8);
        MemorySegment out = arena.allocate(8);
        IrecvRequest r = receiveInto(buf, 0, recv.register(buf));
        IsendRequest s = sendWhenMatched(out, 0, send.register(out));
        assertThat(testUntilDone(s, null)).isTrue();
        assertThat(testUntilDone(r, null)).isTrue();
        assertThatThrownBy(() -> s.test(null)).isInstanceOfSatisfying(CclException.class,
                e -> assertThat(e.result()).isEqualTo(CclResult.INTERNAL_ERROR));
        assertThatThrownBy(() -> r.test(null)).isInstanceOf(CclException.class);
    }

    @Test
    void closingFailsWhatIsInFlightAndLaterCallsAreErrors() throws Exception {
        connect();
        MemorySegment buf = arena.allocate(8);
        MemoryRegion mem = recv.register(buf);
        MemoryRegion out = send.register(buf);
        IrecvRequest r = receiveInto(buf, 0, mem);
        recv.close();
        assertThatThrownBy(() -> r.test(null)).isInstanceOfSatisfying(CclException.class,
                e -> assertThat(e.result()).isEqualTo(CclResult.SYSTEM_ERROR));
        assertThatThrownBy(() -> receiveInto(buf, 0, mem))
                .isInstanceOf(CclException.class).hasMessageContaining("closeRecv");
        // The peer's send end sees its queue pair go and refuses new sends.
        assertThatThrownBy(() -> {
            for (int i = 0; i < 100; i++) {
                IsendRequest s = send.isend(buf, 0, out);
                if (s != null) {
                    wire.await(s, null);
                }
                wire.step();
            }
        }).isInstanceOf(CclException.class).hasMessageContaining("fail");
    }

    @Test
    void aBufferOutsideItsRegisteredMemoryIsRefused() throws Exception {
        connect();
        MemorySegment region = arena.allocate(64);
        MemoryRegion mem = recv.register(region.asSlice(0, 32));
        assertThatThrownBy(() -> recv.irecv(new MemorySegment[] {region.asSlice(16, 32)}, new int[] {0},
                new MemoryRegion[] {mem})).isInstanceOf(CclException.class).hasMessageContaining("outside");
        MemoryRegion out = send.register(region.asSlice(0, 32));
        assertThatThrownBy(() -> send.isend(region.asSlice(40, 8), 0, out)).isInstanceOf(CclException.class)
                .hasMessageContaining("send buffer").hasMessageContaining("outside");
    }

    @Test
    void aDeregisteredTargetFailsTheWriteAtBothEnds() throws Exception {
        connect();
        long size = SendEndpoint.COPIED_BYTES + 8;
        MemorySegment src = arena.allocate(size);
        MemorySegment dst = arena.allocate(size);
        MemoryRegion dstMem = recv.register(dst);
        IrecvRequest r = receiveInto(dst, 0, dstMem);
        wire.step();
        dstMem.deregister();
        IsendRequest s = sendWhenMatched(src, 0, send.register(src));
        assertThatThrownBy(() -> testUntilDone(s, null)).isInstanceOf(CclException.class)
                .hasMessageContaining("REMOTE_ACCESS_ERROR");
        assertThatThrownBy(() -> testUntilDone(r, null)).isInstanceOf(CclException.class)
                .hasMessageContaining("REMOTE_ACCESS_ERROR");
    }

    @Test
    void aSmallSendIsDoneAsItIsPostedAndItsBufferMayBeReusedAtOnce() throws Exception {
        connect();
        MemorySegment src = RailsWire.filled(arena, 64, SEED);
        byte[] sent = src.toArray(ValueLayout.JAVA_BYTE);
        MemorySegment dst = arena.allocate(64, 64);
        MemoryRegion dstMem = recv.register(dst);
        IrecvRequest r = receiveInto(dst, 3, dstMem);
        IsendRequest s = sendWhenMatched(src, 3, send.register(src));
        assertThat(s.finished()).as("done before anything moved").isTrue();
        long[] sizes = new long[1];
        assertThat(s.test(sizes)).isTrue();
        assertThat(sizes[0]).isEqualTo(64);
        src.fill((byte) 0); // the host's next message in the same buffer
        assertThat(testUntilDone(r, sizes)).isTrue();
        assertThat(sizes[0]).isEqualTo(64);
        assertThat(dst.toArray(ValueLayout.JAVA_BYTE)).as("the bytes as they were when posted").isEqualTo(sent);
    }

    @Test
    void aSendLargerThanACopyIsDoneOnlyOnceItsWriteCompletes() throws Exception {
        connect();
        long size = SendEndpoint.COPIED_BYTES + 1;
        MemorySegment src = RailsWire.filled(arena, size, SEED);
        MemorySegment dst = arena.allocate(size, 64);
        MemoryRegion dstMem = recv.register(dst);
        IrecvRequest r = receiveInto(dst, 0, dstMem);
        IsendRequest s = sendWhenMatched(src, 0, send.register(src));
        assertThat(s.finished()).isFalse();
        assertThat(s.test(null)).isFalse();
        assertThat(testUntilDone(r, null)).isTrue();
        assertThat(testUntilDone(s, null)).isTrue();
        assertThat(dst.mismatch(src)).isEqualTo(-1);
    }

    @Test
    void withEveryCopyInFlightTheNextSmallSendWaitsForItsWrite() throws Exception {
        connect();
        int receives = 5;
        int sends = receives * Advertisement.MAX_ENTRIES;
        MemorySegment dst = arena.allocate(8L * sends, 64);
        MemorySegment src = RailsWire.filled(arena, 8L * sends, SEED);
        MemoryRegion dstMem = recv.register(dst);
        MemoryRegion srcMem = send.register(src);
        List<IrecvRequest> posted = new ArrayList<>();
        for (int i = 0; i < receives; i++) {
            MemorySegment[] bufs = new MemorySegment[Advertisement.MAX_ENTRIES];
            MemoryRegion[] mems = new MemoryRegion[bufs.length];
            for (int k = 0; k < bufs.length; k++) {
                bufs[k] = dst.asSlice(8L * (i * bufs.length + k), 8);
                mems[k] = dstMem;
            }
            posted.add(recv.irecv(bufs, new int[bufs.length], mems));
        }
        wire.step();
        List<IsendRequest> sent = new ArrayList<>();
        for (int i = 0; i < sends; i++) {
            // Nothing moves between these posts: no write completes, so no copy comes back.
            IsendRequest s = send.isend(src.asSlice(8L * i, 8), 0, srcMem);
            assertThat(s).as("send %d", i).isNotNull();
            sent.add(s);
        }
        for (int i = 0; i < sends; i++) {
            assertThat(sent.get(i).finished()).as("send %d done as posted", i).isEqualTo(i < SendEndpoint.COPIES);
        }
        for (IrecvRequest r : posted) {
            assertThat(testUntilDone(r, null)).isTrue();
        }
        for (IsendRequest s : sent) {
            assertThat(testUntilDone(s, null)).isTrue();
        }
        assertThat(dst.mismatch(src)).isEqualTo(-1);
        // The copies came back with their writes' completions: the next small send is done as posted again.
        MemorySegment one = arena.allocate(8, 64);
        IrecvRequest r = receiveInto(one, 0, recv.register(one));
        IsendRequest again = sendWhenMatched(src.asSlice(0, 8), 0, srcMem);
        assertThat(again.finished()).isTrue();
        assertThat(testUntilDone(r, null)).isTrue();
    }

    @Test
    void aSmallSendReportedDoneThatDoesNotArriveFailsTheConnection() throws Exception {
        connect();
        MemorySegment src = arena.allocate(8);
        MemorySegment dst = arena.allocate(8);
        MemoryRegion dstMem = recv.register(dst);
        IrecvRequest r = receiveInto(dst, 0, dstMem);
        wire.step();
        dstMem.deregister();
        MemoryRegion srcMem = send.register(src);
        IsendRequest s = sendWhenMatched(src, 0, srcMem);
        assertThat(s.test(null)).as("reported done as posted").isTrue();
        assertThatThrownBy(() -> testUntilDone(r, null)).isInstanceOf(CclException.class)
                .hasMessageContaining("REMOTE_ACCESS_ERROR");
        assertThatThrownBy(() -> {
            for (int i = 0; i < 10_000; i++) {
                send.isend(src, 0, srcMem);
                wire.step();
            }
        }).isInstanceOf(CclException.class).hasMessageContaining("already reported done did not arrive")
                .hasMessageContaining("REMOTE_ACCESS_ERROR");
    }

    @Test
    void smallSendsReportedDoneStillArriveWhenTheSendEndClosesBeforeTheyLeft() throws Exception {
        connect();
        int sends = Advertisement.MAX_ENTRIES;
        MemorySegment dst = arena.allocate(8L * sends, 64);
        MemorySegment src = RailsWire.filled(arena, 8L * sends, SEED);
        MemoryRegion dstMem = recv.register(dst);
        MemoryRegion srcMem = send.register(src);
        MemorySegment[] bufs = new MemorySegment[sends];
        MemoryRegion[] mems = new MemoryRegion[sends];
        for (int k = 0; k < sends; k++) {
            bufs[k] = dst.asSlice(8L * k, 8);
            mems[k] = dstMem;
        }
        IrecvRequest r = recv.irecv(bufs, new int[sends], mems);
        IsendRequest first = sendWhenMatched(src.asSlice(0, 8), 0, srcMem);
        assertThat(first).isNotNull();
        List<IsendRequest> sent = new ArrayList<>(List.of(first));
        for (int i = 1; i < sends; i++) {
            // Nothing moves between these posts and the close: every write is still on its way.
            sent.add(send.isend(src.asSlice(8L * i, 8), 0, srcMem));
        }
        for (IsendRequest s : sent) {
            assertThat(s.test(null)).as("reported done as posted").isTrue();
        }
        // The host closes as soon as its sends are done, as NCCL does; its peer still waits for the bytes.
        int lingering = Linger.count();
        send.close();
        assertThat(wire.sendQp.state()).as("the sending end stays up for the writes it reported done")
                .isEqualTo(QpState.READY);
        long[] sizes = new long[sends];
        assertThat(testUntilDone(r, sizes)).as("every small send arrived after its end closed").isTrue();
        assertThat(sizes).containsOnly(8L);
        assertThat(dst.mismatch(src)).isEqualTo(-1);
        for (int i = 0; i < 6_000 && wire.sendQp.state() != QpState.CLOSED; i++) {
            wire.step();
            Thread.sleep(10);
        }
        assertThat(wire.sendQp.state()).as("closed once its writes completed").isEqualTo(QpState.CLOSED);
        assertThat(Linger.count()).isLessThanOrEqualTo(lingering);
    }

    @Test
    void aReceiverThatClosesWithEverythingReceivedLingersUntilTheSenderCloses() throws Exception {
        connect();
        MemorySegment buf = arena.allocate(8);
        MemorySegment out = arena.allocate(8);
        IrecvRequest r = receiveInto(buf, 0, recv.register(buf));
        IsendRequest s = sendWhenMatched(out, 0, send.register(out));
        assertThat(testUntilDone(r, null)).isTrue();
        recv.close();
        assertThat(wire.recvQp.state()).as("the receiving end stays up for the sender's last acknowledgement")
                .isEqualTo(QpState.READY);
        assertThat(testUntilDone(s, null)).as("the send completes after the receiver closed").isTrue();
        send.close();
        for (int i = 0; i < 6_000 && wire.recvQp.state() != QpState.CLOSED; i++) {
            wire.step();
            Thread.sleep(10);
        }
        assertThat(wire.recvQp.state()).as("closed once the peer closed").isEqualTo(QpState.CLOSED);
    }

    /** A send end whose peer is a bare queue pair: {@code message} arrives as its first advertisement. */
    private void advertiseRaw(MemorySegment message) throws Exception {
        wire = new RailsWire(SEED);
        send = wire.sendEnd(false);
        MemoryRegion mr = wire.listeningPd.register(message, Access.LOCAL_WRITE);
        assertThat(wire.recvQp.postSend(1, mr, 0, message.byteSize())).isTrue();
    }

    private void assertTheSendEndFails(String why) {
        MemorySegment src = arena.allocate(8);
        assertThatThrownBy(() -> {
            MemoryRegion mem = send.register(src);
            for (int i = 0; i < 100; i++) {
                send.isend(src, 0, mem);
                wire.step();
            }
        }).isInstanceOfSatisfying(CclException.class, e -> assertThat(e.result()).isEqualTo(CclResult.SYSTEM_ERROR))
                .hasMessageContaining(why);
    }

    private MemorySegment advertisement(long sequence, long remoteKey) {
        MemorySegment out = arena.allocate(Advertisement.MAX_BYTES);
        int len = new Advertisement(sequence, 0, List.of(new Advertisement.Entry(remoteKey, 0x1000, 0, 8, 0)))
                .encode(out);
        return out.asSlice(0, len);
    }

    @Test
    void aMalformedAdvertisementFailsTheSendEnd() throws Exception {
        MemorySegment bad = advertisement(0, 5);
        bad.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 0, (byte) 0x11);
        advertiseRaw(bad);
        assertTheSendEndFails("advertisement magic");
    }

    @Test
    void aTruncatedAdvertisementFailsTheSendEnd() throws Exception {
        advertiseRaw(advertisement(0, 5).asSlice(0, 20));
        assertTheSendEndFails("must be 56 bytes, got 20");
    }

    @Test
    void anAdvertisementOutOfSequenceFailsTheSendEnd() throws Exception {
        advertiseRaw(advertisement(3, 5));
        assertTheSendEndFails("advertisement 3 arrived where 0 was due");
    }

    @Test
    void anAdvertisedKeyWiderThanARailsKeyFailsTheSendEnd() throws Exception {
        advertiseRaw(advertisement(0, 1L << 32));
        assertTheSendEndFails("wider than a rails key");
    }
}
