package io.xdlink.ccl.engine;

import java.lang.foreign.MemorySegment;

/** Memory registered with a device: the bytes, the key a peer writes with, and its release. */
public interface RegisteredMemory extends AutoCloseable {

    MemorySegment segment();

    /** The key the peer presents to write here. */
    long remoteKey();

    /** Deregisters; writes with the key fail from now on. */
    @Override
    void close();
}
