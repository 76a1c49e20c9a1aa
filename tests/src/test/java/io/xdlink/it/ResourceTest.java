package io.xdlink.it;

import io.xdlink.rails.RailTransport;
import io.xdlink.rails.verbs.Device;
import io.xdlink.xdomain.ControlChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * A test base that closes everything a test opened, newest first, and then checks that it really is closed: every
 * rail and control channel reports closed, and every {@code xdlink}-named thread the test started has ended. A test
 * that leaks a socket, a loop or a thread fails here, not in some later test that trips over it. A rails device it
 * registers is also watched for internal errors ({@link NoInternalErrors}, which every subclass has).
 */
@ExtendWith(NoInternalErrors.class)
public abstract class ResourceTest {
    /** How long a condition may take before a test gives up; generous, because CI machines are shared. */
    protected static final Duration PATIENCE = Duration.ofSeconds(30);

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();
    private Set<Thread> threadsBefore;

    @BeforeEach
    final void rememberThreads() {
        threadsBefore = xdlinkThreads();
    }

    /** Registers a resource to close after the test (and a device to watch for internal errors); returns it. */
    protected final <T extends AutoCloseable> T closeLater(T resource) {
        if (resource instanceof Device device) {
            OpenedDevices.watch(device);
        }
        resources.push(resource);
        return resource;
    }

    @AfterEach
    final void closeEverything() {
        List<Throwable> errors = new ArrayList<>();
        List<AutoCloseable> closed = new ArrayList<>();
        while (!resources.isEmpty()) {
            AutoCloseable r = resources.pop();
            try {
                r.close();
                closed.add(r);
            } catch (Exception | AssertionError e) {
                errors.add(new AssertionError("closing " + r + " failed", e));
            }
        }
        for (AutoCloseable r : closed) {
            boolean open = switch (r) {
                case RailTransport rail -> rail.isOpen();
                case ControlChannel channel -> channel.isOpen();
                default -> false;
            };
            if (open) {
                errors.add(new AssertionError(r + " still reports open after close()"));
            }
        }
        try {
            awaitCondition("threads the test started to end", () -> leakedThreads().isEmpty(), () -> { });
        } catch (AssertionError e) {
            errors.add(new AssertionError("threads still running after every resource closed: " + leakedThreads()));
        }
        if (!errors.isEmpty()) {
            AssertionError all = new AssertionError(errors.size() + " resource problem(s) after the test");
            errors.forEach(all::addSuppressed);
            throw all;
        }
    }

    private Set<Thread> leakedThreads() {
        Set<Thread> now = xdlinkThreads();
        now.removeAll(threadsBefore);
        return now;
    }

    private static Set<Thread> xdlinkThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("xdlink"))
                .collect(Collectors.toSet());
    }

    /**
     * Waits until {@code condition} holds, calling {@code progress} between looks (a virtual clock moves on there);
     * fails naming {@code what} after {@link #PATIENCE}. Never a fixed sleep: the wait ends the moment it can.
     */
    protected static void awaitCondition(String what, BooleanSupplier condition, Runnable progress) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        int idle = 0;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("still waiting after " + PATIENCE.toSeconds() + " s for " + what);
            }
            progress.run();
            if (++idle > 100) {
                LockSupport.parkNanos(100_000);
            }
        }
    }
}
