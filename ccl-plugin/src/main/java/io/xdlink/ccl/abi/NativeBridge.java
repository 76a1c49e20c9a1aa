package io.xdlink.ccl.abi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Where the C shim enters Java, once per process: {@link #install} makes an FFM upcall stub for every entry point
 * of {@link NativeEntryPoints}, lays them out as the shim's {@code xdl_java_api_t} and registers that table
 * through the shim's {@code xdl_register}, whose address the shim passes in (it is not an exported symbol).
 *
 * <p>Stubs and the table live in the global arena: the shim keeps calling them for the life of the process, also
 * after the host dlcloses and reopens the plugin.
 */
public final class NativeBridge {
    /** {@code XDL_API_REVISION} in ccl_bridge.h. */
    static final int API_REVISION = 7;

    private static final Object LOCK = new Object();
    private static boolean installed;

    private NativeBridge() {
    }

    /** The slots of {@code xdl_java_api_t}, in order: name, Java method type, C descriptor. */
    private record Slot(String method, FunctionDescriptor descriptor) {
    }

    private static final Slot[] SLOTS = {
        new Slot("init", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT)),
        new Slot("devices", FunctionDescriptor.of(JAVA_LONG)),
        new Slot("properties", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS)),
        new Slot("listen", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS)),
        new Slot("connect", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS)),
        new Slot("accept", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG)),
        new Slot("regMr", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_INT)),
        new Slot("deregMr", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG)),
        new Slot("isend", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG)),
        new Slot("irecv", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG,
                JAVA_LONG)),
        new Slot("iflush", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
        new Slot("test", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG)),
        new Slot("closeSend", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG)),
        new Slot("closeRecv", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG)),
        new Slot("closeListen", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG)),
        new Slot("finalizeContext", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG)),
    };

    /** Bytes of the table: an address per entry point, then the request mirror's page directory. */
    static long tableBytes() {
        return ADDRESS.byteSize() * (SLOTS.length + 1);
    }

    /** Offset in the table of the request mirror's page directory ({@code request_pages}). */
    static long requestPagesOffset() {
        return ADDRESS.byteSize() * SLOTS.length;
    }

    /** The Java methods behind the table's entry points, in slot order. */
    static List<String> slotMethods() {
        return Arrays.stream(SLOTS).map(Slot::method).toList();
    }

    /**
     * Called by the shim through JNI with the addresses of {@code xdl_register} and {@code xdl_log}; returns 0
     * when the entry points are registered. Never throws: a failure is logged and returned as -1.
     */
    public static int install(long registerFunction, long logFunction) {
        try {
            synchronized (LOCK) {
                NativeEntryPoints.useLog(new NativeLog(logFunction));
                Linker linker = Linker.nativeLinker();
                Arena global = Arena.global();
                // The entries, then the address of the request mirror's page directory (request_pages).
                MemorySegment table = global.allocate(tableBytes(), ADDRESS.byteAlignment());
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                for (int i = 0; i < SLOTS.length; i++) {
                    Slot slot = SLOTS[i];
                    MethodType type = slot.descriptor().toMethodType();
                    MethodHandle target = lookup.findStatic(NativeEntryPoints.class, slot.method(), type);
                    MemorySegment stub = linker.upcallStub(target, slot.descriptor(), global);
                    table.setAtIndex(ADDRESS, i, stub);
                }
                table.set(ADDRESS, requestPagesOffset(), MemorySegment.ofAddress(NativeEntryPoints.REQUESTS.address()));
                MethodHandle register = linker.downcallHandle(MemorySegment.ofAddress(registerFunction),
                        FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
                int rc = (int) register.invokeExact(table, table.byteSize(), API_REVISION);
                installed = rc == 0;
                return rc == 0 ? 0 : -1;
            }
        } catch (Throwable t) {
            try {
                NativeEntryPoints.log().warn("NET/xdlink : cannot install the Java entry points: " + t);
            } catch (Throwable ignored) {
                // nothing left to report through
            }
            return -1;
        }
    }

    /**
     * How many {@code test()} calls have reached Java through the shim in this process: the shim answers a request
     * that is surely not done by itself, so this grows by about one per request, not one per call. Exact once the
     * calls counted have returned; for tests and diagnostics.
     */
    public static long testUpcalls() {
        return NativeEntryPoints.testCalls();
    }

    /**
     * How many {@code isend()} calls have reached Java through the shim in this process: the shim tells a send
     * whose comm surely has no advertised receive to retry by itself. Exact once the calls counted have returned.
     */
    public static long isendUpcalls() {
        return NativeEntryPoints.isendCalls();
    }

    /** Whether a shim in this process has registered the entry points. */
    public static boolean installed() {
        synchronized (LOCK) {
            return installed;
        }
    }
}
