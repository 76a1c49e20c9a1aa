package io.xdlink.rails.engine;

/**
 * A contiguous run of one message's frames assigned to one rail: frames {@code first} to {@code first + count - 1}
 * of the request, sent in order, {@code sent} of them so far.
 */
final class Block {
    final SendRequest request;
    final int first;
    final int count;
    int sent;

    Block(SendRequest request, int first, int count) {
        this.request = request;
        this.first = first;
        this.count = count;
    }

    int remaining() {
        return count - sent;
    }

    /** Bytes still to send, for load accounting. */
    long remainingBytes() {
        long bytes = 0;
        if (count - sent > 0) {
            long start = (long) (first + sent) * request.payload;
            long end = Math.min(request.length, (long) (first + count) * request.payload);
            bytes = Math.max(0, end - start);
        }
        return bytes;
    }
}
