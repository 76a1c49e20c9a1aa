package io.xdlink.rails.tcp;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;

/** A channel that takes at most {@code chunk} bytes per write, gathering or not, and keeps what it took. */
final class ChunkedChannel implements GatheringByteChannel {
    private final int chunk;
    private final ByteArrayOutputStream sink = new ByteArrayOutputStream();
    private int writes;

    ChunkedChannel(int chunk) {
        this.chunk = chunk;
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) {
        writes++;
        long left = chunk;
        long taken = 0;
        for (int i = offset; i < offset + length && left > 0; i++) {
            int n = (int) Math.min(srcs[i].remaining(), left);
            byte[] b = new byte[n];
            srcs[i].get(b);
            sink.writeBytes(b);
            left -= n;
            taken += n;
        }
        return taken;
    }

    @Override
    public long write(ByteBuffer[] srcs) {
        return write(srcs, 0, srcs.length);
    }

    @Override
    public int write(ByteBuffer src) {
        return (int) write(new ByteBuffer[] {src}, 0, 1);
    }

    byte[] bytes() {
        return sink.toByteArray();
    }

    int writes() {
        return writes;
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    public void close() {
    }
}
