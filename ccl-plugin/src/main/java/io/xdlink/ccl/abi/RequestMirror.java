package io.xdlink.ccl.abi;

import io.xdlink.ccl.engine.Attention;
import io.xdlink.ccl.engine.EngineRequest;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The state of every request and send comm handed to native code, mirrored in native memory so the shim's
 * {@code test()} can answer "not done", and "done" with the sizes, and its {@code isend()} "retry", without an
 * upcall (ccl_bridge.h, {@code xdl_request_status_t}). Entries are indexed like {@link HandleTable} ids: a
 * directory of page addresses, pages of {@link #ENTRY_BYTES}-byte entries allocated on first use in the global arena
 * and never freed, so no id a host passes, stale or made up, makes the shim read unmapped memory.
 *
 * <p>An entry holds {@code generation << 32 | state}, the address of the request's end's {@link
 * Attention} words, and, once the request is {@link #DONE}, how many sizes it reports and the
 * sizes. The shim answers by itself only when the first word is exactly the id's generation with {@link #PENDING}
 * and the end is quiet, or with {@link #DONE}, which it turns into {@link #REPORTED} (once: a compare-and-set) before
 * it hands the sizes over; anything else (failed, reported, released, an id of another generation) goes to Java,
 * which has the last word. A reported request is forgotten in Java by the next call on its comm ({@link
 * Outstanding}). A send comm's entry holds {@link #SEND_COMM} and its end's attention the same way.
 */
final class RequestMirror {
    /** Entry state: in flight when last looked at. */
    static final long PENDING = 1;
    /** Entry state: failed; the next test goes to Java to report the error and release the request. */
    static final long FINISHED = 2;
    /** Entry state of a send comm's handle (XDL_SEND_COMM): its second word is the comm's attention. */
    static final long SEND_COMM = 3;
    /** Entry state: done, sizes in place; the shim may report it without Java. */
    static final long DONE = 4;
    /** Entry state: the shim reported it done; Java releases it at the next call on its comm. */
    static final long REPORTED = 5;
    static final int PAGE_BITS = 12;
    static final int PAGE_ENTRIES = 1 << PAGE_BITS;
    static final int PAGES = HandleTable.CAPACITY / PAGE_ENTRIES;
    /** state, attention, count (int), sizes (8 ints), padding: one cache line. */
    static final long ENTRY_BYTES = 64;
    /** Offset in an entry of the address of the request's end's attention words; the state is the first word. */
    static final long ATTENTION = 8;
    static final long COUNT = 16;
    static final long SIZES = 20;
    static final int MAX_SIZES = 8;
    private static final long GENERATION = 0xFFFF_FFFF_0000_0000L;
    private static final VarHandle WORD = JAVA_LONG.varHandle();
    private static final VarHandle PAGE = ADDRESS.varHandle();
    private static final VarHandle SEGMENT = MethodHandles.arrayElementVarHandle(MemorySegment[].class);

    private final MemorySegment directory = Arena.global().allocate(ADDRESS.byteSize() * PAGES, 64);
    /**
     * The pages, written under the lock (with a release write) and read without it: a page once there stays for
     * good. A plain array, for the reason {@link HandleTable}'s pages are one.
     */
    private final MemorySegment[] pages = new MemorySegment[PAGES];

    /** The directory's address: {@code PAGES} page addresses, 0 for a page not yet used. */
    long address() {
        return directory.address();
    }

    /**
     * Mirrors a request that just got handle {@code id}, before the id reaches native code; from now on the
     * request's finishing flips the entry to {@link #DONE} with its sizes, or to {@link #FINISHED} if it failed.
     */
    void publish(long id, EngineRequest request) {
        if (request.sizeCount() > MAX_SIZES) {
            throw new IllegalArgumentException("a request of " + request.sizeCount() + " sizes; the mirror holds "
                    + MAX_SIZES);
        }
        int index = index(id);
        MemorySegment page = page(index);
        long at = offset(index);
        long generation = id & GENERATION;
        long pending = generation | PENDING;
        WORD.setRelease(page, at + ATTENTION, request.attention().address());
        WORD.setRelease(page, at, pending);
        request.reportableAt(page, at, generation | REPORTED);
        // Only this generation's pending word changes: a late call never touches a reuse of the entry.
        request.onFinish(FINISH);
    }

    /** One listener for every request: it finds the entry through the word the request was made reportable at. */
    private static final EngineRequest.FinishListener FINISH = RequestMirror::finish;

    private static void finish(EngineRequest request) {
        MemorySegment page = request.reportWord();
        long at = request.reportOffset();
        long generation = request.reportedValue() & GENERATION;
        long pending = generation | PENDING;
        if ((long) WORD.getAcquire(page, at) != pending) {
            return;
        }
        if (request.failed()) {
            WORD.compareAndSet(page, at, pending, generation | FINISHED);
            return;
        }
        int count = request.sizeCount();
        page.set(JAVA_INT, at + COUNT, count);
        for (int i = 0; i < count; i++) {
            page.set(JAVA_INT, at + SIZES + 4L * i, (int) Math.min(Integer.MAX_VALUE, request.size(i)));
        }
        // The sizes are in place before the shim can see DONE (a release write).
        WORD.compareAndSet(page, at, pending, generation | DONE);
    }

    /**
     * Mirrors a send comm that just got handle {@code id}, before the id reaches native code: its entry holds
     * {@link #SEND_COMM} and the end's attention, whose {@code starved} word lets the shim answer an isend that
     * would be told to retry. {@link #retire} it before the comm closes.
     */
    void publishSendComm(long id, Attention attention) {
        int index = index(id);
        MemorySegment page = page(index);
        long at = offset(index);
        WORD.setRelease(page, at + ATTENTION, attention.address());
        WORD.setRelease(page, at, (id & GENERATION) | SEND_COMM);
    }

    /** Forgets the request or send comm of handle {@code id}, which Java has released. */
    void retire(long id) {
        int index = index(id);
        MemorySegment page = page(index);
        long at = offset(index);
        long word = (long) WORD.getAcquire(page, at);
        if ((word & GENERATION) == (id & GENERATION)) {
            WORD.compareAndSet(page, at, word, 0L);
        }
    }

    /** The entry's first word. */
    long state(long id) {
        int index = index(id);
        return (long) WORD.getAcquire(page(index), offset(index));
    }

    /** True when the shim reported the request of handle {@code id} done by itself. */
    boolean reported(long id) {
        return state(id) == ((id & GENERATION) | REPORTED);
    }

    /** True when the entry no longer holds handle {@code id} (released, or reused by another generation). */
    boolean gone(long id) {
        return (state(id) & GENERATION) != (id & GENERATION);
    }

    private static int index(long id) {
        return (int) ((id >>> 3) & 0x1FFF_FFFFL);
    }

    private static long offset(int index) {
        return (index & (PAGE_ENTRIES - 1)) * ENTRY_BYTES;
    }

    private MemorySegment page(int index) {
        int p = index >>> PAGE_BITS;
        MemorySegment page = (MemorySegment) SEGMENT.getAcquire(pages, p);
        if (page != null) {
            return page;
        }
        synchronized (pages) {
            page = (MemorySegment) SEGMENT.getAcquire(pages, p);
            if (page == null) {
                page = Arena.global().allocate(ENTRY_BYTES * PAGE_ENTRIES, 64);
                PAGE.setRelease(directory, (long) p * ADDRESS.byteSize(), page);
                SEGMENT.setRelease(pages, p, page);
            }
        }
        return page;
    }
}
