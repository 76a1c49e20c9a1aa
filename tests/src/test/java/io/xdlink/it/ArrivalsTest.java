package io.xdlink.it;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The judge of the conformance suite's delivery tests, fed arrivals made by hand: each thing a lossy transport may
 * not do is caught, and what its fault model allows passes. The suite's lossy cases are only as sharp as this.
 */
class ArrivalsTest {
    private static final Arrivals.Allowed SIM = new Arrivals.Allowed(1, 2, 1);

    private final List<byte[]> sent = new ArrayList<>();

    ArrivalsTest() {
        Random random = new Random(42);
        for (int i = 0; i < 20; i++) {
            byte[] f = new byte[Arrivals.IDENTIFIABLE_BYTES + random.nextInt(100)];
            random.nextBytes(f);
            sent.add(f);
        }
    }

    /** The sent frames at these positions, in this order. */
    private List<byte[]> arrivals(int... seqs) {
        List<byte[]> a = new ArrayList<>();
        for (int s : seqs) {
            a.add(sent.get(s).clone());
        }
        return a;
    }

    private static List<byte[]> flip(List<byte[]> frames, int which, int... bits) {
        for (int bit : bits) {
            frames.get(which)[bit >>> 3] ^= (byte) (1 << (bit & 7));
        }
        return frames;
    }

    private Arrivals.Tally lossy(List<byte[]> got, Arrivals.Allowed allowed) {
        return Arrivals.check(sent, got, true, false, allowed, "seed none");
    }

    private static int[] upTo(int n, int... except) {
        List<Integer> l = new ArrayList<>();
        outer:
        for (int i = 0; i < n; i++) {
            for (int e : except) {
                if (e == i) {
                    continue outer;
                }
            }
            l.add(i);
        }
        return l.stream().mapToInt(Integer::intValue).toArray();
    }

    @Test
    void fromAReliableTransportEveryFrameArrivesOnceInOrder() {
        Arrivals.check(sent, arrivals(upTo(20)), false, true, Arrivals.Allowed.LOSS_ONLY, "");
        assertThatThrownBy(() -> Arrivals.check(sent, arrivals(upTo(20, 7)), false, true, Arrivals.Allowed.LOSS_ONLY,
                "")).isInstanceOf(AssertionError.class);
        int[] swapped = upTo(20);
        swapped[3] = 4;
        swapped[4] = 3;
        assertThatThrownBy(() -> Arrivals.check(sent, arrivals(swapped), false, true, Arrivals.Allowed.LOSS_ONLY, ""))
                .isInstanceOf(AssertionError.class).hasMessageContaining("frame 3");
    }

    @Test
    void anInOrderIntactSubsetPassesWhereOnlyLossIsAllowed() {
        assertThat(lossy(arrivals(upTo(20, 0, 5, 6, 19)), Arrivals.Allowed.LOSS_ONLY))
                .isEqualTo(new Arrivals.Tally(16, 16, 0));
    }

    @Test
    void aFrameOvertakenByMoreLaterFramesThanAllowedFails() {
        int[] order = {0, 2, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11};
        assertThatThrownBy(() -> lossy(arrivals(order), Arrivals.Allowed.LOSS_ONLY))
                .isInstanceOf(AssertionError.class).hasMessageContaining("frame 1, after 1 frames sent later");
        lossy(arrivals(order), SIM);
        // Frame 1 behind 2 and 4 (3 lost): two frames overtook it, where one may.
        int[] twoAhead = {0, 2, 4, 1, 5, 6, 7, 8, 9, 10, 11, 12};
        assertThatThrownBy(() -> lossy(arrivals(twoAhead), SIM))
                .isInstanceOf(AssertionError.class).hasMessageContaining("after 2 frames");
        lossy(arrivals(twoAhead), new Arrivals.Allowed(2, 1, 0));
    }

    @Test
    void moreCopiesThanAllowedFail() {
        int[] twice = {0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThatThrownBy(() -> lossy(arrivals(twice), Arrivals.Allowed.LOSS_ONLY))
                .isInstanceOf(AssertionError.class).hasMessageContaining("frame 1 for the 2. time");
        assertThat(lossy(arrivals(twice), SIM)).isEqualTo(new Arrivals.Tally(12, 11, 0));
        int[] thrice = {0, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThatThrownBy(() -> lossy(arrivals(thrice), SIM))
                .isInstanceOf(AssertionError.class).hasMessageContaining("for the 3. time");
        // A stale entry handed over again long after its time is caught as well, as a copy that overtook nothing
        // but arrived behind many later frames.
        int[] stale = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1};
        assertThatThrownBy(() -> lossy(arrivals(stale), SIM)).isInstanceOf(AssertionError.class);
    }

    @Test
    void damageBeyondWhatIsAllowedFails() {
        List<byte[]> oneBit = flip(arrivals(upTo(12)), 4, 9);
        assertThat(lossy(oneBit, SIM)).isEqualTo(new Arrivals.Tally(11, 11, 1));
        assertThatThrownBy(() -> lossy(flip(arrivals(upTo(12)), 4, 9), Arrivals.Allowed.LOSS_ONLY))
                .isInstanceOf(AssertionError.class).hasMessageContaining("damages none");
        assertThatThrownBy(() -> Arrivals.check(sent, flip(arrivals(upTo(12)), 4, 9), true, true, SIM, ""))
                .isInstanceOf(AssertionError.class).hasMessageContaining("says it delivers frames intact");
        assertThatThrownBy(() -> lossy(flip(arrivals(upTo(12)), 4, 9, 70), SIM))
                .isInstanceOf(AssertionError.class).hasMessageContaining("at most 1 bits flipped");
    }

    @Test
    void aTruncatedOrForeignFrameFails() {
        List<byte[]> cut = arrivals(upTo(12));
        cut.set(3, java.util.Arrays.copyOf(cut.get(3), cut.get(3).length - 1));
        assertThatThrownBy(() -> lossy(cut, SIM)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("arrival 3");
        List<byte[]> zeros = arrivals(upTo(12));
        zeros.set(5, new byte[zeros.get(5).length]);
        assertThatThrownBy(() -> lossy(zeros, SIM)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("arrival 5");
    }

    @Test
    void aTransportThatLosesMostFramesFails() {
        lossy(arrivals(upTo(10)), Arrivals.Allowed.LOSS_ONLY);
        assertThatThrownBy(() -> lossy(arrivals(upTo(9)), Arrivals.Allowed.LOSS_ONLY))
                .isInstanceOf(AssertionError.class).hasMessageContaining("most must");
        assertThatThrownBy(() -> lossy(List.of(), SIM)).isInstanceOf(AssertionError.class);
    }

    @Test
    void framesTooShortToTellApartAreRefused() {
        assertThatThrownBy(() -> Arrivals.check(List.of(new byte[1]), List.of(), true, false, SIM, ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot be told apart");
    }
}
