package io.xdlink.ccl.abi;

import io.xdlink.ccl.abi.HandleTable.Kind;
import io.xdlink.ccl.engine.EngineRequest;

/**
 * The request ids one comm handed to its host, oldest first, until Java has forgotten them. A request the shim
 * reported done by itself ({@link RequestMirror#REPORTED}) never comes back to Java through {@code test()}, so the
 * next call on its comm releases its handle and mirror entry here; a request Java released itself is just dropped.
 * The sweep stops at the oldest request still out: hosts test a comm's requests about in order, and a request left
 * behind holds at most the ones after it until its own test.
 */
final class Outstanding {
    private long[] ids = new long[64];
    private int head;
    private int size;

    /** Remembers a request id this comm just handed out. */
    synchronized void add(long id) {
        if (size == ids.length) {
            long[] grown = new long[ids.length * 2];
            for (int i = 0; i < size; i++) {
                grown[i] = ids[(head + i) & (ids.length - 1)];
            }
            ids = grown;
            head = 0;
        }
        ids[(head + size) & (ids.length - 1)] = id;
        size++;
    }

    /** Releases, oldest first, every request the shim reported or Java released, up to the first one still out. */
    synchronized void sweep(RequestMirror mirror, HandleTable handles) {
        while (size > 0) {
            long id = ids[head];
            if (mirror.reported(id)) {
                if (handles.remove(id, Kind.REQUEST) instanceof EngineRequest r) {
                    r.markReported();
                }
                mirror.retire(id);
            } else if (!mirror.gone(id)) {
                return;
            }
            head = (head + 1) & (ids.length - 1);
            size--;
        }
    }

    /** Ids remembered, for tests. */
    synchronized int size() {
        return size;
    }
}
