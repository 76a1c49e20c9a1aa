package io.xdlink.ccl.abi;

import io.xdlink.ccl.DeviceProperties;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.MemoryLayout.paddingLayout;
import static java.lang.foreign.MemoryLayout.sequenceLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@code ncclNetProperties_vN_t} for N = 6 to 12, one {@link StructLayout} per layout (v9 and v10 share one), with
 * the padding LP64 puts in: 4 bytes between vProps and maxP2pBytes from v9 on, 4 trailing bytes in v8 and v11.
 * {@link #write} fills every field the version has, since a v12 host applies no defaults.
 */
public final class PropertiesLayouts {

    private static final StructLayout V6 = struct(6);
    private static final StructLayout V7 = struct(7);
    private static final StructLayout V8 = struct(8);
    private static final StructLayout V9 = struct(9);
    private static final StructLayout V11 = struct(11);
    private static final StructLayout V12 = struct(12);

    private PropertiesLayouts() {
    }

    /** The layout a host of ABI {@code version} passes to getProperties. */
    public static StructLayout layout(int version) {
        return switch (version) {
            case 6 -> V6;
            case 7 -> V7;
            case 8 -> V8;
            case 9, 10 -> V9;
            case 11 -> V11;
            case 12 -> V12;
            default -> throw new IllegalArgumentException("no ncclNetProperties layout for ABI version " + version);
        };
    }

    private static StructLayout struct(int v) {
        List<MemoryLayout> f = new ArrayList<>();
        f.add(ADDRESS.withName("name"));
        f.add(ADDRESS.withName("pciPath"));
        f.add(JAVA_LONG.withName("guid"));
        f.add(JAVA_INT.withName("ptrSupport"));
        if (v >= 8) {
            f.add(JAVA_INT.withName("regIsGlobal"));
        }
        if (v >= 9) {
            f.add(JAVA_INT.withName("forceFlush"));
        }
        f.add(JAVA_INT.withName("speed"));
        f.add(JAVA_INT.withName("port"));
        f.add(JAVA_FLOAT.withName("latency"));
        f.add(JAVA_INT.withName("maxComms"));
        f.add(JAVA_INT.withName("maxRecvs"));
        if (v >= 7) {
            f.add(JAVA_INT.withName("netDeviceType"));
            f.add(JAVA_INT.withName("netDeviceVersion"));
        }
        if (v >= 9) {
            int devs = v >= 12 ? 8 : 4;
            f.add(MemoryLayout.structLayout(JAVA_INT.withName("ndevs"),
                    sequenceLayout(devs, JAVA_INT).withName("devs")).withName("vProps"));
            f.add(paddingLayout(4));
            f.add(JAVA_LONG.withName("maxP2pBytes"));
            f.add(JAVA_LONG.withName("maxCollBytes"));
        }
        if (v >= 11) {
            f.add(JAVA_INT.withName("maxMultiRequestSize"));
        }
        if (v >= 12) {
            f.add(JAVA_SHORT.withName("railId"));
            f.add(JAVA_SHORT.withName("planeId"));
        }
        if (v == 8 || v == 11) {
            f.add(paddingLayout(4));
        }
        return MemoryLayout.structLayout(f.toArray(MemoryLayout[]::new)).withName("ncclNetProperties_v" + v);
    }

    /** Byte offset of a field in a version's layout (for tests and the harness's cross-check). */
    public static long offset(int version, String field) {
        return layout(version).byteOffset(groupElement(field));
    }

    /**
     * Writes {@code p} into {@code out} in the layout of {@code version}. {@code name} and {@code pciPath} are C
     * strings that outlive the host's use ({@link MemorySegment#NULL} for no PCI path).
     */
    public static void write(int version, MemorySegment out, DeviceProperties p, int dev, MemorySegment name,
                             MemorySegment pciPath) {
        StructLayout l = layout(version);
        MemorySegment s = out.reinterpret(l.byteSize());
        s.fill((byte) 0);
        s.set(ADDRESS, off(l, "name"), name);
        s.set(ADDRESS, off(l, "pciPath"), pciPath);
        s.set(JAVA_LONG, off(l, "guid"), p.guid());
        s.set(JAVA_INT, off(l, "ptrSupport"), p.ptrSupport());
        if (version >= 8) {
            s.set(JAVA_INT, off(l, "regIsGlobal"), 0);
        }
        if (version >= 9) {
            s.set(JAVA_INT, off(l, "forceFlush"), 0);
        }
        s.set(JAVA_INT, off(l, "speed"), p.speedMbps());
        s.set(JAVA_INT, off(l, "port"), p.port());
        s.set(JAVA_FLOAT, off(l, "latency"), p.latencyMicros());
        s.set(JAVA_INT, off(l, "maxComms"), p.maxComms());
        s.set(JAVA_INT, off(l, "maxRecvs"), p.maxRecvs());
        if (version >= 7) {
            s.set(JAVA_INT, off(l, "netDeviceType"), 0);
            s.set(JAVA_INT, off(l, "netDeviceVersion"), 0);
        }
        if (version >= 9) {
            long vp = off(l, "vProps");
            int capacity = version >= 12 ? 8 : 4;
            List<Integer> devs = p.vDevices().isEmpty() ? List.of(dev) : p.vDevices();
            int n = Math.min(capacity, devs.size());
            s.set(JAVA_INT, vp, n);
            for (int i = 0; i < n; i++) {
                s.set(JAVA_INT, vp + 4 + 4L * i, devs.get(i));
            }
            s.set(JAVA_LONG, off(l, "maxP2pBytes"), p.maxP2pBytes());
            s.set(JAVA_LONG, off(l, "maxCollBytes"), p.maxCollBytes());
        }
        if (version >= 11) {
            s.set(JAVA_INT, off(l, "maxMultiRequestSize"), p.maxMultiRequestSize());
        }
        if (version >= 12) {
            s.set(JAVA_SHORT, off(l, "railId"), (short) -1);
            s.set(JAVA_SHORT, off(l, "planeId"), (short) -1);
        }
    }

    private static long off(StructLayout l, String field) {
        return l.byteOffset(groupElement(field));
    }

    /** The ABI versions this plugin exports. */
    public static final int[] VERSIONS = {6, 7, 8, 9, 10, 11, 12};

    static {
        // The same sizes the C header asserts; a mismatch here is a bug in this file, found at class load.
        long[] sizes = {48, 56, 64, 104, 104, 112, 128};
        for (int i = 0; i < VERSIONS.length; i++) {
            if (layout(VERSIONS[i]).byteSize() != sizes[i]) {
                throw new AssertionError("ncclNetProperties_v" + VERSIONS[i] + " is " + layout(VERSIONS[i]).byteSize()
                        + " bytes, the ABI says " + sizes[i]);
            }
        }
    }
}
