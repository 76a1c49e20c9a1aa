package io.xdlink.rails.tcp;

import io.xdlink.rails.testing.Closer;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.frame.FrameLayout;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How long a rail's run records are: as long as the receiving host takes, which each end announces in the rail's
 * hello or reply, and no longer than the first builds took (64 frames) towards a host that announced nothing.
 */
class RunLimitTest {
    private static final LinkState LINK = LinkState.of(Generation.GEN3, 1);
    /** A WRITE_WITH_IMM's head, the longest: its payload is the most a 16 KiB frame carries. */
    private static final int HEAD = TcpRailTransport.MAX_HEAD;
    private static final int MOST = FrameLayout.MAX_STREAM_FRAME_BYTES - HEAD;
    @RegisterExtension
    final Closer closer = new Closer();

    @Test
    void aRunIsAsLongAsBothEndsTakeAndArrivesWholeInItsPlace() throws IOException {
        TcpLoopbackPair pair = closer.track(TcpLoopbackPair.open(TcpSettings.defaults(), LINK));
        assertThat(pair.a().burstFrames()).isEqualTo(TcpRailTransport.MAX_RUN_FRAMES).isEqualTo(256);
        assertThat(pair.b().burstFrames()).isEqualTo(256);
        MemorySegment memory = Arena.ofAuto().allocate(300L * MOST);
        SplittableRandom random = new SplittableRandom(256);
        for (long k = 0; k < memory.byteSize(); k += 8) {
            memory.set(ValueLayout.JAVA_LONG_UNALIGNED, k, random.nextLong());
        }
        // 300 frames that follow each other: one run takes 256 of them, 4 MiB, the most a run carries.
        assertThat(pair.a().offerRun(HEAD, new Contiguous(MOST), memory, 300)).isEqualTo(256);
        MemorySegment place = Arena.ofAuto().allocate(256L * MOST);
        TcpRailTransportTest.Placing receiver = new TcpRailTransportTest.Placing(place, true);
        Await.until("a run of 256 frames", () -> {
            pair.a().flush();
            pair.b().poll(receiver, 256);
            return receiver.payloads.size() == 256;
        });
        // Its payload went to its place in one piece, byte for byte.
        assertThat(receiver.asked).hasSize(1);
        assertThat(receiver.asked.getFirst()).containsExactly(HEAD, 256, 256L * MOST);
        assertThat(place.mismatch(memory.asSlice(0, place.byteSize()))).isEqualTo(-1);
    }

    @Test
    void aConnectingRailSendsNoLongerRunsThanAHostThatAnnouncedNothingTook() throws Exception {
        ServerSocket server = closer.track(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
        UUID me = UUID.randomUUID();
        UUID them = UUID.randomUUID();
        CompletableFuture<Socket> peer = new CompletableFuture<>();
        CompletableFuture<Integer> announced = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try {
                Socket s = server.accept();
                byte[] hello = new DataInputStream(s.getInputStream()).readNBytes(2 + RailHello.BYTES);
                announced.complete((int) hello[2 + 5]);
                // The reply as the first builds wrote it: the byte after the status left 0.
                MemorySegment reply = new RailHello.Reply(them, RailHello.Status.ACCEPTED).encode();
                reply.set(ValueLayout.JAVA_BYTE, 6, (byte) 0);
                OutputStream out = s.getOutputStream();
                out.write(new byte[] {0, (byte) RailHello.Reply.BYTES});
                out.write(reply.toArray(ValueLayout.JAVA_BYTE));
                out.flush();
                peer.complete(s);
            } catch (IOException e) {
                peer.completeExceptionally(e);
            }
        });
        TcpRailTransport rail = closer.track(RailConnector.connect(null, (InetSocketAddress) server.getLocalSocketAddress(),
                new RailHello(me, them, 0), new RailInfo("rail x", "l", LINK, false), TcpSettings.defaults(), null));
        assertThat(announced.get(30, TimeUnit.SECONDS)).as("this host's hello announces 2^8 frames").isEqualTo(8);
        try (Socket s = closer.track(peer.get(30, TimeUnit.SECONDS))) {
            assertThat(rail.burstFrames()).isEqualTo(RailHello.ANNOUNCED_NOTHING).isEqualTo(64);
            assertRunsGoOutAtMost(rail, s, 64);
        }
    }

    @Test
    void anAcceptedRailSendsNoLongerRunsThanAHostThatAnnouncedNothingTook() throws Exception {
        IoLoop loop = closer.track(new IoLoop("test-loop"));
        UUID local = UUID.randomUUID();
        UUID remote = UUID.randomUUID();
        CompletableFuture<TcpRailTransport> taken = new CompletableFuture<>();
        TcpListener listener = closer.track(RailListener.open(loop, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                local, TcpSettings.defaults(), h -> new RailAcceptor.Take(new RailInfo("rail y", "l", LINK, false),
                        taken::complete)));
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), listener.address().getPort())) {
            s.setSoTimeout(30_000);
            // The hello as the first builds wrote it: the byte after the version left 0.
            MemorySegment hello = new RailHello(remote, local, 0).encode();
            hello.set(ValueLayout.JAVA_BYTE, 5, (byte) 0);
            s.getOutputStream().write(new byte[] {0, (byte) RailHello.BYTES});
            s.getOutputStream().write(hello.toArray(ValueLayout.JAVA_BYTE));
            s.getOutputStream().flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] reply = in.readNBytes(2 + RailHello.Reply.BYTES);
            assertThat(reply[2 + 6]).as("the reply announces 2^8 frames").isEqualTo((byte) 8);
            TcpRailTransport rail = closer.track(taken.get(30, TimeUnit.SECONDS));
            assertThat(rail.burstFrames()).isEqualTo(64);
            assertRunsGoOutAtMost(rail, s, 64);
        }
    }

    /** Offers a run of 100 frames and reads its record off the peer's socket: {@code most} frames went, whole. */
    private static void assertRunsGoOutAtMost(TcpRailTransport rail, Socket peer, int most) throws IOException {
        MemorySegment memory = Arena.ofAuto().allocate(100L * MOST);
        assertThat(rail.offerRun(HEAD, new Contiguous(MOST), memory, 100)).isEqualTo(most);
        while (rail.pendingBytes() > 0) {
            rail.flush();
        }
        peer.setSoTimeout(30_000);
        DataInputStream in = new DataInputStream(peer.getInputStream());
        ByteBuffer header = ByteBuffer.wrap(in.readNBytes(RecordReader.RUN_HEADER_BYTES));
        assertThat(header.getShort() & 0xFFFF).isEqualTo(RecordReader.RUN_FLAG | HEAD);
        assertThat(header.getShort() & 0xFFFF).as("frames").isEqualTo(most);
        assertThat(header.getInt()).as("payload bytes").isEqualTo(most * MOST);
        in.skipNBytes((long) most * (HEAD + MOST)); // heads and payload: the record is all there
    }

    @Test
    void helloAndReplyCarryTheRunLimitAndRefuseOneNoRunHolds() throws StreamFormatException {
        MemorySegment hello = new RailHello(UUID.randomUUID(), UUID.randomUUID(), 7, 1024).encode();
        assertThat(hello.get(ValueLayout.JAVA_BYTE, 5)).isEqualTo((byte) 10);
        assertThat(RailHello.decode(hello, "s").runFrames()).isEqualTo(1024);
        hello.set(ValueLayout.JAVA_BYTE, 5, (byte) 0);
        assertThat(RailHello.decode(hello, "s").runFrames()).isEqualTo(64);
        hello.set(ValueLayout.JAVA_BYTE, 5, (byte) 16);
        assertThatThrownBy(() -> RailHello.decode(hello, "s")).isInstanceOf(StreamFormatException.class)
                .hasMessage("s: rail hello announces runs of 2^16 frames; a run holds at most 2^15");
        hello.set(ValueLayout.JAVA_BYTE, 5, (byte) 0xFF);
        assertThatThrownBy(() -> RailHello.decode(hello, "s"))
                .hasMessage("s: rail hello announces runs of 2^255 frames; a run holds at most 2^15");
        MemorySegment reply = new RailHello.Reply(UUID.randomUUID(), RailHello.Status.ACCEPTED, 2).encode();
        assertThat(RailHello.Reply.decode(reply, "s").runFrames()).isEqualTo(2);
        reply.set(ValueLayout.JAVA_BYTE, 6, (byte) 0);
        assertThat(RailHello.Reply.decode(reply, "s").runFrames()).isEqualTo(64);
        reply.set(ValueLayout.JAVA_BYTE, 6, (byte) 40);
        assertThatThrownBy(() -> RailHello.Reply.decode(reply, "s"))
                .hasMessage("s: rail reply announces runs of 2^40 frames; a run holds at most 2^15");
        for (int bad : new int[] {0, 1, 100, 1 << 16, -64}) {
            assertThatThrownBy(() -> new RailHello(UUID.randomUUID(), UUID.randomUUID(), 0, bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("a run limit of " + bad + " frames; it is a power of two in 2..2^15");
        }
        assertThat(new RailHello(UUID.randomUUID(), UUID.randomUUID(), 0).runFrames()).isEqualTo(256);
    }

    @Test
    void aReaderTellsWhatIsMissingOfARunsHeadsOnceItsHeaderIsHere() throws IOException {
        RecordReader reader = TcpRailTransport.newReader("r", TcpSettings.defaults());
        ByteBuffer stream = ByteBuffer.allocate(RecordReader.RUN_HEADER_BYTES + 256 * HEAD);
        stream.putShort((short) (RecordReader.RUN_FLAG | HEAD)).putShort((short) 256).putInt(256 * MOST);
        byte[] bytes = stream.array();
        assertThat(reader.headsMissing()).isEqualTo(-1);
        ReadableByteChannel channel = Channels.newChannel(new ByteArrayInputStream(bytes));
        reader.fill(channel, 5);
        assertThat(reader.headsMissing()).as("the header is not all here").isEqualTo(-1);
        reader.fill(channel, 3000 - 5);
        assertThat(reader.headsMissing()).isEqualTo(bytes.length - 3000);
        reader.fill(channel, bytes.length);
        assertThat(reader.headsMissing()).as("the heads are all here").isEqualTo(-1);
    }

    @Test
    void afterARunPlacedTheNextRunsHeadsComeInShortReadsThatTakeNoneOfItsPayload() throws IOException {
        // Two runs of 256 frames on one stream, read as a rail reads them (TcpRailTransport#poll).
        MemorySegment memory = Arena.ofAuto().allocate(2L * 256 * MOST);
        SplittableRandom random = new SplittableRandom(2);
        for (long k = 0; k < memory.byteSize(); k += 8) {
            memory.set(ValueLayout.JAVA_LONG_UNALIGNED, k, random.nextLong());
        }
        ChunkedChannel sink = new ChunkedChannel(Integer.MAX_VALUE);
        RecordWriter writer = new RecordWriter(TcpSettings.defaults().railBuffer());
        for (int run = 0; run < 2; run++) {
            long at = writer.beginRun(HEAD, 256);
            Contiguous frames = new Contiguous(MOST);
            for (int i = 0; i < 256; i++) {
                frames.frame(i);
                frames.write(writer.segment(), at + (long) i * HEAD);
            }
            writer.commitRun(HEAD, 256, memory, (long) run * 256 * MOST, 256 * MOST);
            writer.writeTo(sink);
        }
        Recording stream = new Recording(sink.bytes());
        RecordReader reader = TcpRailTransport.newReader("r", TcpSettings.defaults());
        RunsIn runs = new RunsIn(reader, "r");
        MemorySegment place = Arena.ofAuto().allocate(2L * 256 * MOST);
        int[] placed = new int[1];
        TcpRailTransportTest.Placing receiver = new TcpRailTransportTest.Placing(place, true) {
            @Override
            public MemorySegment placement(MemorySegment heads, long headOffset, int headLength, int frames,
                                           int payloadLength) {
                stream.intoBuffer.add(-1); // the reads after this one are the next run's
                return place.asSlice((long) placed[0]++ * payloadLength, payloadLength);
            }
        };
        while (receiver.payloads.size() < 512) {
            if (runs.handing()) {
                runs.hand(receiver, 512);
            } else if (runs.placing()) {
                runs.readIntoPlace(stream);
            } else {
                long at = reader.nextRecord();
                if (at >= 0) {
                    runs.start(at);
                } else if (reader.partialRun() < 0 || !runs.place(receiver, true)) {
                    assertThat(runs.fill(stream)).as("a read that brings bytes").isPositive();
                }
            }
        }
        assertThat(place.mismatch(memory)).isEqualTo(-1);
        // The second run's header and heads: a short read of a 64-frame run's, then the rest of its heads alone.
        List<Integer> second = stream.intoBuffer.subList(stream.intoBuffer.lastIndexOf(-1) + 1,
                stream.intoBuffer.size());
        assertThat(second).isEmpty();
        List<Integer> beforeSecond = stream.intoBuffer.subList(stream.intoBuffer.indexOf(-1) + 1,
                stream.intoBuffer.lastIndexOf(-1));
        assertThat(beforeSecond).containsExactly(TcpRailTransport.HEADS_AHEAD,
                RecordReader.RUN_HEADER_BYTES + 256 * HEAD - TcpRailTransport.HEADS_AHEAD);
    }

    /** A stream of bytes that notes how much each read brought into a reader's buffer rather than into a place. */
    private static final class Recording implements ReadableByteChannel {
        final ByteBuffer bytes;
        final List<Integer> intoBuffer = new ArrayList<>();

        Recording(byte[] bytes) {
            this.bytes = ByteBuffer.wrap(bytes);
        }

        @Override
        public int read(ByteBuffer dst) {
            int n = Math.min(dst.remaining(), bytes.remaining());
            if (n == 0) {
                return bytes.hasRemaining() ? 0 : -1;
            }
            dst.put(bytes.slice(bytes.position(), n));
            bytes.position(bytes.position() + n);
            if (dst.capacity() == TcpSettings.defaults().railBuffer()) {
                intoBuffer.add(n);
            }
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    /** Frames of {@code length} payload bytes each, one after another in the memory from offset 0. */
    private static final class Contiguous implements RailTransport.FrameRun {
        private final int length;
        private int frame;

        Contiguous(int length) {
            this.length = length;
        }

        @Override
        public boolean frame(int i) {
            frame = i;
            return true;
        }

        @Override
        public long payloadOffset() {
            return (long) frame * length;
        }

        @Override
        public int payloadLength() {
            return length;
        }

        @Override
        public void write(MemorySegment buffer, long offset) {
            buffer.asSlice(offset, HEAD).fill((byte) 0x51);
            buffer.set(RecordReader.LENGTH, offset + FrameLayout.OFF_LENGTH, (short) length);
        }
    }
}
