package io.xdlink.rails.engine;

import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.ProtectionDomain;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.random.RandomGenerator;

/**
 * Remote key to memory region, for one device. Registering draws a random non-zero key not in use; the progress
 * engine looks keys up on every WRITE frame without a lock (the table is copied on change and published whole),
 * and a deregistered key is gone at once for frames that arrive after.
 */
public final class KeyTable {
    private record Table(int[] keys, MemoryRegion[] regions, int size) {
    }

    private final RandomGenerator random;
    private volatile Table table = new Table(new int[16], new MemoryRegion[16], 0);

    public KeyTable(RandomGenerator random) {
        this.random = random;
    }

    public synchronized MemoryRegion register(ProtectionDomain pd, MemorySegment segment, EnumSet<Access> access) {
        int rkey;
        do {
            rkey = random.nextInt();
        } while (rkey == 0 || lookup(rkey) != null);
        int lkey = random.nextInt();
        MemoryRegion mr = new MemoryRegion(pd, segment, access, lkey, rkey);
        Table t = table;
        int capacity = t.keys.length;
        if ((t.size + 1) * 2 > capacity) {
            capacity *= 2;
        }
        table = rebuild(t, capacity, mr, 0);
        return mr;
    }

    /**
     * Withdraws {@code region}'s key, if the table holds that very region under it: a region built outside
     * {@link #register} (its constructor is public for this package) cannot withdraw someone else's key.
     */
    public synchronized void remove(MemoryRegion region) {
        Table t = table;
        if (lookupIn(t, region.rkey()) == region) {
            table = rebuild(t, t.keys.length, null, region.rkey());
        }
    }

    private static Table rebuild(Table from, int capacity, MemoryRegion add, int drop) {
        int[] keys = new int[capacity];
        MemoryRegion[] regions = new MemoryRegion[capacity];
        int size = 0;
        for (int i = 0; i < from.keys.length; i++) {
            if (from.keys[i] != 0 && from.keys[i] != drop) {
                insert(keys, regions, from.regions[i]);
                size++;
            }
        }
        if (add != null) {
            insert(keys, regions, add);
            size++;
        }
        return new Table(keys, regions, size);
    }

    private static void insert(int[] keys, MemoryRegion[] regions, MemoryRegion mr) {
        int mask = keys.length - 1;
        int i = mix(mr.rkey()) & mask;
        while (keys[i] != 0) {
            i = (i + 1) & mask;
        }
        keys[i] = mr.rkey();
        regions[i] = mr;
    }

    /** The region registered under {@code rkey}, or null. */
    MemoryRegion lookup(int rkey) {
        return lookupIn(table, rkey);
    }

    private static MemoryRegion lookupIn(Table t, int rkey) {
        if (rkey == 0) {
            return null;
        }
        int[] keys = t.keys;
        int mask = keys.length - 1;
        int i = mix(rkey) & mask;
        while (true) {
            int k = keys[i];
            if (k == rkey) {
                return t.regions[i];
            }
            if (k == 0) {
                return null;
            }
            i = (i + 1) & mask;
        }
    }

    int size() {
        return table.size;
    }

    private static int mix(int k) {
        int h = k * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
