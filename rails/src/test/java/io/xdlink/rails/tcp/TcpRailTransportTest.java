package io.xdlink.rails.tcp;

import io.xdlink.rails.testing.Closer;
import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TcpRailTransportTest {
    static final LinkState LINK = LinkState.of(Generation.GEN3, 1);
    @RegisterExtension
    final Closer closer = new Closer();

    static int drain(TcpRailTransport rail, List<byte[]> into) {
        return rail.poll(f -> into.add(f.toArray(ValueLayout.JAVA_BYTE)), Integer.MAX_VALUE);
    }

    @Test
    void aBurstOfferedBetweenFlushesLeavesInOneWriteAndArrivesWhole() throws IOException {
        TcpLoopbackPair pair = closer.track(TcpLoopbackPair.open(TcpSettings.defaults(), LINK));
        assertThat(pair.a().info()).isEqualTo(new RailInfo("loopback/a", "loopback", LINK, false, true));
        for (int i = 0; i < 50; i++) {
            byte[] f = new byte[1 + i * 80];
            java.util.Arrays.fill(f, (byte) i);
            assertThat(pair.a().offer(MemorySegment.ofArray(f))).isTrue();
        }
        assertThat(pair.a().pendingBytes()).as("nothing leaves before the flush").isEqualTo(50 * 2 + 80 * 49 * 50 / 2 + 50);
        assertThat(pair.a().flush()).isEqualTo(1);
        assertThat(pair.a().pendingBytes()).isZero();
        List<byte[]> got = new ArrayList<>();
        Await.until("50 frames", () -> {
            drain(pair.b(), got);
            return got.size() >= 50;
        });
        assertThat(got).hasSize(50);
        for (int i = 0; i < 50; i++) {
            assertThat(got.get(i)).hasSize(1 + i * 80).containsOnly((byte) i);
        }
    }

    @Test
    void aFullSocketRefusesOffersAndLosesNothing() throws IOException {
        TcpSettings small = new TcpSettings(64 << 10, 64 << 10, TcpSettings.MIN_RAIL_BUFFER, Duration.ofSeconds(10),
                Duration.ofMillis(10), Duration.ofMillis(200), Duration.ofMillis(50));
        TcpLoopbackPair pair = closer.track(TcpLoopbackPair.open(small, LINK));
        MemorySegment frame = MemorySegment.ofArray(new byte[4096]);
        long accepted = 0;
        while (true) {
            frame.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, accepted);
            if (!pair.a().offer(frame)) {
                break;
            }
            accepted++;
            pair.a().flush();
            assertThat(accepted).as("a socket nobody reads must fill up").isLessThan(1 << 20);
        }
        assertThat(pair.a().midTransfer()).as("output the socket has not taken").isTrue();
        long[] next = {0};
        long total = accepted;
        Await.until(accepted + " frames drained", () -> {
            pair.a().flush();
            pair.b().poll(f -> {
                assertThat(f.get(ValueLayout.JAVA_LONG_UNALIGNED, 0)).isEqualTo(next[0]);
                next[0]++;
            }, 64);
            return next[0] == total;
        });
        assertThat(pair.a().pendingBytes()).isZero();
        assertThat(pair.a().midTransfer()).isFalse();
    }

    @Test
    void framesOfNoBytesOrMoreThanTheMaximumAreRefused() throws IOException {
        TcpLoopbackPair pair = closer.track(TcpLoopbackPair.open(TcpSettings.defaults(), LINK));
        assertThat(pair.a().maxFrameBytes()).isEqualTo(16384);
        assertThatThrownBy(() -> pair.a().offer(MemorySegment.ofArray(new byte[16385])))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("loopback/a: a frame is 1..16384 bytes, not 16385");
        assertThatThrownBy(() -> pair.a().offer(MemorySegment.ofArray(new byte[0])))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(pair.a().isOpen()).isTrue();
    }

    /** A rail whose far end is a raw socket, so a test can put any bytes on the stream. */
    /** A rail whose peer is a plain socket ({@code raw}, once the rail's hello is answered) writing raw records. */
    static TcpRailTransport railFedBy(Closer closer, CompletableFuture<Socket> raw) throws IOException {
        ServerSocket server = closer.track(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
        UUID me = UUID.randomUUID();
        UUID them = UUID.randomUUID();
        Thread.ofPlatform().daemon().start(() -> {
            try {
                Socket s = server.accept();
                InputStream in = s.getInputStream();
                in.readNBytes(2 + RailHello.BYTES);
                OutputStream out = s.getOutputStream();
                out.write(new byte[] {0, (byte) RailHello.Reply.BYTES});
                out.write(new RailHello.Reply(them, RailHello.Status.ACCEPTED).encode().toArray(ValueLayout.JAVA_BYTE));
                out.flush();
                raw.complete(s);
            } catch (IOException e) {
                raw.completeExceptionally(e);
            }
        });
        return closer.track(RailConnector.connect(null, (InetSocketAddress) server.getLocalSocketAddress(),
                new RailHello(me, them, 3), new RailInfo("rail x", "l", LINK, false), TcpSettings.defaults(), null));
    }

    static RailClosedException pollUntilClosed(TcpRailTransport rail, List<byte[]> got) {
        RailClosedException[] thrown = new RailClosedException[1];
        Await.until("the rail to close", () -> {
            try {
                drain(rail, got);
                return false;
            } catch (RailClosedException e) {
                thrown[0] = e;
                return true;
            }
        });
        assertThat(rail.isOpen()).isFalse();
        return thrown[0];
    }

    @Test
    void aFrameOnlyPartlyReadIsATransferUnderWay() throws Exception {
        CompletableFuture<Socket> raw = new CompletableFuture<>();
        TcpRailTransport rail = railFedBy(closer, raw);
        try (Socket s = raw.get(30, TimeUnit.SECONDS)) {
            List<byte[]> got = new ArrayList<>();
            s.getOutputStream().write(new byte[] {0, 3, 7});
            s.getOutputStream().flush();
            Await.until("the first byte of the frame read", () -> {
                drain(rail, got);
                return rail.midTransfer();
            });
            assertThat(got).isEmpty();
            s.getOutputStream().write(new byte[] {8, 9});
            s.getOutputStream().flush();
            Await.until("the frame whole", () -> {
                drain(rail, got);
                return !got.isEmpty();
            });
            assertThat(got).containsExactly(new byte[] {7, 8, 9});
            assertThat(rail.midTransfer()).isFalse();
        }
    }

    @Test
    void framesBeforeThePeerClosesArriveThenTheRailReportsClosed() throws Exception {
        CompletableFuture<Socket> raw = new CompletableFuture<>();
        TcpRailTransport rail = railFedBy(closer, raw);
        try (Socket s = raw.get(30, TimeUnit.SECONDS)) {
            s.getOutputStream().write(new byte[] {0, 2, 7, 8, 0, 1, 9});
        }
        List<byte[]> got = new ArrayList<>();
        RailClosedException e = pollUntilClosed(rail, got);
        assertThat(got).containsExactly(new byte[] {7, 8}, new byte[] {9});
        assertThat(e).hasMessage("rail x: the peer closed the rail");
        assertThat(e.peerLost()).as("one rail closing says nothing about the peer").isFalse();
        assertThatThrownBy(() -> rail.offer(MemorySegment.ofArray(new byte[1]))).isInstanceOf(RailClosedException.class);
    }

    /** A WRITE's head as the transport sees it: its length field says how many payload bytes follow. */
    private static final int HEAD = io.xdlink.rails.frame.FrameLayout.WRITE_HEADER
            + io.xdlink.rails.frame.FrameLayout.TRAILER_BYTES;

    /** Frames of a run whose heads are filled with their index and carry their payload length. */
    private static final class TestRun implements RailTransport.FrameRun {
        private final long[] offsets;
        private final int[] lengths;
        private int i;

        TestRun(long[] offsets, int[] lengths) {
            this.offsets = offsets;
            this.lengths = lengths;
        }

        @Override
        public boolean frame(int i) {
            this.i = i;
            return true;
        }

        @Override
        public long payloadOffset() {
            return offsets[i];
        }

        @Override
        public int payloadLength() {
            return lengths[i];
        }

        @Override
        public void write(MemorySegment buffer, long offset) {
            buffer.asSlice(offset, HEAD).fill((byte) (0x40 + i));
            buffer.set(RecordReader.LENGTH, offset + io.xdlink.rails.frame.FrameLayout.OFF_LENGTH,
                    (short) lengths[i]);
        }
    }

    @Test
    void aRunGoesOutFromItsOwnMemoryAndArrivesAsHeadsAndPayloadsInOrder() throws IOException {
        TcpLoopbackPair pair = closer.track(TcpLoopbackPair.open(TcpSettings.defaults(), LINK));
        MemorySegment memory = java.lang.foreign.Arena.ofAuto().allocate(3 * 4044 + 100);
        for (long k = 0; k < memory.byteSize(); k++) {
            memory.set(ValueLayout.JAVA_BYTE, k, (byte) (k * 31));
        }
        // Three frames that follow each other, then one that does not: the run ends before it.
        int sent = pair.a().offerRun(HEAD, new TestRun(new long[] {100, 4144, 8188, 9000},
                new int[] {4044, 4044, 4000, 10}), memory, 4);
        assertThat(sent).isEqualTo(3);
        assertThat(pair.a().pendingBytes()).isEqualTo(RecordReader.RUN_HEADER_BYTES + 3 * HEAD + 12088);
        pair.a().flush();
        Placing receiver = new Placing(null, false);
        List<byte[]> heads = receiver.heads;
        List<byte[]> payloads = receiver.payloads;
        Await.until("3 frames", () -> {
            pair.b().poll(receiver, 1); // one at a time: a run handed over across polls
            return heads.size() == 3;
        });
        long at = 100;
        for (int i = 0; i < 3; i++) {
            assertThat(heads.get(i)).hasSize(HEAD).startsWith((byte) (0x40 + i));
            byte[] want = memory.asSlice(at, payloads.get(i).length).toArray(ValueLayout.JAVA_BYTE);
            assertThat(payloads.get(i)).isEqualTo(want);
            at += want.length;
        }
        assertThat(payloads.get(2)).hasSize(4000);
    }

    @Test
    void framesLargerThanAUsb4SlotGoWholeAndInRunsUpToTheStreamsLargest() throws IOException {
        TcpLoopbackPair pair = closer.track(TcpLoopbackPair.open(TcpSettings.defaults(), LINK));
        SplittableRandom random = new SplittableRandom(16384);
        byte[] whole = new byte[16384];
        random.nextBytes(whole);
        assertThat(pair.a().offer(MemorySegment.ofArray(whole))).isTrue();
        int most = 16384 - HEAD;
        MemorySegment memory = java.lang.foreign.Arena.ofAuto().allocate(4L * most);
        for (long k = 0; k < memory.byteSize(); k++) {
            memory.set(ValueLayout.JAVA_BYTE, k, (byte) random.nextInt());
        }
        // Four frames of the largest payload go in one run record (up to a mebibyte), though it is longer than the
        // receiving rail's buffer: that rail reads the payload elsewhere and hands the frames over from there.
        long[] offsets = {0, most, 2L * most, 3L * most};
        int[] lengths = {most, most, most, most};
        assertThat(pair.a().offerRun(HEAD, new TestRun(offsets, lengths), memory, 4)).isEqualTo(4);
        assertThatThrownBy(() -> pair.a().offerRun(HEAD, new TestRun(new long[] {0}, new int[] {most + 1}), memory,
                1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("loopback/a: a frame's payload is 1.." + most + " bytes, not " + (most + 1));
        pair.a().flush();
        List<byte[]> frames = new ArrayList<>();
        Placing receiver = new Placing(null, false) {
            @Override
            public void onFrame(MemorySegment frame) {
                frames.add(frame.toArray(ValueLayout.JAVA_BYTE));
            }
        };
        Await.until("a whole frame and a run of four", () -> {
            pair.a().flush();
            pair.b().poll(receiver, 16);
            return receiver.payloads.size() == 4;
        });
        assertThat(frames).hasSize(1);
        assertThat(frames.getFirst()).isEqualTo(whole);
        for (int i = 0; i < 4; i++) {
            assertThat(receiver.payloads.get(i)).isEqualTo(memory.asSlice((long) i * most, most)
                    .toArray(ValueLayout.JAVA_BYTE));
        }
    }

    /**
     * A receiver that takes runs into {@code place} when it says so, and keeps each frame's head and payload bytes
     * and where the payload was handed from.
     */
    /** Notes every placement asked and every frame handed over; places runs at the start of {@code place} if told. */
    static class Placing implements RailTransport.FrameReceiver {
        final MemorySegment place;
        final boolean take;
        final List<long[]> asked = new ArrayList<>();
        final List<byte[]> heads = new ArrayList<>();
        final List<byte[]> payloads = new ArrayList<>();
        final List<Long> addresses = new ArrayList<>();

        Placing(MemorySegment place, boolean take) {
            this.place = place;
            this.take = take;
        }

        @Override
        public void onFrame(MemorySegment frame) {
            throw new AssertionError("a run's frames come in two parts");
        }

        @Override
        public void onFrame(MemorySegment head, long headOffset, int headLength, MemorySegment payload,
                            long payloadOffset, int payloadLength) {
            if (payload == null) {
                onFrame(head.asSlice(headOffset, headLength));
                return;
            }
            heads.add(head.asSlice(headOffset, headLength).toArray(ValueLayout.JAVA_BYTE));
            payloads.add(payload.asSlice(payloadOffset, payloadLength).toArray(ValueLayout.JAVA_BYTE));
            addresses.add(payload.address() + payloadOffset);
        }

        @Override
        public MemorySegment placement(MemorySegment heads, long headOffset, int headLength, int frames,
                                       int payloadLength) {
            asked.add(new long[] {headLength, frames, payloadLength});
            return take ? place.asSlice(0, payloadLength) : null;
        }
    }

    private static void awaitHeads(TcpRailTransport rail, Placing receiver) {
        Await.until("the heads to arrive", () -> {
            rail.poll(receiver, 16);
            return !receiver.asked.isEmpty();
        });
    }

    /** Puts a run record of {@code lengths.length} WRITE heads and payload bytes counting from 1 on the stream. */
    private static byte[] runRecord(int... lengths) {
        int total = java.util.Arrays.stream(lengths).sum();
        ByteBuffer b = ByteBuffer.allocate(RecordReader.RUN_HEADER_BYTES + lengths.length * HEAD + total);
        b.putShort((short) (RecordReader.RUN_FLAG | HEAD)).putShort((short) lengths.length).putInt(total);
        for (int length : lengths) {
            byte[] head = new byte[HEAD];
            head[io.xdlink.rails.frame.FrameLayout.OFF_LENGTH] = (byte) (length >>> 8);
            head[io.xdlink.rails.frame.FrameLayout.OFF_LENGTH + 1] = (byte) length;
            b.put(head);
        }
        for (int i = 0; i < total; i++) {
            b.put((byte) (i + 1));
        }
        return b.array();
    }

    /** What of a three-frame run record the tests below send first: its header, heads and 1,500 payload bytes. */
    private static final int FIRST_PART = RecordReader.RUN_HEADER_BYTES + 3 * HEAD + 1500;
    /** The socket feeding the rail of the test below, once {@link #railFedBy(Feed)} connected it. */
    private Socket fed;

    /** What a test writes first to the socket that feeds its rail. */
    @FunctionalInterface
    private interface Feed {
        void first(Socket s) throws IOException;
    }

    /** A rail whose peer is a plain socket, {@link #fed}, that has written what {@code feed} writes. */
    private TcpRailTransport railFedBy(Feed feed) throws Exception {
        CompletableFuture<Socket> raw = new CompletableFuture<>();
        TcpRailTransport rail = railFedBy(closer, raw);
        fed = closer.track(raw.get(30, TimeUnit.SECONDS));
        feed.first(fed);
        return rail;
    }

    /** Writes {@code record[from..to)} to {@code s} at once. */
    private static void send(Socket s, byte[] record, int from, int to) throws IOException {
        s.getOutputStream().write(record, from, to - from);
        s.getOutputStream().flush();
    }

    @ParameterizedTest(name = "the receiver takes it: {0}")
    @ValueSource(booleans = {true, false})
    void aRunWhosePayloadIsStillArrivingIsReadIntoThePlaceTheReceiverGivesOrBufferedAsUsual(boolean take)
            throws Exception {
        byte[] record = runRecord(13000, 14000, 9000);
        MemorySegment place = java.lang.foreign.Arena.ofAuto().allocate(36000);
        Placing receiver = new Placing(place, take);
        TcpRailTransport rail = railFedBy(raw -> send(raw, record, 0, FIRST_PART));
        awaitHeads(rail, receiver);
        assertThat(receiver.asked.getFirst()).containsExactly(HEAD, 3, 36000);
        assertThat(receiver.payloads).as("nothing is handed before the payload is whole").isEmpty();
        send(fed, record, FIRST_PART, record.length);
        Await.until("the run's three frames", () -> {
            rail.poll(receiver, 1);
            return receiver.payloads.size() == 3;
        });
        assertThat(receiver.payloads).extracting(p -> p.length).containsExactly(13000, 14000, 9000);
        assertHandedWhole(receiver, record, 36000, place, take);
    }

    /**
     * A run whose payload is short and fits the rail's buffer is not worth a read of its own: nobody is asked where
     * it goes, and it is handed over from the buffer once it is whole, as a stream of small writes' runs are.
     */
    @Test
    void aShortRunStillArrivingWaitsInTheBufferWithoutAskingForAPlace() throws Exception {
        byte[] record = runRecord(3000, 4000, 1000);
        MemorySegment place = java.lang.foreign.Arena.ofAuto().allocate(8000);
        Placing receiver = new Placing(place, true);
        TcpRailTransport rail = railFedBy(raw -> send(raw, record, 0, FIRST_PART));
        Await.until("the first part to be read", () -> {
            rail.poll(receiver, 16);
            return rail.midTransfer();
        });
        assertThat(receiver.asked).isEmpty();
        assertThat(receiver.payloads).isEmpty();
        send(fed, record, FIRST_PART, record.length);
        Await.until("the run's three frames", () -> {
            rail.poll(receiver, 16);
            return receiver.payloads.size() == 3;
        });
        assertThat(receiver.asked).isEmpty();
        assertHandedWhole(receiver, record, 8000, place, false);
    }

    /**
     * Each payload {@code receiver} was handed is the next part of the last {@code payload} bytes of {@code record},
     * handed from where it was read to in {@code place} when the receiver took the run ({@code take}); the place
     * holds the whole payload then, and was never written otherwise.
     */
    private static void assertHandedWhole(Placing receiver, byte[] record, int payload, MemorySegment place,
                                          boolean take) {
        byte[] body = java.util.Arrays.copyOfRange(record, record.length - payload, record.length);
        long at = 0;
        for (int i = 0; i < receiver.payloads.size(); i++) {
            byte[] p = receiver.payloads.get(i);
            assertThat(p).isEqualTo(java.util.Arrays.copyOfRange(body, (int) at, (int) (at + p.length)));
            if (take) {
                assertThat(receiver.addresses.get(i)).as("the payload is handed where it was read to")
                        .isEqualTo(place.address() + at);
            }
            at += p.length;
        }
        if (take) {
            assertThat(place.toArray(ValueLayout.JAVA_BYTE)).isEqualTo(body);
        } else {
            assertThat(place.toArray(ValueLayout.JAVA_BYTE)).as("a refused place is never written").containsOnly(0);
        }
    }

    @ParameterizedTest(name = "the receiver takes it: {0}")
    @ValueSource(booleans = {true, false})
    void aRunLongerThanTheRailsBufferIsReadIntoItsPlaceOrIntoScratchMemoryAndHandedOverWhole(boolean take)
            throws Exception {
        CompletableFuture<Socket> raw = new CompletableFuture<>();
        TcpRailTransport rail = railFedBy(closer, raw);
        Socket s = closer.track(raw.get(30, TimeUnit.SECONDS));
        int[] lengths = new int[40];
        java.util.Arrays.fill(lengths, 16000);
        lengths[39] = 1234;
        byte[] record = runRecord(lengths);
        int payload = 39 * 16000 + 1234;
        assertThat(record.length).as("longer than the rail's buffer")
                .isGreaterThan(TcpParams.RAIL_BUFFER.defaultValue().intValue());
        MemorySegment place = java.lang.foreign.Arena.ofAuto().allocate(payload);
        Placing receiver = new Placing(place, take);
        // Written by another thread: the record is longer than the sockets hold until the rail reads.
        Thread writer = Thread.ofPlatform().daemon().start(() -> {
            try {
                s.getOutputStream().write(record);
                s.getOutputStream().flush();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        Await.until("the run's forty frames", () -> {
            rail.poll(receiver, 16);
            return receiver.payloads.size() == 40;
        });
        writer.join(30_000);
        assertThat(receiver.asked).hasSize(1).allSatisfy(a -> assertThat(a).containsExactly(HEAD, 40, payload));
        assertThat(receiver.payloads).extracting(p -> p.length).containsExactly(java.util.Arrays.stream(lengths)
                .boxed().toArray(Integer[]::new));
        assertHandedWhole(receiver, record, payload, place, take);
        assertThat(rail.midTransfer()).isFalse();
    }

    @Test
    void aStreamThatEndsInsideAPayloadBeingReadIntoPlaceClosesTheRail() throws Exception {
        CompletableFuture<Socket> raw = new CompletableFuture<>();
        TcpRailTransport rail = railFedBy(closer, raw);
        byte[] record = runRecord(16000, 16000, 1000);
        Placing receiver = new Placing(java.lang.foreign.Arena.ofAuto().allocate(33000), true);
        try (Socket s = raw.get(30, TimeUnit.SECONDS)) {
            s.getOutputStream().write(record, 0, record.length - 500);
            s.getOutputStream().flush();
            awaitHeads(rail, receiver);
        }
        RailClosedException[] thrown = new RailClosedException[1];
        Await.until("the rail to close", () -> {
            try {
                rail.poll(receiver, 16);
                return false;
            } catch (RailClosedException e) {
                thrown[0] = e;
                return true;
            }
        });
        assertThat(thrown[0]).hasMessage("rail x: the stream ended inside a run's payload (32500 of 33000 bytes)");
        assertThat(receiver.payloads).isEmpty();
    }

    @Test
    void aRunWhoseHeadsDisagreeWithItsRecordClosesTheRailAndHandsNothing() throws Exception {
        CompletableFuture<Socket> raw = new CompletableFuture<>();
        TcpRailTransport rail = railFedBy(closer, raw);
        Socket s = closer.track(raw.get(30, TimeUnit.SECONDS));
        ByteBuffer b = ByteBuffer.allocate(RecordReader.RUN_HEADER_BYTES + 2 * HEAD + 10);
        b.putShort((short) (RecordReader.RUN_FLAG | HEAD)).putShort((short) 2).putInt(10);
        for (int i = 0; i < 2; i++) {
            byte[] head = new byte[HEAD];
            head[io.xdlink.rails.frame.FrameLayout.OFF_LENGTH + 1] = 4; // 4 + 4 is not the record's 10
            b.put(head);
        }
        s.getOutputStream().write(b.array());
        List<byte[]> got = new ArrayList<>();
        RailClosedException e = pollUntilClosed(rail, got);
        assertThat(got).isEmpty();
        assertThat(e).hasMessage("rail x: a run's heads add up to 8 payload bytes, its record says 10");
    }

    @Test
    void anOversizedLengthOnTheStreamClosesTheRailNamingIt() throws Exception {
        CompletableFuture<Socket> raw = new CompletableFuture<>();
        TcpRailTransport rail = railFedBy(closer, raw);
        Socket s = closer.track(raw.get(30, TimeUnit.SECONDS));
        s.getOutputStream().write(new byte[] {0, 1, 5, 0x40, 0x01});
        List<byte[]> got = new ArrayList<>();
        RailClosedException e = pollUntilClosed(rail, got);
        assertThat(got).containsExactly(new byte[] {5});
        assertThat(e).hasMessageContaining("record length 16385 is outside 1..16384")
                .hasCauseInstanceOf(StreamFormatException.class);
    }

    @Test
    void aStreamCutInsideTheLengthPrefixClosesTheRailNamingIt() throws Exception {
        CompletableFuture<Socket> raw = new CompletableFuture<>();
        TcpRailTransport rail = railFedBy(closer, raw);
        try (Socket s = raw.get(30, TimeUnit.SECONDS)) {
            s.getOutputStream().write(new byte[] {0});
        }
        RailClosedException e = pollUntilClosed(rail, new ArrayList<>());
        assertThat(e).hasMessage("rail x: the stream ended inside a record's length prefix (1 of 2 bytes)");
    }

    @Test
    void aListenerClosesConnectionsThatSendGarbageInsteadOfAHello() throws Exception {
        IoLoop loop = closer.track(new IoLoop("test-loop"));
        UUID local = UUID.randomUUID();
        List<RailHello> hellos = new ArrayList<>();
        TcpListener listener = closer.track(RailListener.open(loop, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                local, TcpSettings.defaults(), h -> {
                    hellos.add(h);
                    return new RailAcceptor.Refuse(RailHello.Status.UNKNOWN_PEER);
                }));
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), listener.address().getPort())) {
            s.setSoTimeout(30_000);
            byte[] junk = new byte[2 + RailHello.BYTES];
            junk[1] = (byte) RailHello.BYTES;
            java.util.Arrays.fill(junk, 2, junk.length, (byte) 0x41);
            s.getOutputStream().write(junk);
            assertThat(s.getInputStream().read()).as("closed without a reply").isEqualTo(-1);
        }
        assertThat(hellos).isEmpty();
    }

    @Test
    void aRefusedOrMisaddressedRailFailsItsOpenWithTheReason() throws IOException {
        IoLoop loop = closer.track(new IoLoop("test-loop"));
        UUID local = UUID.randomUUID();
        TcpListener listener = closer.track(RailListener.open(loop, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                local, TcpSettings.defaults(), h -> new RailAcceptor.Refuse(RailHello.Status.UNKNOWN_PEER)));
        RailInfo info = new RailInfo("r", "l", LINK, false);
        assertThatThrownBy(() -> RailConnector.connect(null, listener.address(), new RailHello(UUID.randomUUID(), local, 0),
                info, TcpSettings.defaults(), null)).isInstanceOf(IOException.class).hasMessageEndingWith("refused: UNKNOWN_PEER");
        assertThatThrownBy(() -> RailConnector.connect(null, listener.address(),
                new RailHello(UUID.randomUUID(), UUID.randomUUID(), 0), info, TcpSettings.defaults(), null))
                .isInstanceOf(IOException.class).hasMessageEndingWith("refused: WRONG_HOST");
    }

    @Test
    void aPeerThatNeverAnswersTheHelloTimesOut() throws IOException {
        ServerSocket silent = closer.track(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
        TcpSettings quick = new TcpSettings(0, 0, TcpSettings.MIN_RAIL_BUFFER, Duration.ofMillis(300),
                Duration.ofMillis(10), Duration.ofMillis(200), Duration.ofMillis(50));
        assertThatThrownBy(() -> RailConnector.connect(null, (InetSocketAddress) silent.getLocalSocketAddress(),
                new RailHello(UUID.randomUUID(), UUID.randomUUID(), 0), new RailInfo("r", "l", LINK, false), quick, null))
                .isInstanceOf(SocketTimeoutException.class).hasMessageContaining("timed out waiting for the reply");
    }

    @Test
    void helloAndReplyRefuseMalformedBytes() {
        MemorySegment hello = new RailHello(UUID.randomUUID(), UUID.randomUUID(), 65535).encode();
        assertThat(assertDecodes(hello)).isEqualTo(65535);
        MemorySegment badMagic = copy(hello);
        badMagic.set(ValueLayout.JAVA_BYTE, 0, (byte) 'Y');
        assertThatThrownBy(() -> RailHello.decode(badMagic, "s")).isInstanceOf(StreamFormatException.class)
                .hasMessage("s: rail hello magic 0x59444c52 is not 0x58444c52 (not an xdlink rail)");
        MemorySegment badVersion = copy(hello);
        badVersion.set(ValueLayout.JAVA_BYTE, 4, (byte) 9);
        assertThatThrownBy(() -> RailHello.decode(badVersion, "s")).hasMessage("s: rail hello version 9 is not 1");
        assertThatThrownBy(() -> RailHello.decode(hello.asSlice(0, 39), "s"))
                .hasMessage("s: rail hello is 39 bytes, expected 40");
        MemorySegment reply = new RailHello.Reply(UUID.randomUUID(), RailHello.Status.CLOSING).encode();
        reply.set(ValueLayout.JAVA_BYTE, 5, (byte) 200);
        assertThatThrownBy(() -> RailHello.Reply.decode(reply, "s")).hasMessage("s: rail reply status 200 is unknown");
        assertThatThrownBy(() -> new RailHello(UUID.randomUUID(), UUID.randomUUID(), 65536))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static int assertDecodes(MemorySegment s) {
        try {
            return RailHello.decode(s, "s").index();
        } catch (StreamFormatException e) {
            throw new AssertionError(e);
        }
    }

    private static MemorySegment copy(MemorySegment s) {
        return MemorySegment.ofArray(s.toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void anArrivingFrameWakesTheRailsEngineAndADrainedRailRearms() throws Exception {
        TcpLoopbackPair pair = closer.track(TcpLoopbackPair.open(TcpSettings.defaults(), LINK));
        AtomicInteger wakes = new AtomicInteger();
        pair.b().onArrival(wakes::incrementAndGet);
        // The watch starts with room to send, which the loop reports at once: it is registered from then on.
        Await.until("the watch to start", () -> wakes.get() > 0);
        List<byte[]> got = new ArrayList<>();
        for (int burst = 1; burst <= 3; burst++) {
            drain(pair.b(), got); // finds the socket drained: arms the watch
            int before = wakes.get();
            pair.a().offer(MemorySegment.ofArray(new byte[] {(byte) burst}));
            pair.a().flush();
            Await.until("a wake for burst " + burst, () -> wakes.get() > before);
            int total = burst;
            Await.until("the frame of burst " + burst, () -> {
                drain(pair.b(), got);
                return got.size() == total;
            });
        }
        assertThat(got).containsExactly(new byte[] {1}, new byte[] {2}, new byte[] {3});
    }

    @Test
    void aRailThatRefusedAnOfferWakesItsEngineWhenTheSocketHasRoomAgain() throws Exception {
        TcpLoopbackPair pair = closer.track(TcpLoopbackPair.open(TcpSettings.defaults(), LINK));
        AtomicInteger wakes = new AtomicInteger();
        pair.a().onArrival(wakes::incrementAndGet);
        Await.until("the watch to start", () -> wakes.get() > 0);
        MemorySegment frame = MemorySegment.ofArray(new byte[4096]);
        long offered = 0;
        while (pair.a().offer(frame)) {
            offered++;
        }
        pair.a().flush(); // the socket is full: the watch is armed for room
        int before = wakes.get();
        List<byte[]> got = new ArrayList<>();
        Await.until("a wake once the peer read", () -> {
            drain(pair.b(), got);
            return wakes.get() > before;
        });
        assertThat(offered).as("the socket filled").isGreaterThan(0);
        assertThat(pair.a().offer(frame)).as("room again").isTrue();
    }

    @Test
    void closeIsFinalAndFailFromAnotherThreadWins() throws Exception {
        TcpLoopbackPair pair = closer.track(TcpLoopbackPair.open(TcpSettings.defaults(), LINK));
        Thread t = Thread.ofPlatform().start(() -> pair.b().fail("peer dead (keepalive)", null));
        t.join();
        assertThat(pair.b().isOpen()).isFalse();
        assertThatThrownBy(() -> pair.b().poll(f -> { }, 1)).isInstanceOf(RailClosedException.class)
                .hasMessage("peer dead (keepalive)");
        pair.b().close();
        assertThatThrownBy(pair.b()::flush).hasMessage("peer dead (keepalive)");
        pollUntilClosed(pair.a(), new ArrayList<>());
    }
}
