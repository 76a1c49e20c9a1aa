package io.xdlink.rails.frame;

import io.xdlink.rails.testing.Seeds;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class FrameEncoderTest {

    @Test
    void dataAndTargetWriteTheSameBytesAsDataThenTarget() {
        long seed = Seeds.seed("FrameEncoderTest.dataAndTarget");
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < 1000; i++) {
            int qpn = r.nextInt();
            int msn = r.nextInt();
            int psn = r.nextInt();
            long offset = r.nextLong() & 0xFFFF_FFFFL;
            long total = r.nextLong() & 0xFFFF_FFFFL;
            int rkey = r.nextInt();
            long raddr = r.nextLong();
            long at = r.nextInt(16);
            MemorySegment one = MemorySegment.ofArray(new byte[80]);
            MemorySegment two = MemorySegment.ofArray(new byte[80]);
            FrameEncoder.data(one, at, qpn, msn, psn, offset, total);
            FrameEncoder.target(one, at, rkey, raddr);
            FrameEncoder.dataAndTarget(two, at, qpn, msn, psn, offset, total, rkey, raddr);
            assertThat(two.mismatch(one)).as("seed %d case %d", seed, i).isEqualTo(-1);
        }
    }

    @Test
    void sealingWithKnownFlagsGivesTheTrailerSealingReadsThemFor() {
        byte[] payload = new byte[300];
        new SplittableRandom(7).nextBytes(payload);
        for (int flags : new int[] {0, FrameFlags.PAYLOAD_UNCHECKED}) {
            MemorySegment a = MemorySegment.ofArray(new byte[64]);
            MemorySegment b = MemorySegment.ofArray(new byte[64]);
            for (MemorySegment s : new MemorySegment[] {a, b}) {
                FrameEncoder.common(s, 0, Opcode.WRITE, flags, 1, 2, 3, 4, payload.length);
                FrameEncoder.dataAndTarget(s, 0, 5, 6, 7, 0, payload.length, 8, 9);
            }
            new FrameEncoder().sealHead(a, 0, Opcode.WRITE, MemorySegment.ofArray(payload), 0, payload.length);
            new FrameEncoder().sealHead(b, 0, Opcode.WRITE, flags, MemorySegment.ofArray(payload), 0,
                    payload.length);
            assertThat(b.mismatch(a)).as("flags %d", flags).isEqualTo(-1);
        }
    }
}
