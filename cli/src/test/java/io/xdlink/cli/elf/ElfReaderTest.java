package io.xdlink.cli.elf;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ElfReaderTest {
    static Stream<Arguments> layouts() {
        return Stream.of(Arguments.of(32, ByteOrder.LITTLE_ENDIAN), Arguments.of(32, ByteOrder.BIG_ENDIAN),
                Arguments.of(64, ByteOrder.LITTLE_ENDIAN), Arguments.of(64, ByteOrder.BIG_ENDIAN));
    }

    static byte[] provider(int bits, ByteOrder order) {
        return new ElfBuilder(bits, order)
                .define(1, 1, "libodl_tb5-rdmav34.so")
                .define(2, 0, "ODL_1.0")
                .need("libibverbs.so.1", 3, "IBVERBS_PRIVATE_34")
                .need("libibverbs.so.1", 4, "IBVERBS_1.1")
                .need("libc.so.6", 5, "GLIBC_2.2.5")
                .object("ncclNetPlugin_v8")
                .function("odl_init", 2)
                .imported("verbs_register_driver_34", 3)
                .imported("malloc", 5)
                .symbol("hidden_thing", ElfSymbol.STT_FUNC, ElfSymbol.STB_GLOBAL, 2, true, 1, false)
                .symbol("local_thing", ElfSymbol.STT_FUNC, 0, 0, true, 0, false)
                .build();
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void readsEveryClassAndByteOrder(int bits, ByteOrder order) throws ElfException {
        ElfFile f = ElfReader.read(ElfSource.of("p.so", provider(bits, order)));

        assertThat(f.bits()).isEqualTo(bits);
        assertThat(f.order()).isEqualTo(order);
        assertThat(f.type()).isEqualTo(3);
        assertThat(f.section(".dynsym")).isPresent();
        assertThat(f.dynamicSymbols()).extracting(ElfSymbol::name).containsExactly("ncclNetPlugin_v8", "odl_init",
                "verbs_register_driver_34", "malloc", "hidden_thing", "local_thing");
        assertThat(f.exportedSymbols()).extracting(ElfSymbol::name).containsExactly("ncclNetPlugin_v8", "odl_init");
        assertThat(f.dynamicSymbols().get(0).type()).isEqualTo(ElfSymbol.STT_OBJECT);
        assertThat(f.dynamicSymbols().get(1).version()).isEqualTo("ODL_1.0");
        assertThat(f.dynamicSymbols().get(2).version()).isEqualTo("IBVERBS_PRIVATE_34");
        assertThat(f.dynamicSymbols().get(2).sectionIndex()).isZero();
        assertThat(f.definedVersions()).containsExactly("ODL_1.0");
        assertThat(f.versionDefinitions().getFirst().base()).isTrue();
        assertThat(f.neededVersions()).containsExactly("IBVERBS_PRIVATE_34", "IBVERBS_1.1", "GLIBC_2.2.5");
        assertThat(f.versionNeeds()).extracting(ElfVersions.Need::file).containsExactly("libibverbs.so.1", "libc.so.6");
    }

    @Test
    void versionParentsAndHiddenVersions() throws ElfException {
        byte[] elf = ElfBuilder.x86_64().define(1, 1, "libibverbs.so.1").define(2, 0, "IBVERBS_1.0")
                .define(3, 0, "IBVERBS_1.1", "IBVERBS_1.0").define(4, 0, "IBVERBS_PRIVATE_59")
                .symbol("ibv_open_device", ElfSymbol.STT_FUNC, ElfSymbol.STB_GLOBAL, 0, true, 2, true)
                .function("ibv_open_device", 3).function("verbs_register_driver_59", 4).build();

        ElfFile f = ElfReader.read(ElfSource.of("libibverbs.so.1", elf));

        assertThat(f.definedVersions()).containsExactly("IBVERBS_1.0", "IBVERBS_1.1", "IBVERBS_PRIVATE_59");
        assertThat(f.versionDefinitions().get(2).parents()).containsExactly("IBVERBS_1.0");
        assertThat(f.dynamicSymbols().get(0).hiddenVersion()).isTrue();
        assertThat(f.dynamicSymbols().get(1).hiddenVersion()).isFalse();
    }

    @Test
    void readsThisMachinesLibc() throws ElfException {
        Path libc = Path.of("/usr/lib/x86_64-linux-gnu/libc.so.6");
        assumeTrue(Files.isRegularFile(libc), "no x86-64 glibc here");

        ElfFile f = ElfReader.read(libc);

        assertThat(f.bits()).isEqualTo(64);
        assertThat(f.definedVersions()).contains("GLIBC_2.2.5", "GLIBC_2.34");
        assertThat(f.exportedSymbols()).anySatisfy(s -> {
            assertThat(s.name()).isEqualTo("printf");
            assertThat(s.version()).isEqualTo("GLIBC_2.2.5");
        });
    }

    @Test
    void readsFromAFileInPieces(@TempDir Path dir) throws Exception {
        Path p = dir.resolve("lib.so");
        Files.write(p, provider(64, ByteOrder.LITTLE_ENDIAN));
        assertThat(ElfReader.read(p).exportedSymbols()).hasSize(2);
    }

    @Test
    void notElfAndBadIdentification() {
        assertThatThrownBy(() -> ElfReader.read(ElfSource.of("x", "#!/bin/sh\n".getBytes())))
                .isInstanceOf(ElfException.class).hasMessage("x: not an ELF file (no \\x7fELF magic)");
        assertThatThrownBy(() -> ElfReader.read(ElfSource.of("x", new byte[0]))).hasMessageContaining("not an ELF");
        byte[] elf = provider(64, ByteOrder.LITTLE_ENDIAN);
        elf[4] = 3;
        assertThatThrownBy(() -> ElfReader.read(ElfSource.of("x", elf)))
                .hasMessage("x: e_ident[EI_CLASS] is 3, neither 1 (32-bit) nor 2 (64-bit)");
        elf[4] = 2;
        elf[5] = 0;
        assertThatThrownBy(() -> ElfReader.read(ElfSource.of("x", elf))).hasMessageContaining("EI_DATA] is 0");
    }

    @Test
    void everyTruncationIsAnElfException() {
        for (int bits : new int[] {32, 64}) {
            byte[] full = provider(bits, ByteOrder.BIG_ENDIAN);
            for (int len = 0; len < full.length; len++) {
                byte[] cut = java.util.Arrays.copyOf(full, len);
                int at = len;
                assertThatThrownBy(() -> ElfReader.read(ElfSource.of("cut", cut))).as("length %d", at)
                        .isInstanceOf(ElfException.class).hasMessageStartingWith("cut: ");
            }
        }
    }

    @Test
    void sectionTableOutsideTheFile() {
        byte[] elf = provider(64, ByteOrder.LITTLE_ENDIAN);
        ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN).putLong(40, elf.length - 10);
        assertThatThrownBy(() -> ElfReader.read(ElfSource.of("x", elf))).hasMessageContaining("runs past the end");
        ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN).putLong(40, 0x8000_0000_0000_0000L);
        assertThatThrownBy(() -> ElfReader.read(ElfSource.of("x", elf))).hasMessageContaining("e_shoff");
        ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN).putLong(40, 0);
        assertThatThrownBy(() -> ElfReader.read(ElfSource.of("x", elf))).hasMessageContaining("no section header");
    }

    @Test
    void hostileCountsAndLinks() {
        byte[] elf = provider(64, ByteOrder.LITTLE_ENDIAN);
        ByteBuffer b = ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN);
        int shoff = (int) ElfBuilder.sectionHeaderOffset(elf);
        b.putShort(60, (short) 0xfff0);
        assertThatThrownBy(() -> ElfReader.read(ElfSource.of("x", elf))).hasMessageContaining("cannot fit");
        b.putShort(60, (short) 8);
        b.putShort(58, (short) 20);
        assertThatThrownBy(() -> ElfReader.read(ElfSource.of("x", elf))).hasMessageContaining("e_shentsize is 20");
        b.putShort(58, (short) 64);
        // .dynsym (section 1) linked to itself instead of .dynstr
        b.putInt(shoff + 64 + 40, 1);
        assertThatThrownBy(() -> ElfReader.read(ElfSource.of("x", elf))).hasMessageContaining("not a string table");
        b.putInt(shoff + 64 + 40, 2);
        // .dynstr (section 2) shrunk so names fall outside it
        b.putLong(shoff + 128 + 32, 3);
        assertThatThrownBy(() -> ElfReader.read(ElfSource.of("x", elf))).hasMessageContaining("outside its table of 3 bytes");
    }

    @Test
    void versionIndexNothingDeclaresIsNamed() {
        byte[] elf = ElfBuilder.x86_64().define(1, 1, "lib.so").function("f", 9).build();
        assertThatThrownBy(() -> ElfReader.read(ElfSource.of("x", elf)))
                .hasMessage("x: symbol f has version index 9, which no version definition or need declares");
    }

    @Test
    void badVersionRecord() {
        byte[] elf = ElfBuilder.x86_64().define(1, 1, "lib.so").define(2, 0, "V").function("f", 2).build();
        ByteBuffer b = ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN);
        int shoff = (int) ElfBuilder.sectionHeaderOffset(elf);
        int verdefOff = (int) b.getLong(shoff + 4 * 64 + 24);
        b.putShort(verdefOff, (short) 7);
        assertThatThrownBy(() -> ElfReader.read(ElfSource.of("x", elf)))
                .hasMessage("x: .gnu.version_d entry 0 has vd_version 7, not 1");
    }

    /**
     * Seeded mutations of real ELF files (this machine's libc and small glibc stubs, where present) and of built ones
     * in all four layouts: every case either reads or throws ElfException naming the file; nothing else escapes.
     * Mutations aim at what the reader interprets (the ELF header, the section header table and the sections it
     * reads), since a byte changed in machine code tests nothing. Reproduce with -Dxdlink.seed=N; size with
     * -Dxdlink.elf.cases=N.
     */
    @Test
    void seededMutationsNeverEscape() throws Exception {
        long seed = Long.getLong("xdlink.seed", System.nanoTime());
        int cases = Integer.getInteger("xdlink.elf.cases", 100_000);
        System.out.println("ElfReaderTest.seededMutationsNeverEscape seed " + seed + " (-Dxdlink.seed=" + seed + ")");
        java.util.Random rnd = new java.util.Random(seed);
        record Target(String name, byte[] bytes, long[][] ranges, int weight) { }
        java.util.List<Target> corpus = new java.util.ArrayList<>();
        for (Arguments a : layouts().toList()) {
            byte[] b = provider((int) a.get()[0], (ByteOrder) a.get()[1]);
            corpus.add(new Target("built-" + a.get()[0] + "-" + a.get()[1], b, ranges(b), 20));
        }
        for (String lib : new String[] {"libdl.so.2", "libanl.so.1", "librt.so.1"}) {
            Path p = Path.of("/usr/lib/x86_64-linux-gnu", lib);
            if (Files.isRegularFile(p) && Files.size(p) < (1 << 20)) {
                byte[] b = Files.readAllBytes(p);
                corpus.add(new Target(lib, b, ranges(b), 20));
            }
        }
        Path libc = Path.of("/usr/lib/x86_64-linux-gnu/libc.so.6");
        if (Files.isRegularFile(libc)) {
            byte[] b = Files.readAllBytes(libc);
            corpus.add(new Target("libc.so.6", b, ranges(b), 1));
        }
        int totalWeight = corpus.stream().mapToInt(Target::weight).sum();
        long[] interesting = {0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff, 0xffff, 0x7fff_ffffL, 0x8000_0000L, 0xffff_ffffL,
                0x7fff_ffff_ffff_ffffL, -1L};
        int ok = 0;
        int refused = 0;
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpuStart = threads.getCurrentThreadCpuTime();
        for (int c = 0; c < cases; c++) {
            int w = rnd.nextInt(totalWeight);
            Target t = corpus.getFirst();
            for (Target x : corpus) {
                if ((w -= x.weight) < 0) {
                    t = x;
                    break;
                }
            }
            byte[] b = t.bytes;
            int n = 1 + rnd.nextInt(4);
            int[] at = new int[n * 8];
            byte[] saved = new byte[n * 8];
            int touched = 0;
            StringBuilder how = new StringBuilder();
            for (int k = 0; k < n; k++) {
                long[] r = t.ranges[rnd.nextInt(t.ranges.length)];
                int pos = (int) (r[0] + (r[1] > r[0] ? rnd.nextLong(r[1] - r[0]) : 0));
                int op = rnd.nextInt(4);
                int width = op == 3 ? (rnd.nextBoolean() ? 4 : 8) : 1;
                long v = op == 3 ? interesting[rnd.nextInt(interesting.length)] : 0;
                for (int j = 0; j < width && pos + j < b.length; j++) {
                    at[touched] = pos + j;
                    saved[touched++] = b[pos + j];
                    b[pos + j] = switch (op) {
                        case 0 -> (byte) rnd.nextInt(256);
                        case 1 -> (byte) (b[pos + j] ^ (1 << rnd.nextInt(8)));
                        case 2 -> (byte) (rnd.nextBoolean() ? 0 : 0xff);
                        default -> (byte) (v >>> (8 * (b[5] == 2 ? width - 1 - j : j)));
                    };
                }
                how.append(' ').append(pos).append(':').append(op);
            }
            int length = rnd.nextInt(10) == 0 ? rnd.nextInt(b.length + 1) : b.length;
            try {
                ElfReader.read(ElfSource.of(t.name, b, length));
                ok++;
            } catch (ElfException e) {
                refused++;
                if (!e.getMessage().startsWith(t.name + ": ")) {
                    throw new AssertionError("seed " + seed + " case " + c + ": message does not name the file: "
                            + e.getMessage());
                }
            } catch (Throwable e) {
                throw new AssertionError("seed " + seed + " case " + c + " (" + t.name + ", length " + length
                        + ", mutations" + how + "): " + e, e);
            } finally {
                for (int j = touched - 1; j >= 0; j--) {
                    b[at[j]] = saved[j];
                }
            }
        }
        System.out.printf("%d cases: %d read, %d refused, %d ms of CPU%n", cases, ok, refused,
                (threads.getCurrentThreadCpuTime() - cpuStart) / 1_000_000);
        assertThat(ok).as("seed %d: cases read despite mutation", seed).isPositive();
        assertThat(refused).as("seed %d: cases refused", seed).isPositive();
    }

    /** Byte ranges the reader interprets: the ELF header, the section header table, and each section it reads. */
    static long[][] ranges(byte[] elf) throws ElfException {
        ElfFile f = ElfReader.read(ElfSource.of("original", elf));
        java.util.List<long[]> r = new java.util.ArrayList<>();
        r.add(new long[] {0, f.bits() == 64 ? 64 : 52});
        long shoff = ElfBuilder.sectionHeaderOffset(elf);
        r.add(new long[] {shoff, Math.min(elf.length, shoff + (long) f.sections().size() * (f.bits() == 64 ? 64 : 40))});
        for (ElfSection s : f.sections()) {
            boolean read = s.type() == ElfSection.SHT_DYNSYM || s.type() == ElfSection.SHT_STRTAB
                    || s.type() == ElfSection.SHT_GNU_VERSYM || s.type() == ElfSection.SHT_GNU_VERDEF
                    || s.type() == ElfSection.SHT_GNU_VERNEED;
            if (read && s.size() > 0 && s.offset() + s.size() <= elf.length) {
                r.add(new long[] {s.offset(), s.offset() + s.size()});
            }
        }
        return r.toArray(long[][]::new);
    }
}
