package io.xdlink.sim;

import java.io.IOException;
import java.util.BitSet;

/**
 * The HopIDs of one USB4 port. HopIDs 0-7 are reserved; a rail takes one input and one output HopID from
 * [8, maxhopid], so a port with the default maxhopid 15 carries at most eight rails, as on a real host.
 */
final class HopIds {
    static final int FIRST = 8;
    static final int DEFAULT_MAX = 15;

    private final String port;
    private final int max;
    private final BitSet in = new BitSet();
    private final BitSet out = new BitSet();

    HopIds(String port, int max) {
        if (max < FIRST) {
            throw new IllegalArgumentException("maxhopid " + max + " leaves no HopID for rails (8 is the first)");
        }
        this.port = port;
        this.max = max;
    }

    /** A pair (input, output) of free HopIDs. */
    synchronized int[] allocate() throws IOException {
        int i = in.nextClearBit(FIRST);
        int o = out.nextClearBit(FIRST);
        if (i > max || o > max) {
            throw new IOException(port + ": no free HopID for another rail (HopIDs " + FIRST + ".." + max
                    + " are all in use)");
        }
        in.set(i);
        out.set(o);
        return new int[] {i, o};
    }

    synchronized void release(int[] pair) {
        in.clear(pair[0]);
        out.clear(pair[1]);
    }

    int max() {
        return max;
    }

    synchronized int inUse() {
        return in.cardinality();
    }
}
