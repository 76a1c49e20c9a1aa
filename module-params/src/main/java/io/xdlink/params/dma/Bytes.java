package io.xdlink.params.dma;

import java.util.Locale;

/** Byte counts in the units people read: KiB, MiB, GiB, exact when a unit divides the count. */
final class Bytes {
    static final long KIB = 1L << 10;
    static final long MIB = 1L << 20;
    static final long GIB = 1L << 30;

    private Bytes() {
    }

    static String human(long bytes) {
        if (bytes >= GIB && bytes % GIB == 0) {
            return bytes / GIB + " GiB";
        }
        if (bytes >= MIB && bytes % MIB == 0) {
            return bytes / MIB + " MiB";
        }
        if (bytes >= KIB && bytes % KIB == 0) {
            return bytes / KIB + " KiB";
        }
        if (bytes >= MIB) {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) MIB);
        }
        return bytes + " bytes";
    }

    /** Whole MiB needed to hold {@code bytes}. */
    static long mibCeil(long bytes) {
        return bytes / MIB + (bytes % MIB == 0 ? 0 : 1);
    }
}
