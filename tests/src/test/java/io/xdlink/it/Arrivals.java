package io.xdlink.it;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Judges what a transport handed over against what was offered to it. From a reliable transport every frame must
 * arrive, once, in order, byte for byte. A lossy one may lose any frame, and may do to the others only what its
 * fault model says ({@link Allowed}): each frame that arrives is then one that was sent, whole, at most a few later
 * frames behind where it belongs, at most a few times over, and with at most a few bits flipped; and most frames
 * do arrive, so that a transport that loses everything cannot pass by delivering nothing.
 *
 * <p>A lossy transport's frames are told apart by their content: each must be at least {@link #IDENTIFIABLE_BYTES}
 * random bytes, so two sent frames (or a damaged frame and another sent one) never look alike.
 */
final class Arrivals {
    /** The least size of a frame sent over a lossy transport, so that its random bytes name it. */
    static final int IDENTIFIABLE_BYTES = 16;

    private Arrivals() {
    }

    /**
     * What a lossy transport may do to a frame besides losing it, as its fault model documents.
     *
     * @param overtakenBy how many later frames may arrive before it (0: whatever arrives, arrives in order)
     * @param copies      how many times it may arrive (1: never duplicated)
     * @param flippedBits how many of its bits may arrive flipped (0: never damaged)
     */
    record Allowed(int overtakenBy, int copies, int flippedBits) {
        /** Nothing but loss: whatever arrives, arrives once, whole and in order. */
        static final Allowed LOSS_ONLY = new Allowed(0, 1, 0);

        Allowed {
            if (overtakenBy < 0 || copies < 1 || flippedBits < 0) {
                throw new IllegalArgumentException("overtaken by " + overtakenBy + ", copies " + copies
                        + ", flipped bits " + flippedBits + ": none may be negative and a frame arrives at least once");
            }
        }
    }

    /** What arrived from a lossy transport: frames intact, how many of them distinct, and frames damaged. */
    record Tally(int intact, int distinct, int damaged) {
    }

    /**
     * Checks {@code received} against {@code sent}.
     *
     * @param lossy          whether the transport reports itself lossy
     * @param deliversIntact whether it promises that no frame it delivers is damaged
     * @param allowed        what a lossy transport may do besides losing frames
     * @param note           the seed note, for failure messages
     */
    static Tally check(List<byte[]> sent, List<byte[]> received, boolean lossy, boolean deliversIntact,
                       Allowed allowed, String note) {
        if (!lossy) {
            assertThat(received).as("every frame, once, %s", note).hasSize(sent.size());
            for (int i = 0; i < sent.size(); i++) {
                assertThat(received.get(i)).as("frame %d, %s", i, note).isEqualTo(sent.get(i));
            }
            return new Tally(sent.size(), sent.size(), 0);
        }
        Map<ByteBuffer, Integer> bySent = new HashMap<>();
        Map<Integer, List<byte[]>> byLength = new HashMap<>();
        for (int i = 0; i < sent.size(); i++) {
            byte[] f = sent.get(i);
            if (f.length < IDENTIFIABLE_BYTES) {
                throw new IllegalArgumentException("frame " + i + " of " + f.length + " bytes cannot be told apart: a"
                        + " lossy transport's frames are " + IDENTIFIABLE_BYTES + " random bytes at least");
            }
            if (bySent.put(ByteBuffer.wrap(f), i) != null) {
                throw new IllegalArgumentException("frame " + i + " was sent twice: frames must differ");
            }
            byLength.computeIfAbsent(f.length, n -> new ArrayList<>()).add(f);
        }
        int[] copies = new int[sent.size()];
        BitSet arrived = new BitSet(sent.size());
        int intact = 0;
        int damaged = 0;
        for (int k = 0; k < received.size(); k++) {
            byte[] got = received.get(k);
            Integer seq = bySent.get(ByteBuffer.wrap(got));
            if (seq == null) {
                damaged++;
                judgeDamage(k, got, byLength, deliversIntact, allowed, note);
                continue;
            }
            intact++;
            int overtakers = arrived.get(seq + 1, Math.max(seq + 1, arrived.length())).cardinality();
            if (overtakers > allowed.overtakenBy()) {
                fail("arrival %d is frame %d, after %d frames sent later than it; the transport lets at most %d"
                        + " overtake a frame, %s", k, seq, overtakers, allowed.overtakenBy(), note);
            }
            if (++copies[seq] > allowed.copies()) {
                fail("arrival %d is frame %d for the %d. time; the transport delivers a frame at most %d times, %s",
                        k, seq, copies[seq], allowed.copies(), note);
            }
            arrived.set(seq);
        }
        int distinct = arrived.cardinality();
        assertThat(2L * distinct).as("frames that arrived intact (%d of %d sent): most must, %s", distinct,
                sent.size(), note).isGreaterThanOrEqualTo(sent.size());
        return new Tally(intact, distinct, damaged);
    }

    /** An arrival that is no frame sent: allowed only as a sent frame of its length with a few bits flipped. */
    private static void judgeDamage(int k, byte[] got, Map<Integer, List<byte[]>> byLength, boolean deliversIntact,
                                    Allowed allowed, String note) {
        if (deliversIntact || allowed.flippedBits() == 0) {
            fail("arrival %d (%d bytes) is no frame that was sent, from a transport that %s, %s", k, got.length,
                    deliversIntact ? "says it delivers frames intact" : "damages none", note);
        }
        for (byte[] f : byLength.getOrDefault(got.length, List.of())) {
            if (bitsApart(f, got, allowed.flippedBits()) <= allowed.flippedBits()) {
                return;
            }
        }
        fail("arrival %d (%d bytes) is no frame that was sent, not even one with at most %d bits flipped, %s", k,
                got.length, allowed.flippedBits(), note);
    }

    /** Bits in which two frames of one length differ, counted up to one more than {@code limit}. */
    private static int bitsApart(byte[] a, byte[] b, int limit) {
        int bits = 0;
        for (int i = 0; i < a.length && bits <= limit; i++) {
            bits += Integer.bitCount((a[i] ^ b[i]) & 0xFF);
        }
        return bits;
    }
}
