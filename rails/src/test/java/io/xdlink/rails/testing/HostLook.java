package io.xdlink.rails.testing;

import io.xdlink.rails.ParkedRead;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A host's look through a {@link ParkedRead}, step for step as ccl_bridge.h's {@code xdl_parked_look} makes it in C:
 * take the block from armed to busy, give up past the deadline, one non-blocking {@code recv} into the armed place,
 * then armed again when the socket had nothing, or filled with what it brought (-1 for a failure or the stream's end).
 * The wait on the socket that a look of a thread whose looks found nothing for a while makes in C (the block's
 * {@link ParkedRead#WAIT_AFTER}) is left out: these looks stand for a host that keeps finding things.
 */
public final class HostLook {
    /** Linux's {@code MSG_DONTWAIT}. */
    private static final int MSG_DONTWAIT = 0x40;
    private static final int EAGAIN = 11;
    private static final VarHandle INT = JAVA_INT.varHandle();
    private static final VarHandle LONG = JAVA_LONG.varHandle();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final MethodHandle RECV;

    static {
        Linker linker = Linker.nativeLinker();
        RECV = linker.downcallHandle(linker.defaultLookup().find("recv").orElseThrow(),
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT),
                Linker.Option.captureCallState("errno"));
    }

    private HostLook() {
    }

    /** 0 when the socket had nothing and the look is over; -1 when Java must look (as the C look answers). */
    public static int look(ParkedRead park) {
        MemorySegment b = park.block();
        if (!INT.compareAndSet(b, ParkedRead.STATE, ParkedRead.ARMED, ParkedRead.BUSY)) {
            return -1;
        }
        if (System.nanoTime() >= (long) LONG.get(b, ParkedRead.DEADLINE)) {
            INT.setVolatile(b, ParkedRead.STATE, ParkedRead.ARMED);
            return -1;
        }
        int fd = (int) INT.get(b, ParkedRead.DESCRIPTOR);
        long address = (long) LONG.get(b, ParkedRead.ADDRESS);
        long room = (long) LONG.get(b, ParkedRead.ROOM);
        long n;
        int errno;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            n = (long) RECV.invokeExact(state, fd, MemorySegment.ofAddress(address), room, MSG_DONTWAIT);
            errno = (int) ERRNO.get(state, 0L);
        } catch (Throwable t) {
            throw new AssertionError("recv through the native linker failed", t);
        }
        if (n < 0 && errno == EAGAIN) {
            LONG.getAndAdd(b, ParkedRead.EMPTY_READS, 1L);
            INT.setVolatile(b, ParkedRead.STATE, ParkedRead.ARMED);
            return 0;
        }
        LONG.setRelease(b, ParkedRead.FILLED_BYTES, n > 0 ? n : -1L);
        LONG.getAndAdd(b, ParkedRead.FILLING_READS, 1L);
        INT.setVolatile(b, ParkedRead.STATE, ParkedRead.FILLED);
        return -1;
    }
}
