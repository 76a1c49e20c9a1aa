package io.xdlink.ccl;

/** How the tests wait on a network whose rails devices run on progress threads of their own. */
final class NetCalls {
    /** Long enough for any test here on a loaded machine; a bound against hanging, not a speed requirement. */
    static final long TIMEOUT_NANOS = 60_000_000_000L;

    private NetCalls() {
    }

    /** Tests {@code r} until it is done; false if it is not within {@link #TIMEOUT_NANOS}. */
    static boolean await(CclNet net, Request r, long[] sizes) throws CclException {
        long end = System.nanoTime() + TIMEOUT_NANOS;
        while (System.nanoTime() < end) {
            if (net.test(r, sizes)) {
                return true;
            }
            // Yield, not spin: a 2-core machine runs the rails progress engines on the same cores.
            Thread.yield();
        }
        return false;
    }
}
