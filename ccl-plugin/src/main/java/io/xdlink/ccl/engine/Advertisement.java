package io.xdlink.ccl.engine;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.List;

/**
 * A receiver's posted grouped receive as the sender learns of it: which receive (sequence and slot) and, per
 * buffer, where to write, how much room there is and the tag a send must carry to land there.
 *
 * <p>Wire form, little-endian: {@code u16 magic 0x4458, u8 version 1, u8 kind 1, u32 sequence, u8 slot, u8 count,
 * u16 0, u32 0}, then per buffer {@code u64 remoteKey, u64 address, u64 offset, u64 size, i32 tag, u32 0}.
 * {@link #decode} checks every field, since the bytes come from the peer.
 *
 * @param sequence the receive's number on its connection, counting from 0
 * @param slot     the receiver's request slot, below {@link #SLOTS}
 * @param entries  one per buffer, 1 to {@link #MAX_ENTRIES}
 */
public record Advertisement(long sequence, int slot, List<Entry> entries) {

    public static final int SLOTS = 32;
    public static final int MAX_ENTRIES = 8;
    static final int HEADER_BYTES = 16;
    static final int ENTRY_BYTES = 40;
    /** The largest advertisement on the wire. */
    public static final int MAX_BYTES = HEADER_BYTES + MAX_ENTRIES * ENTRY_BYTES;

    private static final short MAGIC = 0x4458;
    private static final byte VERSION = 1;
    private static final byte KIND = 1;
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    public Advertisement {
        entries = List.copyOf(entries);
        if (sequence < 0 || sequence > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("sequence " + sequence + " is outside 0..2^32-1");
        }
        if (slot < 0 || slot >= SLOTS) {
            throw new IllegalArgumentException("slot " + slot + " is outside 0.." + (SLOTS - 1));
        }
        if (entries.isEmpty() || entries.size() > MAX_ENTRIES) {
            throw new IllegalArgumentException(entries.size() + " buffers; a grouped receive has 1.." + MAX_ENTRIES);
        }
    }

    /** One advertised buffer. */
    public record Entry(long remoteKey, long address, long offset, long size, int tag) {
        public Entry {
            if (size < 0 || offset < 0) {
                throw new IllegalArgumentException("buffer size " + size + " and offset " + offset
                        + " must not be negative");
            }
        }
    }

    /** Bytes on the wire. */
    public int encodedSize() {
        return HEADER_BYTES + entries.size() * ENTRY_BYTES;
    }

    /** Writes the wire form at the start of {@code out}; returns its length. */
    public int encode(MemorySegment out) {
        int len = encodedSize();
        if (out.byteSize() < len) {
            throw new IllegalArgumentException("advertisement needs " + len + " bytes, buffer has " + out.byteSize());
        }
        out.set(U16, 0, MAGIC);
        out.set(ValueLayout.JAVA_BYTE, 2, VERSION);
        out.set(ValueLayout.JAVA_BYTE, 3, KIND);
        out.set(U32, 4, (int) sequence);
        out.set(ValueLayout.JAVA_BYTE, 8, (byte) slot);
        out.set(ValueLayout.JAVA_BYTE, 9, (byte) entries.size());
        out.set(U16, 10, (short) 0);
        out.set(U32, 12, 0);
        long at = HEADER_BYTES;
        for (Entry e : entries) {
            out.set(U64, at, e.remoteKey());
            out.set(U64, at + 8, e.address());
            out.set(U64, at + 16, e.offset());
            out.set(U64, at + 24, e.size());
            out.set(U32, at + 32, e.tag());
            out.set(U32, at + 36, 0);
            at += ENTRY_BYTES;
        }
        return len;
    }

    /** Reads a wire form, rejecting anything malformed with a message naming the field. */
    public static Advertisement decode(MemorySegment in) throws MalformedMessageException {
        long len = in.byteSize();
        if (len < HEADER_BYTES) {
            throw new MalformedMessageException("advertisement of " + len + " bytes is shorter than its "
                    + HEADER_BYTES + "-byte header");
        }
        short magic = in.get(U16, 0);
        if (magic != MAGIC) {
            throw new MalformedMessageException(String.format("advertisement magic 0x%04x, expected 0x%04x",
                    magic & 0xFFFF, MAGIC));
        }
        int version = in.get(ValueLayout.JAVA_BYTE, 2);
        int kind = in.get(ValueLayout.JAVA_BYTE, 3);
        if (version != VERSION || kind != KIND) {
            throw new MalformedMessageException("advertisement version " + version + " kind " + kind
                    + ", expected version " + VERSION + " kind " + KIND);
        }
        long sequence = Integer.toUnsignedLong(in.get(U32, 4));
        int slot = in.get(ValueLayout.JAVA_BYTE, 8) & 0xFF;
        int count = in.get(ValueLayout.JAVA_BYTE, 9) & 0xFF;
        if (slot >= SLOTS) {
            throw new MalformedMessageException("advertisement slot " + slot + " is outside 0.." + (SLOTS - 1));
        }
        if (count < 1 || count > MAX_ENTRIES) {
            throw new MalformedMessageException("advertisement count " + count + " is outside 1.." + MAX_ENTRIES);
        }
        if (len != HEADER_BYTES + (long) count * ENTRY_BYTES) {
            throw new MalformedMessageException("advertisement of " + count + " buffers must be "
                    + (HEADER_BYTES + count * ENTRY_BYTES) + " bytes, got " + len);
        }
        // An array made into a list once: the record's copy then keeps it as it is (one arrives per message).
        Entry[] entries = new Entry[count];
        long at = HEADER_BYTES;
        for (int i = 0; i < count; i++, at += ENTRY_BYTES) {
            long size = in.get(U64, at + 24);
            long offset = in.get(U64, at + 16);
            if (size < 0 || offset < 0) {
                throw new MalformedMessageException("advertised buffer " + i + " has size " + size + " offset "
                        + offset);
            }
            entries[i] = new Entry(in.get(U64, at), in.get(U64, at + 8), offset, size, in.get(U32, at + 32));
        }
        return new Advertisement(sequence, slot, List.of(entries));
    }

    /** The immediate of the write that carries a send into buffer {@code index}. */
    public int immediate(int index) {
        return Immediate.of(sequence, slot, index);
    }
}
