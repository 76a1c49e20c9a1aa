package io.xdlink.cli.elf;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Checked access to one ELF file's fields and strings, in its class and byte order: every read is checked against
 * the piece it reads from, every string must end within its table, and all string look-ups share one scan budget.
 */
final class ElfFields {
    /** The longest name accepted; mangled C++ names reach a few kilobytes. */
    static final int MAX_STRING = 64 << 10;
    /**
     * Bytes all string look-ups together may scan. Real files scan each name once; a hostile one could point a
     * million names into one unterminated run, and this budget is what stops that from taking hours.
     */
    static final long STRING_SCAN_BUDGET = 256L << 20;

    // Constant layouts: a layout held in an instance field makes every access take the slow generic path.
    private static final ValueLayout.OfShort U16_LE =
            ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort U16_BE = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt U32_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt U32_BE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfLong U64_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong U64_BE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private final ElfSource src;
    private final String file;
    private final int bits;
    private final boolean little;
    private long scanned;

    ElfFields(ElfSource src, int bits, ByteOrder order) {
        this.src = src;
        this.file = src.label();
        this.bits = bits;
        this.little = order == ByteOrder.LITTLE_ENDIAN;
    }

    /** The file's name, for messages. */
    String file() {
        return file;
    }

    MemorySegment section(ElfSection s, String what) throws ElfException {
        if (s.type() == ElfSection.SHT_NOBITS) {
            throw new ElfException(file + ": " + what + " (section " + s.index() + ") occupies no bytes in the file");
        }
        return src.read(s.offset(), s.size(), what + " (section " + s.index() + ")");
    }

    byte[] linkedStrings(ElfSection s, List<ElfSection> sections, String what) throws ElfException {
        if (s.link() <= 0 || s.link() >= sections.size()) {
            throw new ElfException(file + ": " + what + " sh_link " + s.link() + " names no section");
        }
        ElfSection str = sections.get((int) s.link());
        if (str.type() != ElfSection.SHT_STRTAB) {
            throw new ElfException(file + ": " + what + " sh_link " + s.link() + " is not a string table (type 0x"
                    + Long.toHexString(str.type()) + ")");
        }
        return section(str, "string table of " + what).toArray(ValueLayout.JAVA_BYTE);
    }

    byte[] contents(long[] header, int index, String what) throws ElfException {
        if (header[1] == ElfSection.SHT_NOBITS) {
            throw new ElfException(file + ": " + what + " (section " + index + ") occupies no bytes in the file");
        }
        return src.read(header[2], header[3], what + " (section " + index + ")").toArray(ValueLayout.JAVA_BYTE);
    }

    /** A name for entry {@code index} of a table; the message is built only when the name is bad. */
    String string(byte[] strings, long offset, String entryOf, int index) throws ElfException {
        return string(strings, offset, null, entryOf, index);
    }

    String string(byte[] strings, long offset, String what) throws ElfException {
        return string(strings, offset, what, null, 0);
    }

    String string(byte[] strings, long offset, String what, String entryOf, int index) throws ElfException {
        if (offset < 0 || offset >= strings.length) {
            throw new ElfException(file + ": " + describe(what, entryOf, index) + " at string offset " + offset
                    + ", outside its table of " + strings.length + " bytes");
        }
        int start = (int) offset;
        int stop = (int) Math.min(strings.length, (long) start + MAX_STRING + 1);
        int end = start;
        while (end < stop && strings[end] != 0) {
            end++;
        }
        scanned += end - start + 1;
        if (scanned > STRING_SCAN_BUDGET) {
            throw new ElfException(file + ": names overlap without end: more than " + (STRING_SCAN_BUDGET >> 20)
                    + " MiB of string tables scanned");
        }
        if (end == strings.length) {
            throw new ElfException(file + ": " + describe(what, entryOf, index) + " at string offset " + offset
                    + " has no terminating NUL");
        }
        if (end == stop) {
            throw new ElfException(file + ": " + describe(what, entryOf, index) + " at string offset " + offset
                    + " is longer than " + MAX_STRING + " bytes");
        }
        return new String(strings, start, end - start, StandardCharsets.UTF_8);
    }

    static String describe(String what, String entryOf, int index) {
        return what != null ? what : "name of " + entryOf + index;
    }

    static int rawU8(MemorySegment s, long off) {
        return s.get(ValueLayout.JAVA_BYTE, off) & 0xff;
    }

    int rawU16(MemorySegment s, long off) {
        return (little ? s.get(U16_LE, off) : s.get(U16_BE, off)) & 0xffff;
    }

    long rawU32(MemorySegment s, long off) {
        return (little ? s.get(U32_LE, off) : s.get(U32_BE, off)) & 0xffff_ffffL;
    }

    long rawU64(MemorySegment s, long off) {
        return little ? s.get(U64_LE, off) : s.get(U64_BE, off);
    }

    int u16(MemorySegment s, long off, String what) throws ElfException {
        check(s, off, 2, what);
        return (little ? s.get(U16_LE, off) : s.get(U16_BE, off)) & 0xffff;
    }

    long u32(MemorySegment s, long off, String what) throws ElfException {
        check(s, off, 4, what);
        return (little ? s.get(U32_LE, off) : s.get(U32_BE, off)) & 0xffff_ffffL;
    }

    /** An address-sized field: 4 bytes in a 32-bit file, 8 in a 64-bit one; above 2^63 is refused. */
    long word(MemorySegment s, long off, String what) throws ElfException {
        if (bits == 32) {
            return u32(s, off, what);
        }
        check(s, off, 8, what);
        long v = little ? s.get(U64_LE, off) : s.get(U64_BE, off);
        if (v < 0) {
            throw new ElfException(file + ": " + what + " is 0x" + Long.toHexString(v) + ", beyond any file");
        }
        return v;
    }

    void check(MemorySegment s, long off, int n, String what) throws ElfException {
        if (off < 0 || off > s.byteSize() - n) {
            throw new ElfException(file + ": " + what + " is cut off (offset " + off + " of " + s.byteSize()
                    + " bytes)");
        }
    }

    static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length() && i < 80; i++) {
            char c = s.charAt(i);
            sb.append(c < 0x20 || c == 0x7f ? '?' : c);
        }
        return sb.toString();
    }
}
