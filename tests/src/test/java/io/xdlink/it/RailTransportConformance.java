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
import static org.junit.jupiter.api.Assumptions.assumeFalse;

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
     * Sends every frame from {@code from}, draining {@code to} into {@code received} whenever {@code from} is
     * full, then waits until {@code expected} frames have arrived.
     */
    private void transfer(RailTransport from, RailTransport to, List<byte[]> frames, List<byte[]> received) {
        for (byte[] f : frames) {
            MemorySegment s = MemorySegment.ofArray(f);
            await("room to offer a frame", () -> {
                if (from.offer(s)) {
                    return true;
                }
                from.flush();
                drain(to, received);
                return false;
            });
        }
        await(frames.size() + " frames to arrive", () -> {
            from.flush();
            drain(to, received);
            return received.size() >= frames.size();
        });
    }

    private static int drain(RailTransport rail, List<byte[]> into) {
        return rail.poll(f -> into.add(f.toArray(ValueLayout.JAVA_BYTE)), 1024);
    }

    private void assumeReliable(RailTransport rail) {
        assumeFalse(rail.info().lossy(), "exact delivery is promised only by transports that report themselves reliable");
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

    @Test
    void framesArriveInOrderByteForByte() throws Exception {
        Ends e = ends();
        assumeReliable(e.a());
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            int size = switch (random.nextInt(4)) {
                case 0 -> 1;
                case 1 -> MAX;
                default -> 1 + random.nextInt(MAX);
            };
            sent.add(randomFrame(size));
        }
        List<byte[]> received = new ArrayList<>();
        transfer(e.a(), e.b(), sent, received);
        assertThat(received).as(seedNote()).hasSize(sent.size());
        for (int i = 0; i < sent.size(); i++) {
            assertThat(received.get(i)).as("frame %d, %s", i, seedNote()).isEqualTo(sent.get(i));
        }
    }

    @Test
    void bothDirectionsRunAtOnce() throws Exception {
        Ends e = ends();
        assumeReliable(e.a());
        int n = 2000;
        List<byte[]> toB = new ArrayList<>();
        List<byte[]> toA = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            toB.add(randomFrame(1 + random.nextInt(MAX)));
            toA.add(randomFrame(1 + random.nextInt(MAX)));
        }
        List<byte[]> atA = new ArrayList<>();
        List<byte[]> atB = new ArrayList<>();
        int[] next = {0, 0};
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
            return atA.size() == n && atB.size() == n;
        });
        for (int i = 0; i < n; i++) {
            assertThat(atB.get(i)).as("a to b frame %d, %s", i, seedNote()).isEqualTo(toB.get(i));
            assertThat(atA.get(i)).as("b to a frame %d, %s", i, seedNote()).isEqualTo(toA.get(i));
        }
    }

    @Test
    void offerCopiesTheFrameBeforeItReturns() throws Exception {
        Ends e = ends();
        assumeReliable(e.a());
        byte[] f = randomFrame(100);
        byte[] original = f.clone();
        MemorySegment s = MemorySegment.ofArray(f);
        await("room for one frame", () -> e.a().offer(s));
        java.util.Arrays.fill(f, (byte) 0);
        List<byte[]> received = new ArrayList<>();
        await("the frame", () -> {
            e.a().flush();
            drain(e.b(), received);
            return !received.isEmpty();
        });
        assertThat(received.getFirst()).isEqualTo(original);
    }

    @Test
    void theLargestFrameFitsAndLargerOrEmptyOnesAreRefused() throws Exception {
        Ends e = ends();
        assertThatThrownBy(() -> e.a().offer(MemorySegment.ofArray(new byte[MAX + 1])))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(String.valueOf(MAX + 1));
        assertThatThrownBy(() -> e.a().offer(MemorySegment.ofArray(new byte[0])))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(e.a().isOpen()).as("a refused frame does not break the rail").isTrue();
        if (!e.a().info().lossy()) {
            byte[] big = randomFrame(MAX);
            List<byte[]> received = new ArrayList<>();
            transfer(e.a(), e.b(), List.of(big), received);
            assertThat(received).hasSize(1);
            assertThat(received.getFirst()).isEqualTo(big);
        }
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
        assumeReliable(e.a());
        for (int i = 0; i < 10; i++) {
            MemorySegment s = MemorySegment.ofArray(new byte[] {(byte) i});
            await("room", () -> e.a().offer(s));
        }
        List<byte[]> received = new ArrayList<>();
        assertThat(e.b().poll(f -> received.add(f.toArray(ValueLayout.JAVA_BYTE)), 0)).isZero();
        await("10 frames, three at a time", () -> {
            e.a().flush();
            int before = received.size();
            int n = e.b().poll(f -> received.add(f.toArray(ValueLayout.JAVA_BYTE)), 3);
            assertThat(n).isBetween(0, 3).isEqualTo(received.size() - before);
            return received.size() == 10;
        });
        for (int i = 0; i < 10; i++) {
            assertThat(received.get(i)).containsExactly((byte) i);
        }
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
            sent.add(randomFrame(1 + random.nextInt(MAX)));
        }
        List<byte[]> received = new ArrayList<>();
        for (byte[] f : sent) {
            MemorySegment s = MemorySegment.ofArray(f);
            await("room", () -> {
                if (e.a().offer(s)) {
                    return true;
                }
                e.a().flush();
                drain(e.b(), received);
                return false;
            });
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
        if (!e.b().info().lossy()) {
            assertThat(received).as("every frame sent before the close, %s", seedNote()).hasSize(sent.size());
            for (int i = 0; i < sent.size(); i++) {
                assertThat(received.get(i)).isEqualTo(sent.get(i));
            }
        }
    }

    @Test
    void framesWrittenInPlaceArriveAsWritten() throws Exception {
        Ends e = ends();
        assertThatThrownBy(() -> e.a().offer(MAX + 1, (buf, at) -> { })).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> e.a().offer(0, (buf, at) -> { })).isInstanceOf(IllegalArgumentException.class);
        assumeReliable(e.a());
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            sent.add(randomFrame(1 + random.nextInt(MAX)));
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
        await(sent.size() + " frames", () -> {
            e.a().flush();
            drain(e.b(), received);
            return received.size() >= sent.size();
        });
        for (int i = 0; i < sent.size(); i++) {
            assertThat(received.get(i)).as("frame %d, %s", i, seedNote()).isEqualTo(sent.get(i));
        }
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
