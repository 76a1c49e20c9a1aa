package io.xdlink.rails.frame;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;

class Crc32cSegmentTest {
    private static final long SEED = Long.getLong("xdlink.test.seed", 0x5EED_C3C3L);

    private static int reference(byte[] bytes, int offset, int length) {
        CRC32C c = new CRC32C();
        c.update(bytes, offset, length);
        return (int) c.getValue();
    }

    @Test
    void everyKindOfMemoryAndEveryLengthGivesTheCrcOfItsBytes() {
        SplittableRandom random = new SplittableRandom(SEED);
        byte[] bytes = new byte[2 * FrameLayout.MAX_FRAME_BYTES];
        random.nextBytes(bytes);
        Crc32cSegment crc = new Crc32cSegment();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativeCopy = arena.allocate(bytes.length);
            MemorySegment.copy(bytes, 0, nativeCopy, ValueLayout.JAVA_BYTE, 0, bytes.length);
            long[] words = new long[bytes.length / 8];
            MemorySegment longs = MemorySegment.ofArray(words);
            MemorySegment.copy(bytes, 0, longs, ValueLayout.JAVA_BYTE, 0, bytes.length);
            MemorySegment[] kinds = {MemorySegment.ofArray(bytes), nativeCopy, longs};
            // Around the short-range cut-over, and whole frames.
            int[] lengths = {0, 1, 7, 52, 64, Crc32cSegment.SMALL - 1, Crc32cSegment.SMALL, Crc32cSegment.SMALL + 1,
                    1000, FrameLayout.MAX_FRAME_BYTES};
            for (MemorySegment kind : kinds) {
                for (int length : lengths) {
                    int offset = random.nextInt(bytes.length - length + 1);
                    assertThat(crc.compute(kind, offset, length))
                            .as("seed %d, %s, %d bytes at %d", SEED, kind, length, offset)
                            .isEqualTo(reference(bytes, offset, length));
                }
            }
        }
    }

    @Test
    void twoRangesApartGiveTheCrcOfOneAfterTheOther() {
        SplittableRandom random = new SplittableRandom(SEED + 1);
        byte[] head = new byte[52];
        byte[] payload = new byte[4040];
        random.nextBytes(head);
        random.nextBytes(payload);
        byte[] joined = new byte[head.length + payload.length];
        System.arraycopy(head, 0, joined, 0, head.length);
        System.arraycopy(payload, 0, joined, head.length, payload.length);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativeHead = arena.allocate(head.length);
            MemorySegment.copy(head, 0, nativeHead, ValueLayout.JAVA_BYTE, 0, head.length);
            int value = new Crc32cSegment().compute(nativeHead, 0, head.length, MemorySegment.ofArray(payload), 0,
                    payload.length);
            assertThat(value).as("seed %d", SEED).isEqualTo(reference(joined, 0, joined.length));
        }
    }

    @Test
    void aRangeOutsideItsSegmentIsRefusedWithoutReadingIt() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment small = arena.allocate(32);
            Crc32cSegment crc = new Crc32cSegment();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> crc.compute(small, 16, 52))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            org.assertj.core.api.Assertions.assertThatThrownBy(
                    () -> crc.compute(MemorySegment.ofArray(new byte[32]), 16, 52))
                    .isInstanceOf(IndexOutOfBoundsException.class);
        }
    }
}
