package io.xdlink.cli.elf;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes small but complete ELF shared objects in any class and byte order: .dynsym with .dynstr, .gnu.version,
 * .gnu.version_d, .gnu.version_r, .rodata and .shstrtab, laid out as a linker would. The machine has no 32-bit or
 * big-endian toolchain, so this is how the reader meets those layouts; the 64-bit little-endian output was checked
 * against readelf when this builder was written.
 */
public final class ElfBuilder {
    private final int bits;
    private final ByteOrder order;
    private final List<Sym> symbols = new ArrayList<>();
    private final List<Def> defs = new ArrayList<>();
    private final Map<String, List<Def>> needs = new LinkedHashMap<>();
    private byte[] rodata = new byte[16];

    private record Sym(String name, int type, int bind, int vis, boolean defined, int version, boolean hidden) { }

    private record Def(int index, int flags, String name, List<String> parents) { }

    public ElfBuilder(int bits, ByteOrder order) {
        this.bits = bits;
        this.order = order;
    }

    public static ElfBuilder x86_64() {
        return new ElfBuilder(64, ByteOrder.LITTLE_ENDIAN);
    }

    /** A global data object defined here, unversioned. */
    public ElfBuilder object(String name) {
        return symbol(name, ElfSymbol.STT_OBJECT, ElfSymbol.STB_GLOBAL, 0, true, 1, false);
    }

    /** A global function defined here with a version index. */
    public ElfBuilder function(String name, int version) {
        return symbol(name, ElfSymbol.STT_FUNC, ElfSymbol.STB_GLOBAL, 0, true, version, false);
    }

    /** An imported (undefined) function with a version index. */
    public ElfBuilder imported(String name, int version) {
        return symbol(name, ElfSymbol.STT_FUNC, ElfSymbol.STB_GLOBAL, 0, false, version, false);
    }

    public ElfBuilder symbol(String name, int type, int bind, int vis, boolean defined, int version, boolean hidden) {
        symbols.add(new Sym(name, type, bind, vis, defined, version, hidden));
        return this;
    }

    /** A version definition; index 1 with flags 1 is the base (the soname). */
    public ElfBuilder define(int index, int flags, String name, String... parents) {
        defs.add(new Def(index, flags, name, List.of(parents)));
        return this;
    }

    /** A version needed from a library. */
    public ElfBuilder need(String library, int index, String name) {
        needs.computeIfAbsent(library, k -> new ArrayList<>()).add(new Def(index, 0, name, List.of()));
        return this;
    }

    public ElfBuilder rodata(byte[] bytes) {
        this.rodata = bytes.clone();
        return this;
    }

    public byte[] build() {
        boolean wide = bits == 64;
        Strings dynstr = new Strings();
        // .dynsym
        int symEnt = wide ? 24 : 16;
        Buf dynsym = new Buf();
        dynsym.zero(symEnt);
        for (Sym s : symbols) {
            int name = dynstr.add(s.name);
            int info = (s.bind << 4) | s.type;
            int shndx = s.defined ? 5 : 0;
            if (wide) {
                dynsym.u32(name).u8(info).u8(s.vis).u16(shndx).u64(s.defined ? 0x1000 : 0).u64(8);
            } else {
                dynsym.u32(name).u32(s.defined ? 0x1000 : 0).u32(8).u8(info).u8(s.vis).u16(shndx);
            }
        }
        // .gnu.version
        Buf versym = new Buf();
        versym.u16(0);
        for (Sym s : symbols) {
            versym.u16(s.version | (s.hidden ? 0x8000 : 0));
        }
        // .gnu.version_d
        Buf verdef = new Buf();
        for (int i = 0; i < defs.size(); i++) {
            Def d = defs.get(i);
            int cnt = 1 + d.parents.size();
            int size = 20 + 8 * cnt;
            verdef.u16(1).u16(d.flags).u16(d.index).u16(cnt).u32(hash(d.name)).u32(20)
                    .u32(i + 1 < defs.size() ? size : 0);
            List<String> all = new ArrayList<>();
            all.add(d.name);
            all.addAll(d.parents);
            for (int j = 0; j < all.size(); j++) {
                verdef.u32(dynstr.add(all.get(j))).u32(j + 1 < all.size() ? 8 : 0);
            }
        }
        // .gnu.version_r
        Buf verneed = new Buf();
        List<Map.Entry<String, List<Def>>> libs = new ArrayList<>(needs.entrySet());
        for (int i = 0; i < libs.size(); i++) {
            List<Def> vs = libs.get(i).getValue();
            int size = 16 + 16 * vs.size();
            verneed.u16(1).u16(vs.size()).u32(dynstr.add(libs.get(i).getKey())).u32(16)
                    .u32(i + 1 < libs.size() ? size : 0);
            for (int j = 0; j < vs.size(); j++) {
                Def v = vs.get(j);
                verneed.u32(hash(v.name)).u16(0).u16(v.index).u32(dynstr.add(v.name)).u32(j + 1 < vs.size() ? 16 : 0);
            }
        }
        Strings shstr = new Strings();
        record Sec(String name, long type, byte[] data, int link, int info, int entsize) { }
        List<Sec> secs = new ArrayList<>();
        secs.add(new Sec(".dynsym", ElfSection.SHT_DYNSYM, dynsym.bytes(), 2, 1, symEnt));
        secs.add(new Sec(".dynstr", ElfSection.SHT_STRTAB, dynstr.bytes(), 0, 0, 0));
        secs.add(new Sec(".gnu.version", ElfSection.SHT_GNU_VERSYM, versym.bytes(), 1, 0, 2));
        secs.add(new Sec(".gnu.version_d", ElfSection.SHT_GNU_VERDEF, verdef.bytes(), 2, defs.size(), 0));
        secs.add(new Sec(".rodata", 1, rodata, 0, 0, 0));
        secs.add(new Sec(".gnu.version_r", ElfSection.SHT_GNU_VERNEED, verneed.bytes(), 2, libs.size(), 0));
        secs.add(new Sec(".shstrtab", ElfSection.SHT_STRTAB, null, 0, 0, 0));
        int[] names = new int[secs.size()];
        for (int i = 0; i < secs.size(); i++) {
            names[i] = shstr.add(secs.get(i).name);
        }
        int ehsize = wide ? 64 : 52;
        Buf body = new Buf();
        long[] offsets = new long[secs.size()];
        long[] sizes = new long[secs.size()];
        for (int i = 0; i < secs.size(); i++) {
            while ((ehsize + body.size()) % 8 != 0) {
                body.u8(0);
            }
            byte[] data = secs.get(i).data == null ? shstr.bytes() : secs.get(i).data;
            offsets[i] = ehsize + body.size();
            sizes[i] = data.length;
            body.raw(data);
        }
        while ((ehsize + body.size()) % 8 != 0) {
            body.u8(0);
        }
        long shoff = ehsize + body.size();
        int shentsize = wide ? 64 : 40;
        Buf out = new Buf();
        out.raw(new byte[] {0x7f, 'E', 'L', 'F', (byte) (wide ? 2 : 1), (byte) (order == ByteOrder.LITTLE_ENDIAN ? 1 : 2),
                1, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        out.u16(3).u16(wide ? 62 : 3).u32(1);
        if (wide) {
            out.u64(0).u64(0).u64(shoff);
        } else {
            out.u32(0).u32(0).u32((int) shoff);
        }
        out.u32(0).u16(ehsize).u16(wide ? 56 : 32).u16(0).u16(shentsize).u16(secs.size() + 1).u16(secs.size());
        out.raw(body.bytes());
        out.zero(shentsize);
        for (int i = 0; i < secs.size(); i++) {
            Sec s = secs.get(i);
            int link = s.link == 0 ? 0 : s.link;
            if (wide) {
                out.u32(names[i]).u32((int) s.type).u64(2).u64(0).u64(offsets[i]).u64(sizes[i]).u32(link).u32(s.info)
                        .u64(8).u64(s.entsize);
            } else {
                out.u32(names[i]).u32((int) s.type).u32(2).u32(0).u32((int) offsets[i]).u32((int) sizes[i]).u32(link)
                        .u32(s.info).u32(8).u32(s.entsize);
            }
        }
        return out.bytes();
    }

    /** Offset of the section header table in what {@link #build()} returns (for targeted corruption). */
    public static long sectionHeaderOffset(byte[] elf) {
        ByteBuffer b = ByteBuffer.wrap(elf).order(elf[5] == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
        return elf[4] == 2 ? b.getLong(40) : Integer.toUnsignedLong(b.getInt(32));
    }

    static int hash(String name) {
        long h = 0;
        for (byte c : name.getBytes(StandardCharsets.UTF_8)) {
            h = (h << 4) + (c & 0xff);
            long g = h & 0xf0000000L;
            if (g != 0) {
                h ^= g >> 24;
            }
            h &= ~g;
        }
        return (int) h;
    }

    private final class Buf {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Buf u8(int v) {
            out.write(v);
            return this;
        }

        Buf u16(int v) {
            return put(ByteBuffer.allocate(2).order(order).putShort((short) v));
        }

        Buf u32(int v) {
            return put(ByteBuffer.allocate(4).order(order).putInt(v));
        }

        Buf u64(long v) {
            return put(ByteBuffer.allocate(8).order(order).putLong(v));
        }

        Buf zero(int n) {
            return raw(new byte[n]);
        }

        Buf raw(byte[] b) {
            out.writeBytes(b);
            return this;
        }

        private Buf put(ByteBuffer b) {
            return raw(b.array());
        }

        int size() {
            return out.size();
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }

    private static final class Strings {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final Map<String, Integer> seen = new LinkedHashMap<>();

        Strings() {
            out.write(0);
        }

        int add(String s) {
            return seen.computeIfAbsent(s, k -> {
                int at = out.size();
                out.writeBytes(k.getBytes(StandardCharsets.UTF_8));
                out.write(0);
                return at;
            });
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}
