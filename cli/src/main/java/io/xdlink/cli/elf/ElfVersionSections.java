package io.xdlink.cli.elf;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The GNU symbol-version sections: {@code .gnu.version_d} (versions an object defines) and {@code .gnu.version_r}
 * (versions it needs). Both are chains of records linked by relative offsets; each walk is bounded by the entry
 * count the section header declares and by what the section could hold, so a chain that points back on itself ends.
 */
final class ElfVersionSections {
    private ElfVersionSections() {
    }

    static void definitions(ElfFields f, ElfSection s, List<ElfSection> sections, List<ElfVersions.Definition> out)
            throws ElfException {
        MemorySegment seg = f.section(s, ".gnu.version_d");
        byte[] strings = f.linkedStrings(s, sections, ".gnu.version_d");
        long limit = Math.min(s.info(), s.size() / 20);
        long off = 0;
        for (long i = 0; i < limit; i++) {
            String what = ".gnu.version_d entry " + i;
            int version = f.u16(seg, off, what);
            if (version != 1) {
                throw new ElfException(f.file() + ": " + what + " has vd_version " + version + ", not 1");
            }
            int flags = f.u16(seg, off + 2, what);
            int ndx = f.u16(seg, off + 4, what);
            int cnt = f.u16(seg, off + 6, what);
            long aux = f.u32(seg, off + 12, what);
            long next = f.u32(seg, off + 16, what);
            List<String> names = new ArrayList<>();
            long a = off + aux;
            for (int j = 0; j < cnt && j <= s.size() / 8; j++) {
                String auxWhat = what + " name " + j;
                names.add(f.string(strings, f.u32(seg, a, auxWhat), auxWhat));
                long an = f.u32(seg, a + 4, auxWhat);
                if (an == 0) {
                    break;
                }
                a += an;
            }
            if (names.isEmpty()) {
                throw new ElfException(f.file() + ": " + what + " (index " + ndx + ") has no name");
            }
            out.add(new ElfVersions.Definition(ndx, flags, names.getFirst(), names.subList(1, names.size())));
            if (next == 0) {
                break;
            }
            off += next;
        }
    }

    static void needs(ElfFields f, ElfSection s, List<ElfSection> sections, List<ElfVersions.Need> out)
            throws ElfException {
        MemorySegment seg = f.section(s, ".gnu.version_r");
        byte[] strings = f.linkedStrings(s, sections, ".gnu.version_r");
        long limit = Math.min(s.info(), s.size() / 16);
        long off = 0;
        for (long i = 0; i < limit; i++) {
            String what = ".gnu.version_r entry " + i;
            int version = f.u16(seg, off, what);
            if (version != 1) {
                throw new ElfException(f.file() + ": " + what + " has vn_version " + version + ", not 1");
            }
            int cnt = f.u16(seg, off + 2, what);
            String lib = f.string(strings, f.u32(seg, off + 4, what), "library of " + what);
            long aux = f.u32(seg, off + 8, what);
            long next = f.u32(seg, off + 12, what);
            List<ElfVersions.Needed> versions = new ArrayList<>();
            long a = off + aux;
            for (int j = 0; j < cnt && j <= s.size() / 16; j++) {
                String auxWhat = what + " version " + j;
                int flags = f.u16(seg, a + 4, auxWhat);
                int other = f.u16(seg, a + 6, auxWhat);
                String name = f.string(strings, f.u32(seg, a + 8, auxWhat), auxWhat);
                versions.add(new ElfVersions.Needed(other, flags, name));
                long an = f.u32(seg, a + 12, auxWhat);
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
}
