package io.xdlink.ccl.abi;

import io.xdlink.ccl.engine.Attention;
import io.xdlink.ccl.engine.EngineRequest;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The state of every request and send comm handed to native code, mirrored in native memory so the shim's
 * {@code test()} can answer "not done", and its {@code isend()} "retry", without an upcall (ccl_bridge.h,
 * {@code xdl_request_status_t}). Entries are indexed like
 * {@link HandleTable} ids: a directory of page addresses, pages of 16-byte entries allocated on first use in the
 * global arena and never freed, so no id a host passes, stale or made up, makes the shim read unmapped memory.
 *
 * <p>An entry holds {@code generation << 32 | state} and the address of the request's end's {@link
 * io.xdlink.ccl.engine.Attention} words. The shim answers by itself only when the first word is exactly the id's
 * generation with {@link #PENDING} and the end is quiet; anything else (done, failed, released, an id of another
 * generation) goes to Java, which has the last word. A send comm's entry holds {@link #SEND_COMM} and its end's
 * attention the same way.
 */
final class RequestMirror {
    /** Entry state: in flight when last looked at. */
    static final long PENDING = 1;
    /** Entry state: done or failed; the next test goes to Java to collect sizes and release the request. */
    static final long FINISHED = 2;
    /** Entry state of a send comm's handle (XDL_SEND_COMM): its second word is the comm's attention. */
    static final long SEND_COMM = 3;
    static final int PAGE_BITS = 12;
    static final int PAGE_ENTRIES = 1 << PAGE_BITS;
    static final int PAGES = HandleTable.CAPACITY / PAGE_ENTRIES;
    static final long ENTRY_BYTES = 16;
    private static final VarHandle WORD = JAVA_LONG.varHandle();
    private static final VarHandle PAGE = ADDRESS.varHandle();

    private final MemorySegment directory = Arena.global().allocate(ADDRESS.byteSize() * PAGES, 64);
    private final MemorySegment[] pages = new MemorySegment[PAGES];

    /** The directory's address: {@code PAGES} page addresses, 0 for a page not yet used. */
    long address() {
        return directory.address();
    }

    /**
     * Mirrors a request that just got handle {@code id}, before the id reaches native code; from now on the
     * request's finishing flips the entry to {@link #FINISHED}.
     */
    void publish(long id, EngineRequest request) {
        MemorySegment entry = entry(index(id));
        long generation = id & 0xFFFF_FFFF_0000_0000L;
        long pending = generation | PENDING;
        long finished = generation | FINISHED;
        WORD.setRelease(entry, 8L, request.attention().address());
        WORD.setRelease(entry, 0L, pending);
        // Only this generation's pending word turns into its finished word: a late call never touches a reuse.
        request.onFinish(() -> WORD.compareAndSet(entry, 0L, pending, finished));
    }

    /**
     * Mirrors a send comm that just got handle {@code id}, before the id reaches native code: its entry holds
     * {@link #SEND_COMM} and the end's attention, whose {@code starved} word lets the shim answer an isend that
     * would be told to retry. {@link #retire} it before the comm closes.
     */
    void publishSendComm(long id, Attention attention) {
        MemorySegment entry = entry(index(id));
        WORD.setRelease(entry, 8L, attention.address());
        WORD.setRelease(entry, 0L, (id & 0xFFFF_FFFF_0000_0000L) | SEND_COMM);
    }

    /** Forgets the request or send comm of handle {@code id}, which Java has released. */
    void retire(long id) {
        MemorySegment entry = entry(index(id));
        long word = (long) WORD.getAcquire(entry, 0L);
        if ((word & 0xFFFF_FFFF_0000_0000L) == (id & 0xFFFF_FFFF_0000_0000L)) {
            WORD.compareAndSet(entry, 0L, word, 0L);
        }
    }

    /** The entry's first word, for tests. */
    long state(long id) {
        return (long) WORD.getAcquire(entry(index(id)), 0L);
    }

    private static int index(long id) {
        return (int) ((id >>> 3) & 0x1FFF_FFFFL);
    }

    private MemorySegment entry(int index) {
        int p = index >>> PAGE_BITS;
        MemorySegment page;
        synchronized (pages) {
            page = pages[p];
            if (page == null) {
                page = Arena.global().allocate(ENTRY_BYTES * PAGE_ENTRIES, 64);
                pages[p] = page;
                PAGE.setRelease(directory, (long) p * ADDRESS.byteSize(), page);
            }
        }
        return page.asSlice((index & (PAGE_ENTRIES - 1)) * ENTRY_BYTES, ENTRY_BYTES);
    }
}
