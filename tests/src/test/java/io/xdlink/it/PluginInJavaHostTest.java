package io.xdlink.it;

import io.xdlink.ccl.abi.NativeBridge;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Java host (this test's JVM) loads the plugin library and calls its v12 table: the shim must find the JVM that
 * is already running, install its entry points into it, and answer through them; a call that reaches a Java entry
 * point with a handle Java never made gets an error code, never an exception or a crash.
 */
class PluginInJavaHostTest {

    @Test
    void theShimUsesTheRunningJvmAndRefusesForeignHandles() throws Throwable {
        SymbolLookup lib = SymbolLookup.libraryLookup(NativeHarness.SO, Arena.global());
        MemorySegment table = lib.find("ncclNetPlugin_v12").orElseThrow().reinterpret(176);
        assertThat(table.get(ADDRESS, 0).reinterpret(7).getString(0)).isEqualTo("xdlink");
        Linker linker = Linker.nativeLinker();
        MethodHandle init = linker.downcallHandle(table.getAtIndex(ADDRESS, 1),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS));
        MethodHandle test = linker.downcallHandle(table.getAtIndex(ADDRESS, 13),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        MethodHandle closeSend = linker.downcallHandle(table.getAtIndex(ADDRESS, 14),
                FunctionDescriptor.of(JAVA_INT, ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ctx = arena.allocate(ADDRESS);
            // This JVM has no XDLINK_PARAMS of its own; whatever init answers, Java must be installed by now.
            int rc = (int) init.invokeExact(ctx, 1L, MemorySegment.NULL, MemorySegment.NULL, MemorySegment.NULL);
            assertThat(NativeBridge.installed()).as("init rc %d", rc).isTrue();
            MemorySegment done = arena.allocate(JAVA_INT);
            assertThat((int) test.invokeExact(MemorySegment.ofAddress(0x1), done, MemorySegment.NULL))
                    .as("(void*)0x1 is no request").isEqualTo(3);
            assertThat((int) test.invokeExact(MemorySegment.ofAddress(0xdead_beef_0000L), done, MemorySegment.NULL))
                    .isEqualTo(3);
            assertThat(done.get(JAVA_INT, 0)).isZero();
            assertThat((int) closeSend.invokeExact(MemorySegment.NULL)).isEqualTo(3);
        }
    }
}
