package io.xdlink.ccl.abi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Counts calls made from many threads without making them share a written cache line: each thread adds to a cell
 * of its own (chosen by its id), 128 bytes from the next, so two host threads calling on two cores never move a
 * line between them to count. A shared counter, plain or atomic, did on every upcall; {@code LongAdder} only
 * spreads out after threads collide, and host threads that take turns rarely collide.
 */
final class CallCounter {
    private static final int CELLS = 64;
    /** Longs per cell: 128 bytes, so that neighbouring cells never share a line, nor an adjacent-line prefetch. */
    private static final int STRIDE = 16;
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);

    /** A cell's worth of room before the first and after the last: the array's header is read by every call. */
    private final long[] cells = new long[(CELLS + 2) * STRIDE];

    /** Adds one for the calling thread. */
    void increment() {
        CELL.getAndAdd(cells, (((int) Thread.currentThread().threadId() & (CELLS - 1)) + 1) * STRIDE, 1L);
    }

    /** Every count so far: exact once the calls counted have returned. */
    long sum() {
        long sum = 0;
        for (int i = 1; i <= CELLS; i++) {
            sum += (long) CELL.getVolatile(cells, i * STRIDE);
        }
        return sum;
    }
}
