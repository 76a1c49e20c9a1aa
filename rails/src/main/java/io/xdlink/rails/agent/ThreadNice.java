package io.xdlink.rails.agent;

import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * Linux's nice value of the calling thread alone. On Linux the nice value is a thread's own: {@code setpriority}
 * with {@code PRIO_PROCESS} and 0 changes only the thread that calls it, whatever POSIX says of processes. A thread
 * that only stands by (it runs the engine while its host's own threads are away) may give way to the threads doing
 * the work: at nice 19 its wake-ups no longer take a processor from a thread in the middle of its turn.
 */
public final class ThreadNice {
    /** {@code setpriority}'s and {@code getpriority}'s {@code which} for one process, or on Linux one thread. */
    private static final int PRIO_PROCESS = 0;
    /** The lowest priority a nice value gives. */
    public static final int LOWEST = 19;

    private static final Optional<MethodHandle> SET = LibC.find("setpriority",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));

    private ThreadNice() {
    }

    /** Made on the first {@link #current} only: the threads that set a value never read it back. */
    private static final class Get {
        static final Optional<MethodHandle> HANDLE = LibC.find("getpriority",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    }

    /**
     * Sets the calling thread's nice value to {@code nice} (0 to {@link #LOWEST}: a thread may always lower its own
     * priority) where the platform allows it; returns whether it did. Never throws.
     */
    public static boolean set(int nice) {
        if (nice < 0 || nice > LOWEST || SET.isEmpty()) {
            return false;
        }
        try {
            return (int) SET.get().invokeExact(PRIO_PROCESS, 0, nice) == 0;
        } catch (Throwable t) {
            return false;
        }
    }

    /** The calling thread's nice value, or empty where the platform cannot say. Never throws. */
    public static Optional<Integer> current() {
        Optional<MethodHandle> get = Get.HANDLE;
        if (get.isEmpty()) {
            return Optional.empty();
        }
        try {
            // getpriority answers -1 for an error as well as for nice -1; set never gives a thread a negative value.
            return Optional.of((int) get.get().invokeExact(PRIO_PROCESS, 0));
        } catch (Throwable t) {
            return Optional.empty();
        }
    }
}
