package io.xdlink.sim.wire;

import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailTransport;
import io.xdlink.sim.SimClock;
import io.xdlink.sim.fault.FaultPlan;
import io.xdlink.sim.fault.FrameFaults;
import io.xdlink.xdomain.VirtualScheduler;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The plain channel (no pacing, no faults, end-to-end flow control) hands over every frame whole and in the order
 * sent, whatever shape it was offered in, refuses exactly when the receive ring is full, and allocates nothing per
 * frame.
 */
class PlainChannelTest {
    private static final long SEED = Long.getLong("xdlink.seed", 20261201L);
    private static final int RX = 16;

    private final SimClock clock = SimClock.unpaced(new VirtualScheduler());
    private final FrameChannel channel = FrameChannel.of(new Wire("c:a->b", clock, 40_000, 0), new Waker(clock),
            FrameFaults.of(FaultPlan.NONE, "plain"), true, 4, RX);

    /** Collects each frame laid out whole, as the default two-part receiver does. */
    private final List<byte[]> got = new ArrayList<>();
    private final RailTransport.FrameReceiver collect = f -> got.add(f.toArray(ValueLayout.JAVA_BYTE));

    private static byte[] bytes(SplittableRandom r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    /** Header, payload, trailer: the frame on the wire of a head and payload offered in two parts. */
    private static byte[] joined(byte[] head, byte[] payload) {
        byte[] f = new byte[head.length + payload.length];
        int header = head.length - 4;
        System.arraycopy(head, 0, f, 0, header);
        System.arraycopy(payload, 0, f, header, payload.length);
        System.arraycopy(head, header, f, header + payload.length, 4);
        return f;
    }

    @Test
    void framesOfEveryShapeArriveWholeAndInOrder() {
        assertThat(channel).isInstanceOf(PlainChannel.class);
        SplittableRandom r = new SplittableRandom(SEED);
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            byte[] expected;
            boolean ok;
            switch (i % 5) {
                case 0 -> { // whole, small enough for the compact area, or not
                    expected = bytes(r, 1 + r.nextInt(RailTransport.MAX_FRAME_BYTES));
                    ok = channel.offer(MemorySegment.ofArray(expected));
                }
                case 1 -> { // written in place
                    byte[] f = bytes(r, 1 + r.nextInt(100));
                    expected = f;
                    ok = channel.offer(f.length,
                            (b, at) -> MemorySegment.copy(MemorySegment.ofArray(f), 0, b, at, f.length));
                }
                default -> { // in two parts; heads above the compact area's 64 bytes too
                    byte[] head = bytes(r, 5 + r.nextInt(i % 5 == 4 ? 200 : 60));
                    byte[] payload = bytes(r, 1 + r.nextInt(RailTransport.MAX_FRAME_BYTES - head.length));
                    expected = joined(head, payload);
                    ok = channel.offer(head.length, (b, at) -> MemorySegment.copy(MemorySegment.ofArray(head), 0, b,
                            at, head.length), MemorySegment.ofArray(payload), 0, payload.length);
                }
            }
            assertThat(ok).isTrue();
            sent.add(expected);
            if (i % 7 == 6) {
                channel.poll(collect, 3);
            }
            if (sent.size() - got.size() == RX) {
                channel.poll(collect, RX);
            }
        }
        while (channel.poll(collect, 5) > 0) {
            // take everything
        }
        assertThat(got).as("seed %d", SEED).hasSize(sent.size());
        for (int i = 0; i < sent.size(); i++) {
            assertThat(got.get(i)).as("frame %d, seed %d", i, SEED).isEqualTo(sent.get(i));
        }
        assertThat(channel.stats()).isEqualTo(new ChannelStats(2000, 0, 0, 0, 0, 0, 2000));
    }

    @Test
    void aRunIsPlacedAtOnceAndArrivesFrameByFrame() {
        byte[] payload = bytes(new SplittableRandom(SEED), 10 * 300);
        RailTransport.FrameRun run = new RailTransport.FrameRun() {
            private int frame;

            @Override
            public boolean frame(int i) {
                frame = i;
                return true;
            }

            @Override
            public long payloadOffset() {
                return frame * 300L;
            }

            @Override
            public int payloadLength() {
                return 300;
            }

            @Override
            public void write(MemorySegment buffer, long offset) {
                for (int b = 0; b < 24; b++) {
                    buffer.set(ValueLayout.JAVA_BYTE, offset + b, (byte) (frame * 24 + b));
                }
            }
        };
        assertThat(channel.takesRuns(24)).isTrue();
        assertThat(channel.takesRuns(EntryRing.HEAD_BYTES + 1)).isFalse();
        assertThat(channel.offerRun(24, run, MemorySegment.ofArray(payload), 10)).isEqualTo(10);
        assertThat(channel.offerRun(24, run, MemorySegment.ofArray(payload), 10)).as("6 entries left").isEqualTo(6);
        while (channel.poll(collect, 4) > 0) {
            // take everything
        }
        assertThat(got).hasSize(16);
        for (int i = 0; i < 16; i++) {
            int frame = i % 10;
            byte[] head = new byte[24];
            for (int b = 0; b < 24; b++) {
                head[b] = (byte) (frame * 24 + b);
            }
            byte[] part = java.util.Arrays.copyOfRange(payload, frame * 300, frame * 300 + 300);
            assertThat(got.get(i)).as("frame %d", i).isEqualTo(joined(head, part));
        }
    }

    @Test
    void aFullReceiveRingRefusesAndRoomWakesTheSenderOnce() {
        int[] woken = {0};
        channel.wakes(null, () -> woken[0]++);
        for (int i = 0; i < RX; i++) {
            assertThat(channel.offer(Frames.frame(i, 8))).isTrue();
        }
        assertThat(channel.offer(Frames.frame(RX, 8))).isFalse();
        assertThat(channel.poll(collect, 2)).isEqualTo(2);
        assertThat(woken[0]).isEqualTo(1);
        assertThat(channel.poll(collect, 2)).isEqualTo(2);
        assertThat(woken[0]).as("only a refused sender is woken").isEqualTo(1);
        assertThat(channel.offer(Frames.frame(RX, 8))).isTrue();
    }

    @Test
    void aClosedSendersFramesArriveBeforeItsClose() {
        channel.offer(Frames.frame(1, 8));
        channel.closeSender();
        assertThat(channel.poll(collect, 8)).isEqualTo(1);
        assertThatThrownBy(() -> channel.poll(collect, 8)).isInstanceOf(RailClosedException.class);
    }
}
