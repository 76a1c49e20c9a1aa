package io.xdlink.rails.verbs;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;

/**
 * Groups memory regions with the queue pairs that may use them: a queue pair sends from, receives into, and
 * accepts WRITEs into regions of its own domain only.
 */
public final class ProtectionDomain {
    private final Device device;

    ProtectionDomain(Device device) {
        this.device = device;
    }

    public Device device() {
        return device;
    }

    /**
     * Registers memory with the given rights; its remote key is drawn at random.
     *
     * @throws IllegalArgumentException when the segment is read-only but writable rights are asked
     * @throws IllegalStateException    when the device is closed
     */
    public MemoryRegion register(MemorySegment segment, Access... access) {
        Objects.requireNonNull(segment, "segment");
        EnumSet<Access> rights = access.length == 0 ? EnumSet.noneOf(Access.class) : EnumSet.copyOf(List.of(access));
        if (segment.isReadOnly() && !rights.isEmpty()) {
            throw new IllegalArgumentException("a read-only segment cannot grant " + rights);
        }
        if (device.isClosed()) {
            throw new IllegalStateException("device " + device.id() + " is closed");
        }
        return device.keys().register(this, segment, rights);
    }
}
