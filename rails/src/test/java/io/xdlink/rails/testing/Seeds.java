package io.xdlink.rails.testing;

/**
 * Seeds for randomized tests: {@code -Dxdlink.seed=N} replays a run; otherwise each run draws a fresh seed. Every
 * test prints its seed and puts it in its failure messages.
 */
public final class Seeds {
    private Seeds() {
    }

    /** The seed for {@code test}: the {@code xdlink.seed} property if set, else a new one; printed either way. */
    public static long seed(String test) {
        String fixed = System.getProperty("xdlink.seed");
        long seed = fixed != null ? Long.decode(fixed) : System.nanoTime() ^ Double.doubleToLongBits(Math.random());
        System.out.println(test + ": seed " + seed + " (replay with -Dxdlink.seed=" + seed + ")");
        return seed;
    }
}
