package io.xdlink.rails.tcp;

import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.agent.BackoffIdleStrategy;
import io.xdlink.rails.frame.Opcode;
import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.CompletionQueue;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceConfig;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.QpAttributes;
import io.xdlink.rails.verbs.QueuePair;
import io.xdlink.rails.verbs.WorkOpcode;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two devices over one real TCP rail with the frames a real host sends (16 KiB): writes and sends of every size
 * around a frame's payload arrive byte for byte, a 1 MiB write takes a quarter of the frames 4 KiB frames would,
 * acknowledgements stay within one for every 16 data frames, and bulk writes both ways at once land byte for byte.
 */
class LargeFramesOverTcpTest {
    private static final long SEED = 0x16384L;
    private static final int FRAME = 16384;
    private static final int MEMORY = 4 << 20;

    private record Side(Device device, CompletionQueue cq, MemorySegment memory, MemoryRegion mr) {
    }

    private static Side side(Arena arena, TcpRailTransport rail, long n) {
        Device d = Device.open(DeviceConfig.builder().id(new UUID(0x16, n))
                .settings(RailsSettings.of("frame_bytes", Integer.toString(FRAME)))
                .thread(new BackoffIdleStrategy()).seed(n).build(), List.of(rail));
        MemorySegment memory = arena.allocate(MEMORY, 64);
        return new Side(d, d.createCq(1024), memory,
                d.allocPd().register(memory, Access.LOCAL_WRITE, Access.REMOTE_WRITE));
    }

    /**
     * Two devices over one real TCP rail with a queue pair connected between them ({@code qa} on A); closing it
     * closes the devices, the rail and the memory, in that order.
     */
    private record Connected(Arena arena, TcpLoopbackPair pair, Side a, Side b, QueuePair qa, QueuePair qb)
            implements AutoCloseable {
        static Connected open() throws Exception {
            Arena arena = Arena.ofShared();
            TcpLoopbackPair pair = null;
            Side a = null;
            Side b = null;
            try {
                pair = TcpLoopbackPair.open(TcpSettings.defaults(), TcpRailTransportTest.LINK);
                a = side(arena, pair.a(), 1);
                b = side(arena, pair.b(), 2);
                QpPairs.Pair qp = QpPairs.connect(b.device(), QpAttributes.of(b.mr().pd(), b.cq()), a.device(),
                        QpAttributes.of(a.mr().pd(), a.cq()));
                return new Connected(arena, pair, a, b, qp.connecting(), qp.listening());
            } catch (Exception | Error e) {
                new Connected(arena, pair, a, b, null, null).close();
                throw e;
            }
        }

        @Override
        public void close() {
            try (arena; pair) {
                if (a != null) {
                    a.device().close();
                }
                if (b != null) {
                    b.device().close();
                }
            }
        }
    }

    private static Completion next(Side s, WorkOpcode opcode, long wrId) {
        Completion[] got = new Completion[1];
        Await.until(opcode + " " + wrId + " on " + s.device(), () -> (got[0] = s.cq().poll()) != null);
        assertThat(got[0].isSuccess()).as("%s (seed %d)", got[0], SEED).isTrue();
        assertThat(got[0].opcode()).isEqualTo(opcode);
        assertThat(got[0].wrId()).isEqualTo(wrId);
        return got[0];
    }

    /**
     * Data frames {@code s} took in, less duplicates: a sender whose acknowledgement is late (a busy host) probes with
     * its oldest message's first frame again.
     */
    private static long newFrames(Side s) {
        var stats = s.device().stats();
        return stats.dataFramesReceived() - stats.duplicateFrames();
    }

    @Test
    void writesAndSendsOfEverySizeArriveWholeInLargeFramesOverARealSocket() throws Exception {
        SplittableRandom random = new SplittableRandom(SEED);
        try (Connected c = Connected.open()) {
            Side a = c.a();
            Side b = c.b();
            QueuePair qa = c.qa();
            QueuePair qb = c.qb();
            int payload = Opcode.WRITE.maxPayload(FRAME);
            int[] sizes = {1, payload - 1, payload, payload + 1, 2 * payload, 65536, 3 * 65536 + 7, 1 << 20,
                    1 + random.nextInt(MEMORY / 2)};
            long id = 0;
            for (int size : sizes) {
                long from = random.nextInt(MEMORY - size);
                long to = random.nextInt(MEMORY - size);
                byte[] bytes = new byte[size];
                random.nextBytes(bytes);
                MemorySegment.copy(MemorySegment.ofArray(bytes), 0, a.memory(), from, size);
                b.memory().fill((byte) 0);
                long dataBefore = newFrames(b);
                assertThat(qa.postWrite(++id, a.mr(), from, size, b.mr().address() + to, b.mr().rkey()))
                        .isTrue();
                next(a, WorkOpcode.WRITE, id);
                assertThat(b.memory().asSlice(to, size).toArray(ValueLayout.JAVA_BYTE))
                        .as("a write of %d bytes (seed %d)", size, SEED).isEqualTo(bytes);
                assertThat(newFrames(b) - dataBefore)
                        .as("frames of a %d-byte write", size).isEqualTo((size + payload - 1) / payload);
            }
            // A SEND's frames go whole, not as a run: a frame of 16 KiB as one stream record.
            int sendPayload = Opcode.SEND.maxPayload(FRAME);
            for (int size : new int[] {sendPayload, 2 * sendPayload + 3}) {
                byte[] bytes = new byte[size];
                random.nextBytes(bytes);
                MemorySegment.copy(MemorySegment.ofArray(bytes), 0, a.memory(), 0, size);
                b.memory().fill((byte) 0);
                assertThat(qb.postRecv(++id, b.mr(), 4096, size)).isTrue();
                assertThat(qa.postSend(id, a.mr(), 0, size)).isTrue();
                assertThat(next(b, WorkOpcode.RECV, id).byteLen()).isEqualTo(size);
                next(a, WorkOpcode.SEND, id);
                assertThat(b.memory().asSlice(4096, size).toArray(ValueLayout.JAVA_BYTE))
                        .as("a send of %d bytes (seed %d)", size, SEED).isEqualTo(bytes);
            }
            // A stream of 1 MiB writes: a quarter of 4 KiB frames' count, and one ACK for at most 16 of them.
            long dataBefore = newFrames(b);
            long acksBefore = b.device().stats().ackFramesSent();
            int writes = 64;
            for (int i = 0; i < writes; i++) {
                while (!qa.postWrite(++id, a.mr(), 0, 1 << 20, b.mr().address() + (1 << 20), b.mr().rkey(),
                        false)) {
                    Thread.onSpinWait();
                }
            }
            assertThat(qa.postWrite(++id, a.mr(), 0, 1, b.mr().address(), b.mr().rkey())).isTrue();
            next(a, WorkOpcode.WRITE, id);
            long data = newFrames(b) - dataBefore;
            long acks = b.device().stats().ackFramesSent() - acksBefore;
            long perWrite = ((1L << 20) + payload - 1) / payload;
            assertThat(data).as("%s", b.device().stats()).isEqualTo(writes * perWrite + 1);
            assertThat(acks).as("%d ACKs for %d data frames", acks, data).isLessThanOrEqualTo(data / 16 + 1);
            assertThat(a.device().lastError()).isNull();
            assertThat(b.device().lastError()).isNull();
        }
    }

    /**
     * A WRITE's payload is read from the socket straight into the memory it belongs in, its first frame's too: a
     * message goes as one run record, heads first, and the receiver finds its place from the first head (checked as
     * the full way checks a frame) before the payload arrives. A message's first frame used to be read into the rail's
     * buffer and copied from there (a quarter of a 64 KiB stream's bytes), and a 1 MiB message's first run, longer
     * than that buffer, into scratch memory.
     */
    @Test
    void writesPayloadsAreReadStraightIntoTheirPlaceFirstFramesIncluded() throws Exception {
        SplittableRandom random = new SplittableRandom(SEED + 3);
        try (Connected c = Connected.open()) {
            Side a = c.a();
            Side b = c.b();
            byte[] big = new byte[1 << 20];
            random.nextBytes(big);
            MemorySegment.copy(MemorySegment.ofArray(big), 0, a.memory(), 0, big.length);
            long placed = b.device().stats().payloadBytesInPlace();
            long copied = b.device().stats().payloadBytesCopied();
            assertThat(c.qa().postWrite(1, a.mr(), 0, big.length, b.mr().address() + 4096, b.mr().rkey())).isTrue();
            next(a, WorkOpcode.WRITE, 1);
            assertThat(b.memory().asSlice(4096, big.length).toArray(ValueLayout.JAVA_BYTE))
                    .as("a 1 MiB write (seed %d)", SEED + 3).isEqualTo(big);
            var stats = b.device().stats();
            assertThat(stats.payloadBytesInPlace() - placed).as("bytes read into place: %s", stats)
                    .isGreaterThanOrEqualTo(big.length * 3L / 4);
            assertThat(stats.payloadBytesCopied() - copied).isLessThanOrEqualTo(big.length / 4);

            // A stream of 64 KiB writes with immediates, each into a receive posted ahead, as a collective's are.
            int size = 65536;
            int messages = 48;
            byte[] bytes = new byte[size * messages];
            random.nextBytes(bytes);
            MemorySegment.copy(MemorySegment.ofArray(bytes), 0, a.memory(), 0, bytes.length);
            placed = stats.payloadBytesInPlace();
            copied = stats.payloadBytesCopied();
            long id = 1;
            for (int m = 0; m < messages; m++) {
                assertThat(c.qb().postRecv(100 + m, b.mr(), 0, 0)).isTrue();
            }
            for (int m = 0; m < messages; m++) {
                while (!c.qa().postWriteWithImm(++id, a.mr(), (long) m * size, size,
                        b.mr().address() + (long) m * size, b.mr().rkey(), m)) {
                    Thread.onSpinWait();
                }
            }
            for (int m = 0; m < messages; m++) {
                assertThat(next(b, WorkOpcode.RECV_WRITE_WITH_IMM, 100 + m).imm()).isEqualTo(m);
            }
            assertThat(b.memory().asSlice(0, bytes.length).toArray(ValueLayout.JAVA_BYTE))
                    .as("%d writes of %d bytes (seed %d)", messages, size, SEED + 3).isEqualTo(bytes);
            stats = b.device().stats();
            // Only what arrives before a run's heads are seen can land in the rail's buffer: the stream's start.
            assertThat(stats.payloadBytesInPlace() - placed).as("bytes read into place: %s", stats)
                    .isGreaterThanOrEqualTo(bytes.length * 7L / 8);
            assertThat(a.device().lastError()).isNull();
            assertThat(b.device().lastError()).isNull();
        }
    }

    /**
     * Bulk writes both ways at once over one real socket: each side's run records arrive with the other side's
     * acknowledgements between them, and every byte still lands where it belongs.
     */
    @Test
    void writesBothWaysAtOnceOverARealSocketLandByteForByte() throws Exception {
        SplittableRandom random = new SplittableRandom(SEED + 2);
        int half = MEMORY / 2;
        try (Connected c = Connected.open()) {
            Side a = c.a();
            Side b = c.b();
            QueuePair qa = c.qa();
            QueuePair qb = c.qb();
            long id = 0;
            for (int round = 0; round < 8; round++) {
                byte[] fromA = new byte[half];
                byte[] fromB = new byte[half];
                random.nextBytes(fromA);
                random.nextBytes(fromB);
                MemorySegment.copy(MemorySegment.ofArray(fromA), 0, a.memory(), 0, half);
                MemorySegment.copy(MemorySegment.ofArray(fromB), 0, b.memory(), 0, half);
                long first = id + 1;
                // Two writes each way, posted in turns so both directions carry data at once.
                for (int k = 0; k < 2; k++) {
                    int at = k * (half / 2);
                    assertThat(qa.postWrite(++id, a.mr(), at, half / 2, b.mr().address() + half + at,
                            b.mr().rkey())).isTrue();
                    assertThat(qb.postWrite(id, b.mr(), at, half / 2, a.mr().address() + half + at,
                            a.mr().rkey())).isTrue();
                }
                for (long w = first; w <= id; w++) {
                    next(a, WorkOpcode.WRITE, w);
                    next(b, WorkOpcode.WRITE, w);
                }
                assertThat(b.memory().asSlice(half, half).toArray(ValueLayout.JAVA_BYTE))
                        .as("round %d into B (seed %d)", round, SEED + 2).isEqualTo(fromA);
                assertThat(a.memory().asSlice(half, half).toArray(ValueLayout.JAVA_BYTE))
                        .as("round %d into A (seed %d)", round, SEED + 2).isEqualTo(fromB);
            }
            assertThat(a.device().stats().ackFramesReceived()).as("acknowledgements came both ways").isPositive();
            assertThat(b.device().stats().ackFramesReceived()).isPositive();
            assertThat(a.device().lastError()).isNull();
            assertThat(b.device().lastError()).isNull();
        }
    }
}
