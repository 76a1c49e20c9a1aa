package io.xdlink.it;

import org.junit.jupiter.api.BeforeEach;

import java.util.Random;
import java.util.function.BooleanSupplier;

/**
 * The base of the SPI conformance suites: each test's randomness comes from one seed, named in every failure message
 * and replayed with {@code -Dxdlink.test.seed=N}, and every wait moves the implementation on ({@link #progress}) while
 * it waits.
 */
public abstract class SeededConformance extends ResourceTest {
    protected long seed;
    protected Random random;

    @BeforeEach
    final void seed() {
        seed = Long.getLong("xdlink.test.seed", System.nanoTime());
        random = new Random(seed);
    }

    /** Moves the implementation on while a test waits (a virtual clock advances here); nothing by default. */
    protected void progress() {
    }

    protected final String seedNote() {
        return "seed " + seed + " (replay with -Dxdlink.test.seed=" + seed + ")";
    }

    /** Waits, moving on, until {@code condition} holds; fails naming {@code what} and the seed. */
    protected final void await(String what, BooleanSupplier condition) {
        awaitCondition(what + " [" + seedNote() + "]", condition, this::progress);
    }
}
