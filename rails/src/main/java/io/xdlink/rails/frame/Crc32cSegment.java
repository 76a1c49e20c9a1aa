package io.xdlink.rails.frame;

import java.lang.foreign.MemorySegment;
import java.util.zip.CRC32C;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * CRC-32C over a range of a {@link MemorySegment}, through the JDK's intrinsic: a byte array's bytes as they are, a
 * short range of other memory (a header) copied into an array first, a long one through a byte-buffer view. One
 * instance per thread.
 */
final class Crc32cSegment {
    private final CRC32C crc = new CRC32C();

    /** Ranges up to this long (any frame header) go through a copy into {@link #chunk} rather than a view. */
    static final int SMALL = 256;

    private byte[] chunk;
    /**
     * The last segment seen and the byte array under it (null for any other kind): a sender seals every frame in
     * the same few ring areas, so the array is looked up once rather than per frame.
     */
    private MemorySegment lastSegment;
    private byte[] lastArray;

    private byte[] arrayOf(MemorySegment segment) {
        byte[] array = !segment.isNative() && segment.heapBase().orElse(null) instanceof byte[] a ? a : null;
        lastSegment = segment;
        lastArray = array;
        return array;
    }

    /** CRC-32C of two ranges, one after the other (a header and a payload that lie apart). */
    int compute(MemorySegment first, long firstOffset, long firstLength, MemorySegment second, long secondOffset,
                long secondLength) {
        crc.reset();
        update(first, firstOffset, firstLength);
        update(second, secondOffset, secondLength);
        return (int) crc.getValue();
    }

    private void update(MemorySegment segment, long offset, long length) {
        byte[] array = segment == lastSegment ? lastArray : arrayOf(segment);
        if (array != null) {
            // A byte array's bytes go to the intrinsic as they are: no view to make. The bounds are checked here,
            // as a slice would have checked them.
            Objects.checkFromIndexSize(offset, length, segment.byteSize());
            crc.update(array, (int) (segment.address() + offset), (int) length);
            return;
        }
        if (length <= SMALL) {
            // A header: copied into an array, its CRC costs less than the byte-buffer view a native segment would
            // need, which the compiler does not remove and which cost more than everything else a received frame
            // costs the engine.
            if (chunk == null) {
                chunk = new byte[FrameLayout.MAX_FRAME_BYTES];
            }
            MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, offset, chunk, 0, (int) length);
            crc.update(chunk, 0, (int) length);
            return;
        }
        try {
            crc.update(segment.asSlice(offset, length).asByteBuffer());
        } catch (UnsupportedOperationException notBytes) {
            if (chunk == null) {
                chunk = new byte[FrameLayout.MAX_FRAME_BYTES];
            }
            for (long done = 0; done < length; ) {
                int n = (int) Math.min(chunk.length, length - done);
                MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, offset + done, chunk, 0, n);
                crc.update(chunk, 0, n);
                done += n;
            }
        }
    }

    int compute(MemorySegment segment, long offset, long length) {
        crc.reset();
        // A heap segment over some other primitive array has no byte-buffer view: update goes through bytes then.
        update(segment, offset, length);
        return (int) crc.getValue();
    }
}
