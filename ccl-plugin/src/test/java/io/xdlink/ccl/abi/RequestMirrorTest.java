package io.xdlink.ccl.abi;

import io.xdlink.ccl.CclException;
import io.xdlink.ccl.abi.HandleTable.Kind;
import io.xdlink.ccl.engine.EngineRequest;
import io.xdlink.ccl.engine.InMemoryConnections;
import io.xdlink.ccl.engine.RecvEndpoint;
import io.xdlink.ccl.engine.RegisteredMemory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The native mirror of a request's state, as the shim reads it: pending under the id's generation while in flight,
 * finished once done or failed, cleared on release, and a stale id's release never clears a newer request there.
 */
class RequestMirrorTest {
    private final Arena arena = Arena.ofShared();
    private final InMemoryConnections wire = new InMemoryConnections(0x31AAL, 64).notifying();
    private final RecvEndpoint recv = new RecvEndpoint(0, wire.b);
    private final HandleTable handles = new HandleTable();
    private final RequestMirror mirror = new RequestMirror();

    @AfterEach
    void close() {
        recv.close();
        arena.close();
    }

    private EngineRequest receive() throws CclException {
        MemorySegment buffer = arena.allocate(8);
        RegisteredMemory memory = wire.register(buffer);
        EngineRequest r = recv.irecv(new MemorySegment[] {buffer}, new int[] {0}, new RegisteredMemory[] {memory});
        assertThat(r).isNotNull();
        return r;
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
