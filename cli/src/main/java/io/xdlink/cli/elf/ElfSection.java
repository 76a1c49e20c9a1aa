package io.xdlink.cli.elf;

/**
 * One section header.
 *
 * @param index  its number in the section header table
 * @param name   from the section-name string table; empty when it has none
 * @param type   {@code sh_type}
 * @param offset {@code sh_offset}
 * @param size   {@code sh_size}
 * @param link   {@code sh_link}: for symbol and version sections, the string table's index
 * @param info   {@code sh_info}: for version sections, the number of entries
 * @param entsize {@code sh_entsize}
 */
public record ElfSection(int index, String name, long type, long offset, long size, long link, long info,
                         long entsize) {
    public static final long SHT_STRTAB = 3;
    public static final long SHT_NOBITS = 8;
    public static final long SHT_DYNSYM = 11;
    public static final long SHT_GNU_VERDEF = 0x6fff_fffdL;
    public static final long SHT_GNU_VERNEED = 0x6fff_fffeL;
    public static final long SHT_GNU_VERSYM = 0x6fff_ffffL;
}
