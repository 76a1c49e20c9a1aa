package io.xdlink.rails.agent;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/** Functions of the C library a thread calls on itself ({@link TimerSlack}, {@link ThreadNice}). */
final class LibC {
    private LibC() {
    }

    /**
     * A downcall to the C library's {@code name} with {@code descriptor}; empty where there is no such function (not
     * Linux) or no native access, so a caller keeps what the thread started with.
     */
    static Optional<MethodHandle> find(String name, FunctionDescriptor descriptor) {
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find(name).map(a -> linker.downcallHandle(a, descriptor));
        } catch (RuntimeException | LinkageError e) {
            return Optional.empty();
        }
    }
}
