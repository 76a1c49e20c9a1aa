package io.xdlink.ccl.engine;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AdvertisementTest {
    private static final long SEED = Long.getLong("xdlink.test.seed", 0xAD5L);

    private static Advertisement sample(int n) {
        List<Advertisement.Entry> e = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            e.add(new Advertisement.Entry(0x1234_5678_9ABC_DEF0L + i, 0x7f00_0000_1000L + 4096L * i, 4096L * i,
                    4096 - i, -i));
        }
        return new Advertisement(0xFFFF_FFFEL, 31, e);
    }

    @Test
    void roundTripsEveryField() throws MalformedMessageException {
        try (Arena arena = Arena.ofConfined()) {
            for (int n = 1; n <= Advertisement.MAX_ENTRIES; n++) {
                MemorySegment buf = arena.allocate(Advertisement.MAX_BYTES);
                Advertisement ad = sample(n);
                int len = ad.encode(buf);
                assertThat(len).isEqualTo(16 + 40 * n);
                assertThat(Advertisement.decode(buf.asSlice(0, len))).isEqualTo(ad);
            }
        }
    }

    @Test
    void rejectsTruncatedAndHostileBytesNamingTheField() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(Advertisement.MAX_BYTES);
            int len = sample(2).encode(buf);
            assertThatThrownBy(() -> Advertisement.decode(buf.asSlice(0, 10))).hasMessageContaining("shorter");
            assertThatThrownBy(() -> Advertisement.decode(buf.asSlice(0, len - 1))).hasMessageContaining("must be");
            assertThatThrownBy(() -> Advertisement.decode(buf.asSlice(0, len + 40))).hasMessageContaining("must be");
            buf.set(ValueLayout.JAVA_BYTE, 9, (byte) 0);
            assertThatThrownBy(() -> Advertisement.decode(buf.asSlice(0, 16))).hasMessageContaining("count 0");
            buf.set(ValueLayout.JAVA_BYTE, 9, (byte) 9);
            assertThatThrownBy(() -> Advertisement.decode(buf)).hasMessageContaining("count 9");
            buf.set(ValueLayout.JAVA_BYTE, 9, (byte) 2);
            buf.set(ValueLayout.JAVA_BYTE, 8, (byte) 32);
            assertThatThrownBy(() -> Advertisement.decode(buf.asSlice(0, len))).hasMessageContaining("slot 32");
            buf.set(ValueLayout.JAVA_BYTE, 8, (byte) 0);
            buf.set(ValueLayout.JAVA_LONG_UNALIGNED, 16 + 24, -5L);
            assertThatThrownBy(() -> Advertisement.decode(buf.asSlice(0, len))).hasMessageContaining("size -5");
            buf.set(ValueLayout.JAVA_BYTE, 0, (byte) 0);
            assertThatThrownBy(() -> Advertisement.decode(buf.asSlice(0, len))).hasMessageContaining("magic");
        }
    }

    @Test
    void randomBytesNeverEscapeAsAnythingButMalformed() {
        SplittableRandom random = new SplittableRandom(SEED);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment good = arena.allocate(Advertisement.MAX_BYTES);
            int len = sample(3).encode(good);
            for (int round = 0; round < 5_000; round++) {
                MemorySegment buf = arena.allocate(len);
                MemorySegment.copy(good, 0, buf, 0, len);
                int flips = 1 + random.nextInt(4);
                for (int f = 0; f < flips; f++) {
                    buf.set(ValueLayout.JAVA_BYTE, random.nextInt(len), (byte) random.nextInt());
                }
                long cut = random.nextInt(len + 1);
                try {
                    Advertisement.decode(buf.asSlice(0, cut));
                } catch (MalformedMessageException expected) {
                    // fine: refused with a message
                } catch (RuntimeException e) {
                    throw new AssertionError("seed " + SEED + " round " + round + ": " + e, e);
                }
            }
        }
    }

    @Test
    void theImmediateCarriesSequenceSlotAndIndexAndLeavesItsReservedBitsClear() {
        int imm = Immediate.of(0x12345, 17, 5);
        assertThat(Immediate.sequenceBits(imm)).isEqualTo(0x2345);
        assertThat(Immediate.slot(imm)).isEqualTo(17);
        assertThat(Immediate.index(imm)).isEqualTo(5);
        assertThat(imm & Immediate.RESERVED_MASK).isZero();
        assertThat(Immediate.wellFormed(imm)).isTrue();
        assertThat(Immediate.wellFormed(imm | 0x0200)).as("a chunk count of an older peer").isFalse();
        Advertisement six = new Advertisement(0x12345, 17, Collections.nCopies(6, new Advertisement.Entry(1, 2, 0, 8, 0)));
        assertThat(six.immediate(5)).as("what a send into buffer 5 of that receive carries").isEqualTo(imm);
        assertThatThrownBy(() -> Immediate.of(0, 32, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("slot 32");
        assertThatThrownBy(() -> Immediate.of(0, 0, 8)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("index 8");
    }
}
