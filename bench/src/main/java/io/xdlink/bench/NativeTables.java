package io.xdlink.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The plugin library's {@code ncclNetPlugin_v12} table, called from Java through downcalls, as a host would call it
 * from C. Loading the library into a running JVM makes its shim use that JVM, so the calls come back to Java
 * through the same upcalls a collective library's calls take.
 *
 * <p>The handles are static finals, so the JIT binds each call site to its table slot as a C host's direct call
 * is bound; held in instance fields, every call would also pay for looking the handle up and checking it.
 */
final class NativeTables {
    static final MethodHandle init;
    static final MethodHandle devices;
    static final MethodHandle listen;
    static final MethodHandle connect;
    static final MethodHandle accept;
    static final MethodHandle regMr;
    static final MethodHandle deregMr;
    static final MethodHandle isend;
    static final MethodHandle irecv;
    static final MethodHandle test;
    static final MethodHandle closeSend;
    static final MethodHandle closeRecv;
    static final MethodHandle closeListen;
    static final MethodHandle finalizeContext;
    /** The table's isend, irecv and test as function pointers, for a C host's loop ({@link CHostPingPong}). */
    static final MemorySegment ISEND_FN;
    static final MemorySegment IRECV_FN;
    static final MemorySegment TEST_FN;

    static {
        SymbolLookup lib = SymbolLookup.libraryLookup(NativeTablesSide.SO.toAbsolutePath(), Arena.global());
        MemorySegment table = lib.find("ncclNetPlugin_v12").orElseThrow().reinterpret(22 * ADDRESS.byteSize());
        init = slot(table, 1, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS));
        devices = slot(table, 2, FunctionDescriptor.of(JAVA_INT, ADDRESS));
        listen = slot(table, 4, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS));
        connect = slot(table, 5, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        accept = slot(table, 6, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        regMr = slot(table, 7, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS));
        deregMr = slot(table, 9, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        isend = slot(table, 10, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS,
                ADDRESS, ADDRESS));
        irecv = slot(table, 11, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS,
                ADDRESS, ADDRESS, ADDRESS));
        test = slot(table, 13, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        closeSend = slot(table, 14, FunctionDescriptor.of(JAVA_INT, ADDRESS));
        closeRecv = slot(table, 15, FunctionDescriptor.of(JAVA_INT, ADDRESS));
        closeListen = slot(table, 16, FunctionDescriptor.of(JAVA_INT, ADDRESS));
        finalizeContext = slot(table, 20, FunctionDescriptor.of(JAVA_INT, ADDRESS));
        ISEND_FN = table.getAtIndex(ADDRESS, 10);
        IRECV_FN = table.getAtIndex(ADDRESS, 11);
        TEST_FN = table.getAtIndex(ADDRESS, 13);
    }

    private NativeTables() {
    }

    private static MethodHandle slot(MemorySegment table, int index, FunctionDescriptor fd) {
        MemorySegment fn = table.getAtIndex(ADDRESS, index);
        if (fn.address() == 0) {
            throw new IllegalStateException("ncclNetPlugin_v12 slot " + index + " is NULL");
        }
        // Not a critical downcall: the plugin calls back into Java through upcalls.
        return Linker.nativeLinker().downcallHandle(fn, fd);
    }

    static void ok(int rc, String what) {
        if (rc != 0) {
            throw new IllegalStateException(what + " returned ncclResult " + rc);
        }
    }
}
