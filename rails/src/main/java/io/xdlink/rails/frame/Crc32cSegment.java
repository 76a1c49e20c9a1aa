package io.xdlink.rails.frame;

import java.lang.foreign.MemorySegment;
import java.util.zip.CRC32C;

/**
 * CRC-32C over a range of a {@link MemorySegment}, through the JDK's intrinsic. The byte-buffer view it makes is
 * short-lived and, once compiled, not allocated at all; one instance per thread.
 */
final class Crc32cSegment {
    private final CRC32C crc = new CRC32C();

    private byte[] chunk;

    int compute(MemorySegment segment, long offset, long length) {
        crc.reset();
        try {
            crc.update(segment.asSlice(offset, length).asByteBuffer());
        } catch (UnsupportedOperationException notBytes) {
            // A heap segment over some other primitive array has no byte-buffer view: go through a byte array.
            if (chunk == null) {
                chunk = new byte[FrameLayout.MAX_FRAME_BYTES];
            }
            for (long done = 0; done < length; ) {
                int n = (int) Math.min(chunk.length, length - done);
                MemorySegment.copy(segment, java.lang.foreign.ValueLayout.JAVA_BYTE, offset + done, chunk, 0, n);
                crc.update(chunk, 0, n);
                done += n;
            }
        }
        return (int) crc.getValue();
    }
}
