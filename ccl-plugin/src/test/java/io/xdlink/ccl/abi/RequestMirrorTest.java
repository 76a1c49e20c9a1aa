package io.xdlink.ccl.abi;

import io.xdlink.ccl.CclException;
import io.xdlink.ccl.abi.HandleTable.Kind;
import io.xdlink.ccl.engine.EngineRequest;
import io.xdlink.ccl.engine.RailsWire;
import io.xdlink.ccl.engine.RecvEndpoint;
import io.xdlink.ccl.engine.SendEndpoint;
import io.xdlink.rails.verbs.MemoryRegion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The native mirror of a request's state, as the shim reads it: pending under the id's generation while in flight,
 * done with its sizes once done (finished if it failed), cleared on release, and a stale id's release never clears
 * a newer request there; a request the shim reported done is forgotten by its comm's next call.
 */
class RequestMirrorTest {
    private final Arena arena = Arena.ofShared();
    private final RailsWire wire;
    private final RecvEndpoint recv;
    private final HandleTable handles = new HandleTable();
    private final RequestMirror mirror = new RequestMirror();

    RequestMirrorTest() throws Exception {
        wire = new RailsWire(0x31AAL);
        recv = wire.recvEnd(true);
    }

    @AfterEach
    void close() {
        recv.close();
        wire.close();
        arena.close();
    }

    private EngineRequest receive() throws CclException {
        MemorySegment buffer = arena.allocate(8);
        MemoryRegion memory = recv.register(buffer);
        EngineRequest r = recv.irecv(new MemorySegment[] {buffer}, new int[] {0}, new MemoryRegion[] {memory});
        assertThat(r).isNotNull();
        return r;
    }

    /** An id's entry, found the way the shim finds it: directory, page, entry. */
    private MemorySegment entrySegment(long id) {
        long index = (id >>> 3) & 0x1FFF_FFFFL;
        MemorySegment directory = MemorySegment.ofAddress(mirror.address())
                .reinterpret(ADDRESS.byteSize() * RequestMirror.PAGES);
        MemorySegment page = directory.getAtIndex(ADDRESS, index >>> RequestMirror.PAGE_BITS)
                .reinterpret(RequestMirror.ENTRY_BYTES * RequestMirror.PAGE_ENTRIES);
        return page.asSlice((index & (RequestMirror.PAGE_ENTRIES - 1)) * RequestMirror.ENTRY_BYTES,
                RequestMirror.ENTRY_BYTES);
    }

    @Test
    void aDoneReceiveHoldsItsSizesAndOnceTheShimReportedItTheCommsNextCallForgetsIt() throws CclException {
        SendEndpoint send = wire.sendEnd(true);
        try {
            EngineRequest r = receive();
            long id = handles.add(Kind.REQUEST, r);
            mirror.publish(id, r);
            Outstanding outstanding = new Outstanding();
            outstanding.add(id);
            long generation = id & 0xFFFF_FFFF_0000_0000L;
            outstanding.sweep(mirror, handles);
            assertThat(outstanding.size()).as("a pending request stays").isEqualTo(1);

            MemorySegment src = arena.allocate(6);
            MemoryRegion srcMem = send.register(src);
            EngineRequest s = null;
            for (int i = 0; i < 100 && s == null; i++) {
                wire.step();
                s = send.isend(src, 0, srcMem);
            }
            assertThat(s).isNotNull();
            wire.step();
            assertThat(r.finished()).isTrue();
            MemorySegment e = entrySegment(id);
            assertThat(e.get(JAVA_LONG, 0)).isEqualTo(generation | RequestMirror.DONE);
            assertThat(e.get(JAVA_INT, RequestMirror.COUNT)).isEqualTo(1);
            assertThat(e.get(JAVA_INT, RequestMirror.SIZES)).isEqualTo(6);

            outstanding.sweep(mirror, handles);
            assertThat(outstanding.size()).as("done but not yet reported: Java may still be asked").isEqualTo(1);
            // What the shim's test() does when it tells its host: DONE becomes REPORTED, once.
            assertThat(e.get(JAVA_LONG, 0)).isEqualTo(generation | RequestMirror.DONE);
            e.set(JAVA_LONG, 0, generation | RequestMirror.REPORTED);
            assertThat(mirror.reported(id)).isTrue();
            outstanding.sweep(mirror, handles);
            assertThat(outstanding.size()).isZero();
            assertThat(handles.get(id, Kind.REQUEST)).as("the handle is free again").isNull();
            assertThat(mirror.state(id)).as("the entry is free again").isZero();
            assertThatThrownBy(() -> r.test(null)).as("the host was told; another test is its error")
                    .isInstanceOf(CclException.class).hasMessageContaining("tested again");
        } finally {
            send.close();
        }
    }

    @Test
    void theSweepDropsRequestsJavaReleasedAndStopsAtTheOldestStillOut() throws CclException {
        EngineRequest released = receive();
        EngineRequest pending = receive();
        long releasedId = handles.add(Kind.REQUEST, released);
        long pendingId = handles.add(Kind.REQUEST, pending);
        mirror.publish(releasedId, released);
        mirror.publish(pendingId, pending);
        Outstanding outstanding = new Outstanding();
        outstanding.add(releasedId);
        outstanding.add(pendingId);
        handles.remove(releasedId, Kind.REQUEST);
        mirror.retire(releasedId);
        outstanding.sweep(mirror, handles);
        assertThat(outstanding.size()).isEqualTo(1);
        assertThat(handles.get(pendingId, Kind.REQUEST)).isSameAs(pending);
        for (int i = 0; i < 200; i++) {
            outstanding.add(pendingId);
        }
        assertThat(outstanding.size()).as("grows past its first array").isEqualTo(201);
    }

    /** The two words of an id's entry, read the way the shim finds them: directory, page, entry. */
    private long[] entry(long id) {
        long index = (id >>> 3) & 0x1FFF_FFFFL;
        MemorySegment directory = MemorySegment.ofAddress(mirror.address())
                .reinterpret(ADDRESS.byteSize() * RequestMirror.PAGES);
        MemorySegment page = directory.getAtIndex(ADDRESS, index >>> RequestMirror.PAGE_BITS)
                .reinterpret(RequestMirror.ENTRY_BYTES * RequestMirror.PAGE_ENTRIES);
        long at = (index & (RequestMirror.PAGE_ENTRIES - 1)) * RequestMirror.ENTRY_BYTES;
        return new long[] {page.get(JAVA_LONG, at), page.get(JAVA_LONG, at + 8)};
    }

    @Test
    void aRequestIsPendingUnderItsGenerationThenFinishedThenGone() throws CclException {
        EngineRequest r = receive();
        long id = handles.add(Kind.REQUEST, r);
        mirror.publish(id, r);
        long generation = id & 0xFFFF_FFFF_0000_0000L;
        assertThat(entry(id)).containsExactly(generation | RequestMirror.PENDING, r.attention().address());
        assertThat(mirror.state(id)).isEqualTo(generation | RequestMirror.PENDING);

        recv.close();
        assertThat(r.finished()).as("closing fails what is in flight").isTrue();
        assertThat(entry(id)[0]).isEqualTo(generation | RequestMirror.FINISHED);

        handles.remove(id, Kind.REQUEST);
        mirror.retire(id);
        assertThat(entry(id)[0]).isZero();
    }

    @Test
    void aStaleIdsReleaseLeavesTheNewerRequestInItsSlotAlone() throws CclException {
        EngineRequest old = receive();
        long oldId = handles.add(Kind.REQUEST, old);
        mirror.publish(oldId, old);
        handles.remove(oldId, Kind.REQUEST);
        EngineRequest young = receive();
        long youngId = handles.add(Kind.REQUEST, young);
        assertThat(youngId >>> 3 & 0x1FFF_FFFFL).as("the slot was reused").isEqualTo(oldId >>> 3 & 0x1FFF_FFFFL);
        mirror.publish(youngId, young);
        mirror.retire(oldId);
        assertThat(mirror.state(youngId)).isEqualTo((youngId & 0xFFFF_FFFF_0000_0000L) | RequestMirror.PENDING);
        recv.close();
        assertThat(old.finished()).isTrue();
        assertThat(mirror.state(youngId)).as("the old request's finishing wrote nothing over the young one's entry")
                .isEqualTo((youngId & 0xFFFF_FFFF_0000_0000L) | RequestMirror.FINISHED);
    }
}
