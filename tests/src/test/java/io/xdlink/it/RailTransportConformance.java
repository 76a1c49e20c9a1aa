package io.xdlink.it;

import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.agent.BackoffIdleStrategy;
import io.xdlink.rails.frame.FrameLayout;
import io.xdlink.rails.verbs.CompletionStatus;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceConfig;
import io.xdlink.rails.verbs.MemoryRegion;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every {@link RailTransport} must do, written once and run unchanged against each one (in-memory, TCP, the
 * simulator): a transport joins by subclassing this and saying how to open the two ends of one rail. Frames keep
 * their order and bytes on a transport that reports itself reliable; offer and poll never block and a full
 * transport says so instead of losing frames; the frame size limit holds; close and the peer's close are reported
 * the same way everywhere. Every method of the interface is called here directly: a frame given whole or written in
 * place, runs of data frames whose payloads stay in the sender's memory ({@link RailTransport#offerRun}), which every
 * transport takes in its own way, received in place; the wake-up an idle engine waits for; flush, close.
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
        Arrivals.check(sent, received, to.info().lossy(), to.info().intact(), allowed(), seedNote());
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
                case 1 -> e.a().maxFrameBytes();
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
        // A USB4 ring's DMA frame, or a stream's larger frame: never beyond what the format's length field allows.
        int max = e.a().maxFrameBytes();
        assertThat(max).isBetween(MAX, io.xdlink.rails.frame.FrameLayout.MAX_STREAM_FRAME_BYTES);
        assertThat(e.b().maxFrameBytes()).isEqualTo(max);
        assertThatThrownBy(() -> e.a().offer(MemorySegment.ofArray(new byte[max + 1])))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(String.valueOf(max + 1));
        assertThatThrownBy(() -> e.a().offer(MemorySegment.ofArray(new byte[0])))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(e.a().isOpen()).as("a refused frame does not break the rail").isTrue();
        // One would do on a reliable transport; a lossy one may lose it, so it gets a few, and most must arrive.
        List<byte[]> big = new ArrayList<>();
        for (int i = 0; i < (e.a().info().lossy() ? 20 : 1); i++) {
            big.add(randomFrame(max));
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
        assertThatThrownBy(() -> e.a().offer(e.a().maxFrameBytes() + 1, (buf, at) -> { }))
                .isInstanceOf(IllegalArgumentException.class);
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

    /** A data frame's head: a WRITE's header, then its trailer, as the engine offers them. */
    private static final int HEAD = FrameLayout.WRITE_HEADER + FrameLayout.TRAILER_BYTES;
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /**
     * Seeded data frames whose payloads follow each other in one segment, as a request's frames lie in its registered
     * memory, and the run that offers them from any frame on ({@link #from}); frame {@link #stopAt} and those after
     * it are unreadable, as if the memory had been closed under the request.
     */
    private final class Frames implements RailTransport.FrameRun {
        final byte[][] heads;
        /** Where each frame's payload starts; the last entry is where the last one ends. */
        final long[] bounds;
        final MemorySegment payload;
        int stopAt = Integer.MAX_VALUE;
        private int first;
        private int current;

        Frames(int count) {
            heads = new byte[count][];
            bounds = new long[count + 1];
            for (int i = 0; i < count; i++) {
                int length = switch (random.nextInt(4)) {
                    case 0 -> 1;
                    case 1 -> MAX - HEAD;
                    default -> 1 + random.nextInt(MAX - HEAD);
                };
                bounds[i + 1] = bounds[i] + length;
                heads[i] = randomFrame(HEAD);
                // The frame's own length field: what a stream carrying runs splits their payloads by.
                MemorySegment.ofArray(heads[i]).set(U16, FrameLayout.OFF_LENGTH, (short) length);
            }
            long at = bounds[count];
            // Memory the garbage collector frees: a transport may still hold a lost frame's payload after the test.
            payload = Arena.ofAuto().allocate(Math.max(1, at));
            for (long k = 0; k < at; k++) {
                payload.set(ValueLayout.JAVA_BYTE, k, (byte) random.nextInt());
            }
        }

        /** Frame {@code i} whole, as the receiver must see it: header, payload, trailer. */
        byte[] whole(int i) {
            int header = HEAD - FrameLayout.TRAILER_BYTES;
            int length = (int) (bounds[i + 1] - bounds[i]);
            MemorySegment f = MemorySegment.ofArray(new byte[HEAD + length]);
            MemorySegment.copy(MemorySegment.ofArray(heads[i]), 0, f, 0, header);
            MemorySegment.copy(payload, bounds[i], f, header, length);
            MemorySegment.copy(MemorySegment.ofArray(heads[i]), header, f, header + length, FrameLayout.TRAILER_BYTES);
            return f.toArray(ValueLayout.JAVA_BYTE);
        }

        /** Every frame whole, in order. */
        List<byte[]> all() {
            List<byte[]> all = new ArrayList<>();
            for (int i = 0; i < heads.length; i++) {
                all.add(whole(i));
            }
            return all;
        }

        /** This run, starting at frame {@code i}. */
        Frames from(int i) {
            first = i;
            current = i;
            return this;
        }

        @Override
        public boolean frame(int i) {
            current = first + i;
            return current < stopAt;
        }

        @Override
        public long payloadOffset() {
            return bounds[current];
        }

        @Override
        public int payloadLength() {
            return (int) (bounds[current + 1] - bounds[current]);
        }

        @Override
        public void write(MemorySegment buffer, long offset) {
            MemorySegment.copy(MemorySegment.ofArray(heads[current]), 0, buffer, offset, HEAD);
        }
    }

    /**
     * Takes frames as the engine does, in place ({@link RailTransport.FrameReceiver#onFrame(MemorySegment, long, int,
     * MemorySegment, long, int)}), and keeps each laid out whole; a transport must never hand over a frame any other
     * way.
     */
    private static final class InPlace implements RailTransport.FrameReceiver {
        final List<byte[]> into;

        InPlace(List<byte[]> into) {
            this.into = into;
        }

        @Override
        public void onFrame(MemorySegment frame) {
            throw new AssertionError("a transport hands frames over in place, not as a segment of their own");
        }

        @Override
        public void onFrame(MemorySegment buffer, long offset, int length, MemorySegment payload, long payloadOffset,
                            int payloadLength) {
            if (payload == null) {
                into.add(buffer.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE));
                return;
            }
            assertThat(length).as("a two-part frame's head").isGreaterThan(FrameLayout.TRAILER_BYTES);
            int header = length - FrameLayout.TRAILER_BYTES;
            byte[] f = new byte[length + payloadLength];
            MemorySegment w = MemorySegment.ofArray(f);
            MemorySegment.copy(buffer, offset, w, 0, header);
            MemorySegment.copy(payload, payloadOffset, w, header, payloadLength);
            MemorySegment.copy(buffer, offset + header, w, header + payloadLength, FrameLayout.TRAILER_BYTES);
            into.add(f);
        }
    }

    /**
     * Offers frames {@code from} to {@code to} of {@code frames} as runs of seeded lengths (a run of one among
     * them), draining the peer in place while the transport is full.
     */
    private void offerRuns(Ends e, Frames frames, int from, int to, List<byte[]> received) {
        InPlace inPlace = new InPlace(received);
        int[] next = {from};
        while (next[0] < to) {
            int count = Math.min(to - next[0], 1 + random.nextInt(24));
            await("room for a run", () -> {
                int k = e.a().offerRun(HEAD, frames.from(next[0]), frames.payload, count);
                assertThat(k).as("frames taken of a run of %d [%s]", count, seedNote()).isBetween(0, count);
                next[0] += k;
                if (k > 0) {
                    return true;
                }
                e.a().flush();
                e.b().poll(inPlace, 1024);
                return false;
            });
        }
    }

    /**
     * Every transport takes runs of data frames whose payloads stay in the sender's memory, whatever it does with
     * them (keeps a reference, writes them from there, or copies): what arrives are the frames they stand for,
     * header, payload, trailer, handed over in place.
     */
    @Test
    void runsOfDataFramesArriveAsTheFramesTheyStandFor() throws Exception {
        Ends e = ends();
        Frames frames = new Frames(600);
        List<byte[]> received = new ArrayList<>();
        offerRuns(e, frames, 0, 600, received);
        assertRunsArrived(e, frames, received);
    }

    /** Waits, polling in place, until every frame of {@code frames} has arrived, then checks what did. */
    private void assertRunsArrived(Ends e, Frames frames, List<byte[]> received) {
        List<byte[]> sent = frames.all();
        InPlace inPlace = new InPlace(received);
        Arrived arrived = new Arrived(e.b(), sent.size());
        await(sent.size() + " frames of runs to arrive", () -> {
            e.a().flush();
            e.b().poll(inPlace, 1024);
            return arrived.all(received.size());
        });
        assertArrivals(e.b(), sent, received);
    }

    /**
     * A run ends before a frame whose payload cannot be read, and one with a head too short to be a frame's is
     * refused whole; neither breaks the rail, and what it took arrives.
     */
    @Test
    void aRunStopsAtAnUnreadableFrameAndABadHeadIsRefused() throws Exception {
        Ends e = ends();
        Frames frames = new Frames(40);
        assertThatThrownBy(() -> e.a().offerRun(FrameLayout.TRAILER_BYTES, frames.from(0), frames.payload, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(e.a().isOpen()).as("a refused run does not break the rail").isTrue();
        int stop = 1 + random.nextInt(8);
        frames.stopAt = stop;
        int[] taken = {0};
        await("room for a run", () -> {
            taken[0] = e.a().offerRun(HEAD, frames.from(0), frames.payload, 20);
            e.a().flush();
            return taken[0] > 0;
        });
        assertThat(taken[0]).as("frames taken before frame %d, unreadable [%s]", stop, seedNote())
                .isBetween(1, stop);
        frames.stopAt = Integer.MAX_VALUE;
        List<byte[]> received = new ArrayList<>();
        offerRuns(e, frames, taken[0], 40, received);
        assertRunsArrived(e, frames, received);
    }

    /**
     * An engine that idles is woken when frames arrive for it ({@link RailTransport#onArrival}), from whatever thread
     * the transport likes, without having to poll for them first.
     */
    @Test
    void framesArrivingWakeTheEndThatAskedToBeWoken() throws Exception {
        Ends e = ends();
        AtomicInteger wakes = new AtomicInteger();
        e.b().onArrival(wakes::incrementAndGet);
        List<byte[]> received = new ArrayList<>();
        // Nothing has come yet: a poll that finds nothing is where an engine goes idle.
        assertThat(drain(e.b(), received)).isZero();
        int before = wakes.get();
        List<byte[]> sent = new ArrayList<>();
        boolean[] refused = {false};
        await("a wake for arriving frames", () -> {
            if (sent.size() < 100) {
                byte[] f = randomFrame(e.a(), 1 + random.nextInt(MAX));
                if (e.a().offer(MemorySegment.ofArray(f))) {
                    sent.add(f);
                } else {
                    refused[0] = true;
                }
            }
            e.a().flush();
            // After the wake, a few more frames unless the rail is full: over a lossy transport one frame alone may be
            // the one its faults lose or damage, and "most arrive intact" says nothing about a single frame.
            return wakes.get() > before && (sent.size() >= 16 || refused[0]);
        });
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
