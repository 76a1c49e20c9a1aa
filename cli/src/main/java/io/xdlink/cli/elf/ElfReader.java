package io.xdlink.cli.elf;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an ELF object's section headers, dynamic symbols and symbol versions. Everything is checked before use: an
 * offset or size that leaves the file, a count larger than its section could hold, a string without its terminating
 * NUL, a version index nothing defines. The first defect ends the read with an {@link ElfException}.
 */
public final class ElfReader {
    /** More sections than any linker writes. */
    static final int MAX_SECTIONS = 1 << 20;
    /** More dynamic symbols than any shared object has. */
    static final int MAX_SYMBOLS = 1 << 21;

    /** The longest name accepted; mangled C++ names reach a few kilobytes. */
    static final int MAX_STRING = 64 << 10;
    /**
     * Bytes all string look-ups together may scan. Real files scan each name once; a hostile one could point a
     * million names into one unterminated run, and this budget is what stops that from taking hours.
     */
    static final long STRING_SCAN_BUDGET = 256L << 20;

    private static final int SHN_XINDEX = 0xffff;

    private final ElfSource src;
    private final String file;
    private long scanned;
    private int bits;
    private ByteOrder order;
    private boolean little;

    // Constant layouts: a layout held in an instance field makes every access take the slow generic path.
    private static final ValueLayout.OfShort U16_LE =
            ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort U16_BE = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt U32_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt U32_BE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfLong U64_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong U64_BE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private ElfReader(ElfSource src) {
        this.src = src;
        this.file = src.label();
    }

    /** Reads a file from disk, piece by piece. */
    public static ElfFile read(Path path) throws ElfException {
        try (ElfSource src = ElfSource.open(path)) {
            return read(src);
        } catch (IOException e) {
            throw new ElfException(path + ": cannot read: " + e.getMessage());
        }
    }

    /** Reads from an open source. */
    public static ElfFile read(ElfSource src) throws ElfException {
        return new ElfReader(src).parse();
    }

    private ElfFile parse() throws ElfException {
        MemorySegment ident = src.read(0, Math.min(16, src.size()), "ELF identification");
        if (ident.byteSize() < 16 || ident.get(ValueLayout.JAVA_BYTE, 0) != 0x7f
                || ident.get(ValueLayout.JAVA_BYTE, 1) != 'E' || ident.get(ValueLayout.JAVA_BYTE, 2) != 'L'
                || ident.get(ValueLayout.JAVA_BYTE, 3) != 'F') {
            throw new ElfException(file + ": not an ELF file (no \\x7fELF magic)");
        }
        int cls = ident.get(ValueLayout.JAVA_BYTE, 4);
        int data = ident.get(ValueLayout.JAVA_BYTE, 5);
        int version = ident.get(ValueLayout.JAVA_BYTE, 6);
        if (cls != 1 && cls != 2) {
            throw new ElfException(file + ": e_ident[EI_CLASS] is " + cls + ", neither 1 (32-bit) nor 2 (64-bit)");
        }
        if (data != 1 && data != 2) {
            throw new ElfException(file + ": e_ident[EI_DATA] is " + data
                    + ", neither 1 (little-endian) nor 2 (big-endian)");
        }
        if (version != 1) {
            throw new ElfException(file + ": e_ident[EI_VERSION] is " + version + ", not 1");
        }
        bits = cls == 1 ? 32 : 64;
        order = data == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        little = order == ByteOrder.LITTLE_ENDIAN;

        boolean wide = bits == 64;
        MemorySegment eh = src.read(0, wide ? 64 : 52, "ELF header");
        int type = u16(eh, 16, "e_type");
        int machine = u16(eh, 18, "e_machine");
        long shoff = word(eh, wide ? 40 : 32, "e_shoff");
        int shentsize = u16(eh, wide ? 58 : 46, "e_shentsize");
        long shnum = u16(eh, wide ? 60 : 48, "e_shnum");
        long shstrndx = u16(eh, wide ? 62 : 50, "e_shstrndx");
        if (shoff == 0) {
            throw new ElfException(file + ": no section header table (e_shoff is 0); the file was stripped of it");
        }
        int minEntry = wide ? 64 : 40;
        if (shentsize < minEntry) {
            throw new ElfException(file + ": e_shentsize is " + shentsize + ", smaller than a " + bits
                    + "-bit section header (" + minEntry + ")");
        }
        MemorySegment first = src.read(shoff, shentsize, "section header 0");
        if (shnum == 0) {
            shnum = word(first, wide ? 32 : 20, "section 0 sh_size (the extended section count)");
        }
        if (shstrndx == SHN_XINDEX) {
            shstrndx = u32(first, wide ? 40 : 24, "section 0 sh_link (the extended string table index)");
        }
        if (shnum > MAX_SECTIONS || shnum > src.size() / shentsize) {
            throw new ElfException(file + ": " + shnum + " sections of " + shentsize
                    + " bytes cannot fit in a file of " + src.size() + " bytes");
        }
        MemorySegment table = src.read(shoff, shnum * shentsize, "section header table");
        List<long[]> raw = new ArrayList<>((int) shnum);
        // The table holds shnum entries of shentsize >= a full header, so every field below is in bounds.
        for (int i = 0; i < shnum; i++) {
            long h = (long) i * shentsize;
            long[] f = wide
                    ? new long[] {rawU32(table, h), rawU32(table, h + 4), rawU64(table, h + 24),
                            rawU64(table, h + 32), rawU32(table, h + 40), rawU32(table, h + 44), rawU64(table, h + 56)}
                    : new long[] {rawU32(table, h), rawU32(table, h + 4), rawU32(table, h + 16),
                            rawU32(table, h + 20), rawU32(table, h + 24), rawU32(table, h + 28), rawU32(table, h + 36)};
            if (f[2] < 0 || f[3] < 0 || f[6] < 0) {
                throw new ElfException(file + ": section header " + i + " has an offset or size beyond 2^63");
            }
            raw.add(f);
        }
        byte[] names = null;
        if (shstrndx != 0) {
            if (shstrndx >= shnum) {
                throw new ElfException(file + ": e_shstrndx " + shstrndx + " is not a section (there are " + shnum
                        + ")");
            }
            names = contents(raw.get((int) shstrndx), (int) shstrndx, "section name table");
        }
        List<ElfSection> sections = new ArrayList<>((int) shnum);
        for (int i = 0; i < shnum; i++) {
            long[] f = raw.get(i);
            String name = names == null ? "" : string(names, f[0], "section ", i);
            sections.add(new ElfSection(i, name, f[1], f[2], f[3], f[4], f[5], f[6]));
        }

        List<ElfVersions.Definition> defs = new ArrayList<>();
        List<ElfVersions.Need> needs = new ArrayList<>();
        Map<Integer, String> versionNames = new HashMap<>();
        for (ElfSection s : sections) {
            if (s.type() == ElfSection.SHT_GNU_VERDEF) {
                definitions(s, sections, defs);
            } else if (s.type() == ElfSection.SHT_GNU_VERNEED) {
                needs(s, sections, needs);
            }
        }
        for (ElfVersions.Definition d : defs) {
            versionNames.putIfAbsent(d.index(), d.name());
        }
        for (ElfVersions.Need n : needs) {
            for (ElfVersions.Needed v : n.versions()) {
                versionNames.putIfAbsent(v.index(), v.name());
            }
        }
        List<ElfSymbol> symbols = symbols(sections, versionNames);
        return new ElfFile(file, bits, order, type, machine, sections, symbols, defs, needs);
    }

    private List<ElfSymbol> symbols(List<ElfSection> sections, Map<Integer, String> versionNames)
            throws ElfException {
        ElfSection dynsym = sections.stream().filter(s -> s.type() == ElfSection.SHT_DYNSYM).findFirst().orElse(null);
        if (dynsym == null) {
            return List.of();
        }
        int entry = bits == 64 ? 24 : 16;
        if (dynsym.entsize() != entry && dynsym.entsize() != 0) {
            throw new ElfException(file + ": .dynsym sh_entsize is " + dynsym.entsize() + ", not " + entry);
        }
        if (dynsym.size() % entry != 0) {
            throw new ElfException(file + ": .dynsym size " + dynsym.size() + " is not a multiple of " + entry);
        }
        long count = dynsym.size() / entry;
        if (count > MAX_SYMBOLS) {
            throw new ElfException(file + ": .dynsym holds " + count + " symbols, more than " + MAX_SYMBOLS);
        }
        MemorySegment table = section(dynsym, ".dynsym");
        byte[] strings = linkedStrings(dynsym, sections, ".dynsym");
        int[] versym = null;
        ElfSection vs = sections.stream().filter(s -> s.type() == ElfSection.SHT_GNU_VERSYM).findFirst().orElse(null);
        if (vs != null) {
            if (vs.size() != count * 2) {
                throw new ElfException(file + ": .gnu.version has " + vs.size() / 2 + " entries for " + count
                        + " dynamic symbols");
            }
            MemorySegment v = section(vs, ".gnu.version");
            versym = new int[(int) count];
            for (int i = 0; i < count; i++) {
                versym[i] = rawU16(v, 2L * i);
            }
        }
        List<ElfSymbol> out = new ArrayList<>((int) Math.max(0, count - 1));
        // The table's size is exactly count x entry (checked above), so every field of every entry is in bounds.
        for (int i = 1; i < count; i++) {
            long e = (long) i * entry;
            long nameOff;
            long value;
            long size;
            int info;
            int other;
            int shndx;
            if (bits == 64) {
                nameOff = rawU32(table, e);
                info = rawU8(table, e + 4);
                other = rawU8(table, e + 5);
                shndx = rawU16(table, e + 6);
                value = rawU64(table, e + 8);
                size = rawU64(table, e + 16);
                if (value < 0 || size < 0) {
                    throw new ElfException(file + ": .dynsym entry " + i + " has a value or size beyond 2^63");
                }
            } else {
                nameOff = rawU32(table, e);
                value = rawU32(table, e + 4);
                size = rawU32(table, e + 8);
                info = rawU8(table, e + 12);
                other = rawU8(table, e + 13);
                shndx = rawU16(table, e + 14);
            }
            String name = string(strings, nameOff, ".dynsym entry ", i);
            String version = "";
            boolean hidden = false;
            if (versym != null) {
                int idx = versym[i] & 0x7fff;
                hidden = (versym[i] & 0x8000) != 0;
                if (idx > 1) {
                    version = versionNames.get(idx);
                    if (version == null) {
                        throw new ElfException(file + ": symbol " + printable(name) + " has version index " + idx
                                + ", which no version definition or need declares");
                    }
                }
            }
            out.add(new ElfSymbol(name, value, size, info & 0xf, (info >> 4) & 0xf, other & 0x3, shndx, version,
                    hidden));
        }
        return out;
    }

    private void definitions(ElfSection s, List<ElfSection> sections, List<ElfVersions.Definition> out)
            throws ElfException {
        MemorySegment seg = section(s, ".gnu.version_d");
        byte[] strings = linkedStrings(s, sections, ".gnu.version_d");
        long limit = Math.min(s.info(), s.size() / 20);
        long off = 0;
        for (long i = 0; i < limit; i++) {
            String what = ".gnu.version_d entry " + i;
            int version = u16(seg, off, what);
            if (version != 1) {
                throw new ElfException(file + ": " + what + " has vd_version " + version + ", not 1");
            }
            int flags = u16(seg, off + 2, what);
            int ndx = u16(seg, off + 4, what);
            int cnt = u16(seg, off + 6, what);
            long aux = u32(seg, off + 12, what);
            long next = u32(seg, off + 16, what);
            List<String> names = new ArrayList<>();
            long a = off + aux;
            for (int j = 0; j < cnt && j <= s.size() / 8; j++) {
                String auxWhat = what + " name " + j;
                names.add(string(strings, u32(seg, a, auxWhat), auxWhat));
                long an = u32(seg, a + 4, auxWhat);
                if (an == 0) {
                    break;
                }
                a += an;
            }
            if (names.isEmpty()) {
                throw new ElfException(file + ": " + what + " (index " + ndx + ") has no name");
            }
            out.add(new ElfVersions.Definition(ndx, flags, names.getFirst(), names.subList(1, names.size())));
            if (next == 0) {
                break;
            }
            off += next;
        }
    }

    private void needs(ElfSection s, List<ElfSection> sections, List<ElfVersions.Need> out) throws ElfException {
        MemorySegment seg = section(s, ".gnu.version_r");
        byte[] strings = linkedStrings(s, sections, ".gnu.version_r");
        long limit = Math.min(s.info(), s.size() / 16);
        long off = 0;
        for (long i = 0; i < limit; i++) {
            String what = ".gnu.version_r entry " + i;
            int version = u16(seg, off, what);
            if (version != 1) {
                throw new ElfException(file + ": " + what + " has vn_version " + version + ", not 1");
            }
            int cnt = u16(seg, off + 2, what);
            String lib = string(strings, u32(seg, off + 4, what), "library of " + what);
            long aux = u32(seg, off + 8, what);
            long next = u32(seg, off + 12, what);
            List<ElfVersions.Needed> versions = new ArrayList<>();
            long a = off + aux;
            for (int j = 0; j < cnt && j <= s.size() / 16; j++) {
                String auxWhat = what + " version " + j;
                int flags = u16(seg, a + 4, auxWhat);
                int other = u16(seg, a + 6, auxWhat);
                String name = string(strings, u32(seg, a + 8, auxWhat), auxWhat);
                versions.add(new ElfVersions.Needed(other, flags, name));
                long an = u32(seg, a + 12, auxWhat);
                if (an == 0) {
                    break;
                }
                a += an;
            }
            out.add(new ElfVersions.Need(lib, versions));
            if (next == 0) {
                break;
            }
            off += next;
        }
    }

    private MemorySegment section(ElfSection s, String what) throws ElfException {
        if (s.type() == ElfSection.SHT_NOBITS) {
            throw new ElfException(file + ": " + what + " (section " + s.index() + ") occupies no bytes in the file");
        }
        return src.read(s.offset(), s.size(), what + " (section " + s.index() + ")");
    }

    private byte[] linkedStrings(ElfSection s, List<ElfSection> sections, String what) throws ElfException {
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

    private byte[] contents(long[] header, int index, String what) throws ElfException {
        if (header[1] == ElfSection.SHT_NOBITS) {
            throw new ElfException(file + ": " + what + " (section " + index + ") occupies no bytes in the file");
        }
        return src.read(header[2], header[3], what + " (section " + index + ")").toArray(ValueLayout.JAVA_BYTE);
    }

    /** A name for entry {@code index} of a table; the message is built only when the name is bad. */
    private String string(byte[] strings, long offset, String entryOf, int index) throws ElfException {
        return string(strings, offset, null, entryOf, index);
    }

    private String string(byte[] strings, long offset, String what) throws ElfException {
        return string(strings, offset, what, null, 0);
    }

    private String string(byte[] strings, long offset, String what, String entryOf, int index) throws ElfException {
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

    private static String describe(String what, String entryOf, int index) {
        return what != null ? what : "name of " + entryOf + index;
    }

    private static int rawU8(MemorySegment s, long off) {
        return s.get(ValueLayout.JAVA_BYTE, off) & 0xff;
    }

    private int rawU16(MemorySegment s, long off) {
        return (little ? s.get(U16_LE, off) : s.get(U16_BE, off)) & 0xffff;
    }

    private long rawU32(MemorySegment s, long off) {
        return (little ? s.get(U32_LE, off) : s.get(U32_BE, off)) & 0xffff_ffffL;
    }

    private long rawU64(MemorySegment s, long off) {
        return little ? s.get(U64_LE, off) : s.get(U64_BE, off);
    }

    private int u16(MemorySegment s, long off, String what) throws ElfException {
        check(s, off, 2, what);
        return (little ? s.get(U16_LE, off) : s.get(U16_BE, off)) & 0xffff;
    }

    private long u32(MemorySegment s, long off, String what) throws ElfException {
        check(s, off, 4, what);
        return (little ? s.get(U32_LE, off) : s.get(U32_BE, off)) & 0xffff_ffffL;
    }

    /** An address-sized field: 4 bytes in a 32-bit file, 8 in a 64-bit one; above 2^63 is refused. */
    private long word(MemorySegment s, long off, String what) throws ElfException {
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

    private void check(MemorySegment s, long off, int n, String what) throws ElfException {
        if (off < 0 || off > s.byteSize() - n) {
            throw new ElfException(file + ": " + what + " is cut off (offset " + off + " of " + s.byteSize()
                    + " bytes)");
        }
    }

    private static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length() && i < 80; i++) {
            char c = s.charAt(i);
            sb.append(c < 0x20 || c == 0x7f ? '?' : c);
        }
        return sb.toString();
    }
}
