package io.xdlink.cli.elf;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
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

    private static final int SHN_XINDEX = 0xffff;

    private final ElfSource src;
    private final String file;
    private int bits;
    private ByteOrder order;
    private ElfFields f;

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
        f = new ElfFields(src, bits, order);

        boolean wide = bits == 64;
        MemorySegment eh = src.read(0, wide ? 64 : 52, "ELF header");
        int type = f.u16(eh, 16, "e_type");
        int machine = f.u16(eh, 18, "e_machine");
        long shoff = f.word(eh, wide ? 40 : 32, "e_shoff");
        int shentsize = f.u16(eh, wide ? 58 : 46, "e_shentsize");
        long shnum = f.u16(eh, wide ? 60 : 48, "e_shnum");
        long shstrndx = f.u16(eh, wide ? 62 : 50, "e_shstrndx");
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
            shnum = f.word(first, wide ? 32 : 20, "section 0 sh_size (the extended section count)");
        }
        if (shstrndx == SHN_XINDEX) {
            shstrndx = f.u32(first, wide ? 40 : 24, "section 0 sh_link (the extended string table index)");
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
            long[] hdr = wide
                    ? new long[] {f.rawU32(table, h), f.rawU32(table, h + 4), f.rawU64(table, h + 24),
                            f.rawU64(table, h + 32), f.rawU32(table, h + 40), f.rawU32(table, h + 44),
                            f.rawU64(table, h + 56)}
                    : new long[] {f.rawU32(table, h), f.rawU32(table, h + 4), f.rawU32(table, h + 16),
                            f.rawU32(table, h + 20), f.rawU32(table, h + 24), f.rawU32(table, h + 28),
                            f.rawU32(table, h + 36)};
            if (hdr[2] < 0 || hdr[3] < 0 || hdr[6] < 0) {
                throw new ElfException(file + ": section header " + i + " has an offset or size beyond 2^63");
            }
            raw.add(hdr);
        }
        byte[] names = null;
        if (shstrndx != 0) {
            if (shstrndx >= shnum) {
                throw new ElfException(file + ": e_shstrndx " + shstrndx + " is not a section (there are " + shnum
                        + ")");
            }
            names = f.contents(raw.get((int) shstrndx), (int) shstrndx, "section name table");
        }
        List<ElfSection> sections = new ArrayList<>((int) shnum);
        for (int i = 0; i < shnum; i++) {
            long[] hdr = raw.get(i);
            String name = names == null ? "" : f.string(names, hdr[0], "section ", i);
            sections.add(new ElfSection(i, name, hdr[1], hdr[2], hdr[3], hdr[4], hdr[5], hdr[6]));
        }

        List<ElfVersions.Definition> defs = new ArrayList<>();
        List<ElfVersions.Need> needs = new ArrayList<>();
        Map<Integer, String> versionNames = new HashMap<>();
        for (ElfSection s : sections) {
            if (s.type() == ElfSection.SHT_GNU_VERDEF) {
                ElfVersionSections.definitions(f, s, sections, defs);
            } else if (s.type() == ElfSection.SHT_GNU_VERNEED) {
                ElfVersionSections.needs(f, s, sections, needs);
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
        MemorySegment table = f.section(dynsym, ".dynsym");
        byte[] strings = f.linkedStrings(dynsym, sections, ".dynsym");
        int[] versym = null;
        ElfSection vs = sections.stream().filter(s -> s.type() == ElfSection.SHT_GNU_VERSYM).findFirst().orElse(null);
        if (vs != null) {
            if (vs.size() != count * 2) {
                throw new ElfException(file + ": .gnu.version has " + vs.size() / 2 + " entries for " + count
                        + " dynamic symbols");
            }
            MemorySegment v = f.section(vs, ".gnu.version");
            versym = new int[(int) count];
            for (int i = 0; i < count; i++) {
                versym[i] = f.rawU16(v, 2L * i);
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
                nameOff = f.rawU32(table, e);
                info = f.rawU8(table, e + 4);
                other = f.rawU8(table, e + 5);
                shndx = f.rawU16(table, e + 6);
                value = f.rawU64(table, e + 8);
                size = f.rawU64(table, e + 16);
                if (value < 0 || size < 0) {
                    throw new ElfException(file + ": .dynsym entry " + i + " has a value or size beyond 2^63");
                }
            } else {
                nameOff = f.rawU32(table, e);
                value = f.rawU32(table, e + 4);
                size = f.rawU32(table, e + 8);
                info = f.rawU8(table, e + 12);
                other = f.rawU8(table, e + 13);
                shndx = f.rawU16(table, e + 14);
            }
            String name = f.string(strings, nameOff, ".dynsym entry ", i);
            String version = "";
            boolean hidden = false;
            if (versym != null) {
                int idx = versym[i] & 0x7fff;
                hidden = (versym[i] & 0x8000) != 0;
                if (idx > 1) {
                    version = versionNames.get(idx);
                    if (version == null) {
                        throw new ElfException(file + ": symbol " + f.printable(name) + " has version index " + idx
                                + ", which no version definition or need declares");
                    }
                }
            }
            out.add(new ElfSymbol(name, value, size, info & 0xf, (info >> 4) & 0xf, other & 0x3, shndx, version,
                    hidden));
        }
        return out;
    }

}
