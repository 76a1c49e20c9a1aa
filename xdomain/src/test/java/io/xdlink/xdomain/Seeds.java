package io.xdlink.xdomain;

import java.security.SecureRandom;
import java.util.SplittableRandom;

/**
 * Seeds for randomised tests: fresh each run unless {@code -Dxdlink.seed=N} fixes one, and always printed in the
 * failure message so a failure reproduces with that flag.
 */
public final class Seeds {
    private Seeds() {
    }

    /** The seed for this run. */
    public static long seed() {
        String fixed = System.getProperty("xdlink.seed");
        return fixed != null ? Long.decode(fixed) : new SecureRandom().nextLong();
    }

    public static SplittableRandom random(long seed) {
        return new SplittableRandom(seed);
    }

    /** Wraps a failure so it says how to reproduce it. */
    public static AssertionError failure(long seed, long testCase, Throwable cause) {
        return new AssertionError("failed with -Dxdlink.seed=" + seed + " at case " + testCase + ": " + cause,
                cause);
    }
}
