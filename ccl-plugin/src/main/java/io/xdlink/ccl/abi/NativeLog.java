package io.xdlink.ccl.abi;

import io.xdlink.ccl.CclLog;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Logs through the shim's {@code xdl_log}, which calls the host's variadic {@code ncclDebugLogger_t} from C with a
 * {@code "%s"} format, so a message can never be read as a format string.
 */
final class NativeLog implements CclLog {
    private static final FunctionDescriptor XDL_LOG = FunctionDescriptor.ofVoid(JAVA_INT, JAVA_LONG, ADDRESS,
            JAVA_INT, ADDRESS);

    private final MethodHandle logFn;
    private final CclLog fallback = CclLog.system();

    NativeLog(long address) {
        this.logFn = Linker.nativeLinker().downcallHandle(MemorySegment.ofAddress(address), XDL_LOG);
    }

    @Override
    public void log(Level level, long subsystems, String message) {
        StackWalker.StackFrame caller = StackWalker.getInstance().walk(s -> s
                .filter(f -> !f.getClassName().equals(NativeLog.class.getName())
                        && !f.getClassName().equals(CclLog.class.getName()))
                .findFirst().orElse(null));
        String file = caller == null ? "xdlink" : caller.getFileName();
        int line = caller == null ? 0 : caller.getLineNumber();
        try (Arena arena = Arena.ofConfined()) {
            logFn.invokeExact(level.code(), subsystems, arena.allocateFrom(file == null ? "xdlink" : file), line,
                    arena.allocateFrom(message));
        } catch (Throwable t) {
            fallback.log(level, subsystems, message);
        }
    }
}
