package io.xdlink.rails.agent;

import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Linux's timer slack for the calling thread (and every thread it starts afterwards, which inherit it). The kernel
 * lets a timed sleep of a normal thread run up to 50 us late, so that wake-ups bunch up; a thread that parks for a
 * microsecond while a frame crosses a simulated cable then sleeps fifty. Over the simulator
 * ({@code xdlink bench write_lat --loopback}) a 2-byte ping-pong took 32-35 us typical with the default slack, as each
 * side's park for its answer overslept, and 4-16 us with a slack of 1 us (three runs each, in turns).
 */
public final class TimerSlack {
    /** {@code prctl}'s option that sets the calling thread's timer slack, in nanoseconds. */
    private static final int PR_SET_TIMERSLACK = 29;
    private static final Optional<MethodHandle> PRCTL = LibC.find("prctl",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));

    private TimerSlack() {
    }

    /**
     * Sets the calling thread's timer slack to {@code nanos} (at least 1) if the platform allows it; returns whether
     * it did. Never throws.
     */
    public static boolean set(long nanos) {
        if (nanos < 1 || PRCTL.isEmpty()) {
            return false;
        }
        try {
            return (int) PRCTL.get().invokeExact(PR_SET_TIMERSLACK, nanos, 0L, 0L, 0L) == 0;
        } catch (Throwable t) {
            return false;
        }
    }
}
