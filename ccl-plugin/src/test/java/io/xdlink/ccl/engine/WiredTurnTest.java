package io.xdlink.ccl.engine;

import org.junit.jupiter.api.AfterEach;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A test base for host calls over a {@link RailsWire} through an {@link io.xdlink.ccl.EngineTurn}: the arena the
 * test's buffers live in, what the test opened (closed newest first after it), and the flag that ends the turn's
 * standby ({@link RailsWire#sleepsUntil}), set before anything closes so the standby lets its turn go.
 */
abstract class WiredTurnTest {
    final Arena arena = Arena.ofShared();
    final List<AutoCloseable> open = new ArrayList<>();
    final AtomicBoolean stop = new AtomicBoolean();

    @AfterEach
    final void closeEverything() throws Exception {
        stop.set(true);
        for (AutoCloseable c : open.reversed()) {
            c.close();
        }
        arena.close();
    }
}
