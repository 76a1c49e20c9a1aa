package io.xdlink.it;

import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.agent.BackoffIdleStrategy;
import io.xdlink.rails.verbs.CompletionStatus;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceConfig;
import io.xdlink.rails.verbs.MemoryRegion;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every {@link RailTransport} must do, written once and run unchanged against each one (in-memory, TCP, the
 * simulator): a transport joins by subclassing this and saying how to open the two ends of one rail. Frames keep
 * their order and bytes on a transport that reports itself reliable; offer and poll never block and a full
 * transport says so instead of losing frames; the frame size limit holds; close and the peer's close are reported
 * the same way everywhere.
 *
 * <p>Randomness is seeded; the seed is in every failure message and {@code -Dxdlink.test.seed=N} replays it.
 */
public abstract class RailTransportConformance extends SeededConformance {
    protected static final int MAX = RailTransport.MAX_FRAME_BYTES;
    /** Polls in a row that bring nothing (with {@link #progress} between) after which a lossy transport is quiet. */
    protected static final int QUIET_ROUNDS = 1000;

    /** The two ends of one rail. */
    public record Ends(RailTransport a, RailTransport b) {
    }

    /**
     * Opens both ends of a fresh rail, ready to carry frames. Register everything it creates with
     * {@link #closeLater} (the ends included) so the base checks that closing really closes.
     */
    protected abstract Ends open() throws Exception;

    /** Whether this configuration may lose frames: what {@link RailInfo#lossy()} must say. */
    protected abstract boolean expectLossy();

    /**
     * What a lossy transport may do to a frame besides losing it, as its fault model documents: how many later
     * frames may overtake it, how many times it may arrive, how many of its bits may flip. By default nothing:
     * whatever arrives, arrives once, whole and in order. A reliable transport must deliver every frame exactly,
     * whatever this says.
     */
    protected Arrivals.Allowed allowed() {
        return Arrivals.Allowed.LOSS_ONLY;
    }

    /**
     * Opens {@code count} more rails between the same two hosts, for the full-stack test (several rails to one
     * peer, striped). Default: one more {@link #open()} per rail.
     */
    protected List<Ends> openRails(int count) throws Exception {
        List<Ends> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            all.add(open());
        }
        return all;
    }

    /**
     * The configuration of each device in the full-stack test: by default a progress thread that backs off when
     * idle. A transport on a virtual clock returns an invoker configuration here and steps the devices in
     * {@link #progress()} once {@link #devicesOpened} told it which.
     */
    protected DeviceConfig deviceConfig(UUID id) {
        return DeviceConfig.builder().id(id).settings(RailsSettings.defaults()).thread(new BackoffIdleStrategy())
                .seed(seed ^ id.getLeastSignificantBits()).build();
    }

    /** Called as soon as the full-stack test's devices exist, before anything (connecting included) waits on them. */
    protected void devicesOpened(Device a, Device b) {
    }

    private Ends ends;

    private Ends ends() throws Exception {
        if (ends == null) {
            ends = open();
        }
        return ends;
    }

    private byte[] randomFrame(int size) {
        byte[] f = new byte[size];
        random.nextBytes(f);
        return f;
    }

    /**
     * A random frame of {@code size} bytes to send over {@code rail}; over a lossy one at least
     * {@link Arrivals#IDENTIFIABLE_BYTES}, so that what arrives can be told apart.
     */
    private byte[] randomFrame(RailTransport rail, int size) {
        return randomFrame(rail.info().lossy() ? Math.max(size, Arrivals.IDENTIFIABLE_BYTES) : size);
    }

    /** Checks what {@code to} handed over against what was sent to it, as {@link Arrivals} judges. */
    private void assertArrivals(RailTransport to, List<byte[]> sent, List<byte[]> received) {
        Arrivals.check(sent, received, to.info().lossy(), to.deliversIntact(), allowed(), seedNote());
    }

    /**
     * When a wait for frames is over: once all of them arrived from a reliable transport; from a lossy one, which
     * may have lost any of them, the last one too, once {@link #QUIET_ROUNDS} looks in a row brought nothing new.
     */
    private static final class Arrived {
        private final boolean lossy;
        private final int expected;
        private int last = -1;
        private int quiet;

        Arrived(RailTransport to, int expected) {
            this.lossy = to.info().lossy();
            this.expected = expected;
        }

        /** Whether the wait is over, with {@code received} frames in so far. */
        boolean all(int received) {
            if (!lossy) {
                return received >= expected;
            }
            quiet = received == last ? quiet + 1 : 0;
            last = received;
            return quiet >= QUIET_ROUNDS;
        }
    }

    /**
     * Sends every frame from {@code from}, draining {@code to} into {@code received} whenever {@code from} is
     * full, then waits until every frame has arrived (or, on a lossy transport, nothing more comes).
     */
    private void transfer(RailTransport from, RailTransport to, List<byte[]> frames, List<byte[]> received) {
        for (byte[] f : frames) {
            offer(from, to, MemorySegment.ofArray(f), received);
        }
        awaitArrivals(from, to, frames.size(), received);
    }

    /** Offers {@code frame} from {@code from}, draining {@code to} into {@code received} while {@code from} is full. */
    private void offer(RailTransport from, RailTransport to, MemorySegment frame, List<byte[]> received) {
        await("room to offer a frame", () -> {
            if (from.offer(frame)) {
                return true;
            }
            from.flush();
            drain(to, received);
            return false;
        });
    }

    /** Drains {@code to} into {@code received} until {@code expected} frames have {@link Arrived arrived}. */
    private void awaitArrivals(RailTransport from, RailTransport to, int expected, List<byte[]> received) {
        Arrived arrived = new Arrived(to, expected);
        await(expected + " frames to arrive", () -> {
            from.flush();
            drain(to, received);
            return arrived.all(received.size());
        });
    }

    private static int drain(RailTransport rail, List<byte[]> into) {
        return rail.poll(f -> into.add(f.toArray(ValueLayout.JAVA_BYTE)), 1024);
    }

    @Test
    void reportsWhetherItCanLoseFramesAndWhatItRunsOver() throws Exception {
        Ends e = ends();
        for (RailTransport r : List.of(e.a(), e.b())) {
            RailInfo info = r.info();
            assertThat(info.lossy()).as("%s lossy", info.name()).isEqualTo(expectLossy());
            assertThat(info.name()).isNotBlank();
            assertThat(info.linkId()).isNotBlank();
            assertThat(info.link()).isNotNull();
            assertThat(r.isOpen()).isTrue();
        }
        assertThat(e.a().info().linkId()).as("both ends run over one link").isEqualTo(e.b().info().linkId());
        assertThat(e.a().info().link()).isEqualTo(e.b().info().link());
    }

    /** Over a lossy transport: whatever arrives is a frame that was sent, as whole and in order as it allows. */
    @Test
    void framesArriveInOrderByteForByte() throws Exception {
        Ends e = ends();
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            int size = switch (random.nextInt(4)) {
                case 0 -> 1;
                case 1 -> MAX;
                default -> 1 + random.nextInt(MAX);
            };
            sent.add(randomFrame(e.a(), size));
        }
        List<byte[]> received = new ArrayList<>();
        transfer(e.a(), e.b(), sent, received);
        assertArrivals(e.b(), sent, received);
    }

    @Test
    void bothDirectionsRunAtOnce() throws Exception {
        Ends e = ends();
        int n = 2000;
        List<byte[]> toB = new ArrayList<>();
        List<byte[]> toA = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            toB.add(randomFrame(e.a(), 1 + random.nextInt(MAX)));
            toA.add(randomFrame(e.b(), 1 + random.nextInt(MAX)));
        }
        List<byte[]> atA = new ArrayList<>();
        List<byte[]> atB = new ArrayList<>();
        int[] next = {0, 0};
        Arrived allAtA = new Arrived(e.a(), n);
        Arrived allAtB = new Arrived(e.b(), n);
        await("both directions to finish", () -> {
            while (next[0] < n && e.a().offer(MemorySegment.ofArray(toB.get(next[0])))) {
                next[0]++;
            }
            while (next[1] < n && e.b().offer(MemorySegment.ofArray(toA.get(next[1])))) {
                next[1]++;
            }
            e.a().flush();
            e.b().flush();
            drain(e.a(), atA);
            drain(e.b(), atB);
            boolean doneA = allAtA.all(atA.size());
            boolean doneB = allAtB.all(atB.size());
            return next[0] == n && next[1] == n && doneA && doneB;
        });
        assertArrivals(e.b(), toB, atB);
        assertArrivals(e.a(), toA, atA);
    }

    /**
     * Each frame's buffer is wiped the moment its offer returns: whatever arrives must still be the frame as offered,
     * never the wiped bytes (a transport that kept a reference would hand those over).
     */
    @Test
    void offerCopiesTheFrameBeforeItReturns() throws Exception {
        Ends e = ends();
        List<byte[]> sent = new ArrayList<>();
        List<byte[]> received = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            byte[] f = randomFrame(100);
            sent.add(f.clone());
            offer(e.a(), e.b(), MemorySegment.ofArray(f), received);
            java.util.Arrays.fill(f, (byte) 0);
        }
        awaitArrivals(e.a(), e.b(), sent.size(), received);
        assertArrivals(e.b(), sent, received);
    }

    @Test
    void theLargestFrameFitsAndLargerOrEmptyOnesAreRefused() throws Exception {
        Ends e = ends();
        assertThatThrownBy(() -> e.a().offer(MemorySegment.ofArray(new byte[MAX + 1])))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(String.valueOf(MAX + 1));
        assertThatThrownBy(() -> e.a().offer(MemorySegment.ofArray(new byte[0])))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(e.a().isOpen()).as("a refused frame does not break the rail").isTrue();
        // One would do on a reliable transport; a lossy one may lose it, so it gets a few, and most must arrive.
        List<byte[]> big = new ArrayList<>();
        for (int i = 0; i < (e.a().info().lossy() ? 20 : 1); i++) {
            big.add(randomFrame(MAX));
        }
        List<byte[]> received = new ArrayList<>();
        transfer(e.a(), e.b(), big, received);
        assertArrivals(e.b(), big, received);
    }

    @Test
    void aFullTransportRefusesOffersAndLosesNothingItTook() throws Exception {
        Ends e = ends();
        MemorySegment frame = MemorySegment.ofArray(new byte[MAX]);
        long taken = 0;
        long bound = (1L << 30) / MAX;
        while (true) {
            frame.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, taken);
            if (!e.a().offer(frame)) {
                e.a().flush();
                if (!e.a().offer(frame)) {
                    break;
                }
            }
            taken++;
            assertThat(taken).as("nobody polls, so %s must fill up within 1 GiB", e.a().info().name()).isLessThan(bound);
        }
        assertThat(e.a().isOpen()).as("being full is not an error").isTrue();
        long total = taken;
        boolean lossy = e.b().info().lossy();
        long[] got = {0};
        long[] expected = {0};
        int[] quiet = {0};
        // A reliable transport must hand over every frame it took, in order. A lossy one may lose any of them, the
        // last one too, so the wait there ends when the transport has fallen quiet.
        await(total + " frames to drain", () -> {
            e.a().flush();
            int n = e.b().poll(f -> {
                long seq = f.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
                if (!lossy) {
                    assertThat(seq).as("frame order after back-pressure").isEqualTo(expected[0]);
                }
                expected[0] = seq + 1;
                got[0]++;
            }, 256);
            quiet[0] = n == 0 ? quiet[0] + 1 : 0;
            return lossy ? expected[0] >= total || quiet[0] >= QUIET_ROUNDS : got[0] == total;
        });
        if (!lossy) {
            assertThat(got[0]).as("nothing refused arrived, nothing taken was lost").isEqualTo(total);
        }
        assertThat(e.b().isOpen()).isTrue();
    }

    @Test
    void pollHandsOverAtMostItsLimit() throws Exception {
        Ends e = ends();
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            byte[] f = randomFrame(e.a(), 1);
            sent.add(f);
            MemorySegment s = MemorySegment.ofArray(f);
            await("room", () -> e.a().offer(s));
        }
        List<byte[]> received = new ArrayList<>();
        assertThat(e.b().poll(f -> received.add(f.toArray(ValueLayout.JAVA_BYTE)), 0)).isZero();
        Arrived arrived = new Arrived(e.b(), sent.size());
        await(sent.size() + " frames, three at a time", () -> {
            e.a().flush();
            int before = received.size();
            int n = e.b().poll(f -> received.add(f.toArray(ValueLayout.JAVA_BYTE)), 3);
            assertThat(n).as(seedNote()).isBetween(0, 3).isEqualTo(received.size() - before);
            return arrived.all(received.size());
        });
        assertArrivals(e.b(), sent, received);
    }

    @Test
    void aClosedRailRefusesEverythingAndClosingTwiceIsHarmless() throws Exception {
        Ends e = ends();
        RailInfo info = e.a().info();
        e.a().close();
        assertThat(e.a().isOpen()).isFalse();
        assertThatThrownBy(() -> e.a().offer(MemorySegment.ofArray(new byte[8]))).isInstanceOf(RailClosedException.class);
        assertThatThrownBy(() -> e.a().poll(f -> { }, 1)).isInstanceOf(RailClosedException.class);
        e.a().close();
        assertThat(e.a().info()).isEqualTo(info);
    }

    @Test
    void framesSentBeforeThePeerClosedArriveThenThePeerCloseIsReported() throws Exception {
        Ends e = ends();
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            sent.add(randomFrame(e.a(), 1 + random.nextInt(MAX)));
        }
        List<byte[]> received = new ArrayList<>();
        for (byte[] f : sent) {
            offer(e.a(), e.b(), MemorySegment.ofArray(f), received);
        }
        await("everything offered to leave", () -> e.a().flush() == 0);
        e.a().close();
        RailClosedException[] thrown = {null};
        await("the peer's close to be reported", () -> {
            try {
                drain(e.b(), received);
                return false;
            } catch (RailClosedException closed) {
                thrown[0] = closed;
                return true;
            }
        });
        assertThat(e.b().isOpen()).isFalse();
        assertThatThrownBy(() -> e.b().offer(MemorySegment.ofArray(new byte[8]))).isInstanceOf(RailClosedException.class);
        // Every frame sent before the close, or on a lossy transport what of them it did not lose.
        assertArrivals(e.b(), sent, received);
    }

    @Test
    void framesWrittenInPlaceArriveAsWritten() throws Exception {
        Ends e = ends();
        assertThatThrownBy(() -> e.a().offer(MAX + 1, (buf, at) -> { })).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> e.a().offer(0, (buf, at) -> { })).isInstanceOf(IllegalArgumentException.class);
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            sent.add(randomFrame(e.a(), 1 + random.nextInt(MAX)));
        }
        List<byte[]> received = new ArrayList<>();
        for (byte[] f : sent) {
            await("room to write a frame in place", () -> {
                if (e.a().offer(f.length, (buf, at) -> MemorySegment.copy(MemorySegment.ofArray(f), 0, buf, at, f.length))) {
                    return true;
                }
                e.a().flush();
                drain(e.b(), received);
                return false;
            });
        }
        awaitArrivals(e.a(), e.b(), sent.size(), received);
        assertArrivals(e.b(), sent, received);
    }

    @Test
    void theFullRailsStackRunsOverIt() throws Exception {
        List<Ends> rails = openRails(2);
        DevicePair p = closeLater(DevicePair.open(rails.stream().map(Ends::a).toList(),
                rails.stream().map(Ends::b).toList(), this::deviceConfig, this::devicesOpened, this::await));

        FullStack.writesLandByteForByte(p, random, seedNote());
        FullStack.sendsFillReceivesAndWriteWithImmRaisesItsImmediate(p, random, seedNote());
    }

    @Test
    void aWriteWithAKeyTheTargetNeverGaveOutFailsAndLeavesTheTargetUntouched() throws Exception {
        List<Ends> rails = openRails(1);
        // On a lossy rail the refusal itself may be lost: the engine sends it again when the writer, hearing
        // nothing, resends, so the write still fails with the real reason rather than a timeout.
        DevicePair p = closeLater(DevicePair.open(List.of(rails.getFirst().a()), List.of(rails.getFirst().b()),
                this::deviceConfig, this::devicesOpened, this::await));
        MemorySegment src = p.allocate(8192);
        MemorySegment dst = p.allocate(8192);
        src.fill((byte) 0x77);
        MemoryRegion from = p.registerB(src);
        MemoryRegion to = p.registerA(dst);
        p.post("a write with a bad key", () -> p.qpB.postWrite(400, from, 0, 4096, to.address(), to.rkey() ^ 0x5A5A));
        assertThat(p.take(p.cqB, 1, "the refused write").getFirst().status()).as(seedNote())
                .isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
        assertThat(dst.mismatch(MemorySegment.ofArray(new byte[8192]))).as("target untouched").isEqualTo(-1);
    }
}
