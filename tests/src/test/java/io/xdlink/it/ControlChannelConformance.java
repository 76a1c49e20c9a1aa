package io.xdlink.it;

import io.xdlink.xdomain.ControlChannel;
import io.xdlink.xdomain.packet.ControlFrame;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What every {@link ControlChannel} must do, from its javadoc, written once and run unchanged against each one
 * (in-memory, the simulator's ring 0 and a host's view of it, TCP): a channel joins by subclassing this and saying
 * how to open the two ends of one channel, whether it may lose packets, and how to let deliveries happen (a virtual
 * clock moves on there).
 * Packets arrive whole and unchanged in both directions and in the order sent (a lossy channel: an ordered subset,
 * each packet intact); send copies the packet and never blocks; a closed channel drops what is sent on it without
 * an error; packets with no receiver installed are dropped and a new receiver replaces the old one; close is
 * idempotent and both ends report it.
 *
 * <p>Packets are random bytes in whole 32-bit words, from one packet word plus the CRC word up to the largest wire
 * packet ({@link ControlFrame#MAX_PACKET_BYTES} plus the CRC). The channel does not parse them, so their contents
 * need not be valid. Randomness is seeded; the seed is in every failure message and {@code -Dxdlink.test.seed=N}
 * replays it.
 */
public abstract class ControlChannelConformance extends SeededConformance {
    /** The smallest wire packet: one packet word and the CRC word. */
    protected static final int MIN_WIRE_BYTES = 8;
    /** The largest wire packet: the largest packet and the CRC word. */
    protected static final int MAX_WIRE_BYTES = ControlFrame.MAX_PACKET_BYTES + 4;
    /** Packets per transfer: well under any send queue's limit, so a lossless channel must deliver every one. */
    protected static final int TRANSFER = 200;
    /** Packets sent back to back to show that send never blocks; enough to fill a bounded send queue. */
    protected static final int FLOOD = 5000;

    /** The two ends of one channel. */
    public record Ends(ControlChannel a, ControlChannel b) {
    }

    /**
     * Opens both ends of a fresh channel, ready to carry packets. Register everything it creates with
     * {@link #closeLater} (the ends included) so the base checks that closing really closes. {@link #seed} is set.
     */
    protected abstract Ends open() throws Exception;

    /** Whether this configuration may lose packets even when few are sent (like a faulty ring 0). */
    protected abstract boolean lossy();

    /**
     * Whether packets sent faster than they can leave may be dropped (a bounded send queue); such a channel must
     * still never block, and what arrives must be an ordered subset, each packet intact.
     */
    protected boolean dropsWhenFlooded() {
        return false;
    }

    /** Whether an end reports {@code isOpen() == false} once the peer's end closed. */
    protected boolean seesPeerClose() {
        return true;
    }

    /**
     * Lets every packet sent so far be delivered or dropped, returning true; or returns false when this channel
     * cannot tell that moment from outside (a stream with no acknowledgement), and the cases that need it are skipped.
     */
    protected boolean settle() {
        return false;
    }

    /** Packets as a receiver saw them, in arrival order; safe to read from the test thread. */
    private static final class Inbox implements Consumer<byte[]> {
        private final List<byte[]> packets = new ArrayList<>();

        @Override
        public synchronized void accept(byte[] packet) {
            packets.add(packet);
        }

        synchronized int size() {
            return packets.size();
        }

        synchronized List<byte[]> snapshot() {
            return List.copyOf(packets);
        }
    }

    /**
     * One packet of {@code wireBytes} bytes (a multiple of 4, {@link #MIN_WIRE_BYTES} to {@link #MAX_WIRE_BYTES}) to
     * send: random bytes by default, since the channel does not parse packets. A channel that sits behind a ring-0
     * consumer, which parses and filters, makes packets that consumer passes on (it may round the size up).
     */
    protected byte[] packet(Random random, int wireBytes) {
        byte[] p = new byte[wireBytes];
        random.nextBytes(p);
        return p;
    }

    private byte[] randomPacket() {
        int words = MIN_WIRE_BYTES / 4 + random.nextInt((MAX_WIRE_BYTES - MIN_WIRE_BYTES) / 4 + 1);
        return packet(random, words * 4);
    }

    private List<byte[]> randomPackets(int count) {
        List<byte[]> all = new ArrayList<>(count);
        // The extremes first, so every run carries the smallest and the largest packet.
        all.add(filled(MIN_WIRE_BYTES));
        all.add(filled(MAX_WIRE_BYTES));
        while (all.size() < count) {
            all.add(randomPacket());
        }
        return all;
    }

    private byte[] filled(int size) {
        return packet(random, size);
    }

    private static String hex(byte[] p) {
        return p.length + " bytes " + HexFormat.of().formatHex(p);
    }

    /**
     * Checks that {@code got} is what was {@code sent}: all of it, in order, on a channel that must not lose packets
     * here; otherwise an ordered subset, each packet whole and unchanged.
     */
    private void assertDelivered(String direction, List<byte[]> sent, List<byte[]> got, boolean mayLose) {
        if (!mayLose) {
            assertThat(got).as("%s: packets that arrived [%s]", direction, seedNote()).hasSameSizeAs(sent);
        }
        int next = 0;
        for (int i = 0; i < got.size(); i++) {
            byte[] g = got.get(i);
            int from = next;
            while (next < sent.size() && !Arrays.equals(sent.get(next), g)) {
                next++;
            }
            if (next == sent.size()) {
                throw new AssertionError(direction + ": arrival " + i + " (" + hex(g) + ") is not a packet sent at or"
                        + " after position " + from + " in the order sent: changed, duplicated or reordered ["
                        + seedNote() + "]");
            }
            if (!mayLose) {
                assertThat(next).as("%s: arrival %d is sent packet %d [%s]", direction, i, i, seedNote()).isEqualTo(i);
            }
            next++;
        }
    }

    /** Waits until {@code count} packets arrived, or (lossy) until the channel is quiet with some lost. */
    private void awaitArrivals(String what, Inbox inbox, int count, boolean mayLose) {
        if (mayLose) {
            if (!settle()) {
                throw new IllegalStateException("a channel that may lose packets must be able to settle()");
            }
            return;
        }
        await(count + " packets " + what + " (" + inbox.size() + " so far)", () -> inbox.size() >= count);
    }

    @Test
    void packetsArriveWholeUnchangedAndInOrderInBothDirections() throws Exception {
        Ends e = open();
        Inbox atA = new Inbox();
        Inbox atB = new Inbox();
        e.a().receiver(atA);
        e.b().receiver(atB);
        List<byte[]> toB = randomPackets(TRANSFER);
        List<byte[]> toA = randomPackets(TRANSFER);
        for (int i = 0; i < TRANSFER; i++) {
            e.a().send(toB.get(i).clone());
            e.b().send(toA.get(i).clone());
        }
        awaitArrivals("at b", atB, TRANSFER, lossy());
        awaitArrivals("at a", atA, TRANSFER, lossy());
        assertDelivered("a to b", toB, atB.snapshot(), lossy());
        assertDelivered("b to a", toA, atA.snapshot(), lossy());
        if (lossy()) {
            assertThat(atB.size() + atA.size()).as("a lossy channel still delivers something [%s]", seedNote())
                    .isPositive();
        }
    }

    @Test
    void sendCopiesThePacketBeforeItReturns() throws Exception {
        Ends e = open();
        Inbox atB = new Inbox();
        e.b().receiver(atB);
        List<byte[]> sent = randomPackets(TRANSFER);
        for (byte[] p : sent) {
            byte[] mine = p.clone();
            e.a().send(mine);
            Arrays.fill(mine, (byte) 0x5A);
            mine[0] ^= (byte) 0xFF;
        }
        awaitArrivals("at b", atB, TRANSFER, lossy());
        assertDelivered("a to b after the sender overwrote its arrays", sent, atB.snapshot(), lossy());
    }

    @Test
    void packetsWithNoReceiverAreDroppedAndANewReceiverReplacesTheOld() throws Exception {
        assumeFalse(lossy(), "a lossy channel cannot show which receiver a lost packet would have reached");
        Ends e = open();
        boolean canSettle = settle();
        List<byte[]> sent = randomPackets(3);
        Inbox first = new Inbox();
        Inbox second = new Inbox();
        if (canSettle) {
            // Delivered while b had no receiver: it must be gone, not kept for a receiver installed later. A stream
            // cannot tell from outside when the packet arrived, so there only the replacement is checked.
            e.a().send(sent.get(0));
            settle();
            e.b().receiver(first);
            settle();
            assertThat(first.size()).as("a packet that arrived with no receiver reaches a later one [%s]", seedNote())
                    .isZero();
        } else {
            e.b().receiver(first);
        }
        e.a().send(sent.get(1));
        awaitArrivals("at the first receiver", first, 1, false);
        e.b().receiver(second);
        e.a().send(sent.get(2));
        awaitArrivals("at the second receiver", second, 1, false);
        settle();
        assertThat(first.snapshot()).as("the first receiver gets nothing once replaced [%s]", seedNote())
                .containsExactly(sent.get(1));
        assertThat(second.snapshot()).as("the second receiver gets what follows [%s]", seedNote())
                .containsExactly(sent.get(2));
    }

    @Test
    void sendNeverBlocksEvenWhenFlooded() throws Exception {
        Ends e = open();
        Inbox atB = new Inbox();
        e.b().receiver(atB);
        List<byte[]> sent = randomPackets(FLOOD);
        Thread sender = Thread.ofPlatform().name("conformance-flood").start(() -> {
            for (byte[] p : sent) {
                e.a().send(p);
            }
        });
        // Bounded only so a blocking send fails the test instead of hanging it; no speed is asserted. The clock is
        // not moved meanwhile: a send that waited for delivery would wait forever on a virtual clock.
        sender.join(PATIENCE);
        assertThat(sender.isAlive()).as("%d sends returned within %d s without deliveries moving [%s]", FLOOD,
                PATIENCE.toSeconds(), seedNote()).isFalse();
        boolean mayLose = lossy() || dropsWhenFlooded();
        if (!mayLose) {
            awaitArrivals("at b", atB, FLOOD, false);
        } else if (!settle()) {
            // A bounded queue drops some of a flood. Markers follow it, a new one now and then in case the queue was
            // still full; once one arrives, everything sent before it that is coming has come.
            List<byte[]> markers = new ArrayList<>();
            int[] polls = {0};
            await("a packet sent after the flood to arrive", () -> {
                List<byte[]> got = atB.snapshot();
                if (!got.isEmpty() && markers.stream().anyMatch(m -> Arrays.equals(m, got.getLast()))) {
                    return true;
                }
                if (polls[0]++ % 1000 == 0) {
                    byte[] m = randomPacket();
                    markers.add(m);
                    sent.add(m);
                    e.a().send(m);
                }
                return false;
            });
        }
        assertDelivered("a to b, flooded", sent, atB.snapshot(), mayLose);
    }

    @Test
    void aPacketSentOnAClosedChannelIsDroppedWithoutAnError() throws Exception {
        Ends e = open();
        Inbox atB = new Inbox();
        e.b().receiver(atB);
        e.a().close();
        assertThatCode(() -> e.a().send(randomPacket())).as("send after close [%s]", seedNote())
                .doesNotThrowAnyException();
        if (!settle() && seesPeerClose()) {
            // Once b saw the close nothing more can come, so whatever was going to arrive has.
            await("b to see that a closed", () -> !e.b().isOpen());
        }
        assertThat(atB.size()).as("packets sent after close that arrived [%s]", seedNote()).isZero();
    }

    @Test
    void closeIsReportedOnBothEndsAndIsIdempotent() throws Exception {
        Ends e = open();
        assertThat(e.a().isOpen()).as("a fresh end is open").isTrue();
        assertThat(e.b().isOpen()).as("a fresh end is open").isTrue();
        e.a().close();
        assertThat(e.a().isOpen()).as("an end reports closed once closed").isFalse();
        assertThatCode(e.a()::close).as("a second close").doesNotThrowAnyException();
        assertThat(e.a().isOpen()).isFalse();
        if (seesPeerClose()) {
            await("b to see that a closed", () -> !e.b().isOpen());
        }
        e.b().close();
        e.b().close();
        assertThat(e.b().isOpen()).isFalse();
    }

    @Test
    void theOtherEndReportsAPeerThatWentAway() throws Exception {
        assumeTrue(seesPeerClose(), "this channel does not promise to see its peer go");
        Ends e = open();
        Inbox atA = new Inbox();
        e.a().receiver(atA);
        e.b().close();
        await("a to see that b closed", () -> !e.a().isOpen());
        assertThatCode(() -> e.a().send(randomPacket())).as("send to a peer that went away [%s]", seedNote())
                .doesNotThrowAnyException();
        assertThatCode(() -> e.b().send(randomPacket())).doesNotThrowAnyException();
        settle();
        assertThat(atA.size()).as("packets from a closed end that arrived [%s]", seedNote()).isZero();
    }
}
