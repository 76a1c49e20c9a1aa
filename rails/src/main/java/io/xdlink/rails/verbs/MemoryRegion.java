package io.xdlink.rails.verbs;

import java.lang.foreign.MemorySegment;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * Registered memory: a {@link MemorySegment} with a local key, a random remote key a peer must present to WRITE
 * into it, and the rights it grants. Remote addresses run from {@link #address()} for {@link #length()} bytes; a
 * peer's WRITE names the address of its first byte. The segment must be usable from the device's progress thread
 * (a global, automatic or shared arena, or the heap).
 */
public final class MemoryRegion {
    private final ProtectionDomain pd;
    private final MemorySegment segment;
    private final Set<Access> access;
    /** {@link #access} as bits by ordinal: checked once per received frame, where a set lookup costs more. */
    private final int accessBits;
    private final int lkey;
    private final int rkey;
    private volatile boolean valid = true;

    /**
     * A region as the device's key table ({@link io.xdlink.rails.engine.KeyTable}) makes it when memory is
     * registered, under keys it drew: applications register with {@link ProtectionDomain#register}, and a region
     * made any other way is not registered, so no peer can write to it.
     */
    public MemoryRegion(ProtectionDomain pd, MemorySegment segment, Set<Access> access, int lkey, int rkey) {
        this.pd = pd;
        this.segment = segment;
        this.access = Collections.unmodifiableSet(access.isEmpty() ? EnumSet.noneOf(Access.class)
                : EnumSet.copyOf(access));
        int bits = 0;
        for (Access a : this.access) {
            bits |= 1 << a.ordinal();
        }
        this.accessBits = bits;
        this.lkey = lkey;
        this.rkey = rkey;
    }

    public ProtectionDomain pd() {
        return pd;
    }

    public MemorySegment segment() {
        return segment;
    }

    /** The remote address of the region's first byte. */
    public long address() {
        return segment.address();
    }

    public long length() {
        return segment.byteSize();
    }

    public int lkey() {
        return lkey;
    }

    /** What a peer presents to WRITE here: random, never 0, unique on the device while registered. */
    public int rkey() {
        return rkey;
    }

    public Set<Access> access() {
        return access;
    }

    public boolean allows(Access a) {
        return (accessBits & (1 << a.ordinal())) != 0;
    }

    /** False once deregistered. */
    public boolean isValid() {
        return valid;
    }

    /** True when {@code [offset, offset + len)} lies inside the region. */
    public boolean contains(long offset, long len) {
        return offset >= 0 && len >= 0 && offset <= segment.byteSize() - len;
    }

    /** Withdraws the remote key at once: WRITEs naming it from now on are refused. Idempotent. */
    public void deregister() {
        if (valid) {
            valid = false;
            pd.device().keys().remove(this);
        }
    }

    @Override
    public String toString() {
        return "MemoryRegion[" + segment.byteSize() + " bytes, rkey 0x" + Integer.toHexString(rkey) + ", " + access
                + (valid ? "" : ", deregistered") + "]";
    }
}
