package io.xdlink.cli.elf;

/**
 * One entry of the dynamic symbol table.
 *
 * @param name          its name
 * @param value         {@code st_value}
 * @param size          {@code st_size}
 * @param type          {@code ELF_ST_TYPE}: 0 none, 1 object, 2 function, ...
 * @param binding       {@code ELF_ST_BIND}: 0 local, 1 global, 2 weak, 10 unique
 * @param visibility    {@code ELF_ST_VISIBILITY}: 0 default, 1 internal, 2 hidden, 3 protected
 * @param sectionIndex  {@code st_shndx}: 0 when the symbol is imported, not defined here
 * @param version       the version it is bound to ({@code IBVERBS_PRIVATE_34}), empty when none
 * @param hiddenVersion whether the version is hidden (not the default one a new link picks)
 */
public record ElfSymbol(String name, long value, long size, int type, int binding, int visibility, int sectionIndex,
                        String version, boolean hiddenVersion) {
    public static final int STT_OBJECT = 1;
    public static final int STT_FUNC = 2;
    public static final int STB_GLOBAL = 1;
    public static final int STB_WEAK = 2;
    public static final int STB_GNU_UNIQUE = 10;
    public static final int STV_DEFAULT = 0;
    public static final int STV_PROTECTED = 3;

    /** Defined here and visible to {@code dlsym}: global, weak or unique binding, default or protected visibility. */
    public boolean exported() {
        return sectionIndex != 0 && !name.isEmpty()
                && (binding == STB_GLOBAL || binding == STB_WEAK || binding == STB_GNU_UNIQUE)
                && (visibility == STV_DEFAULT || visibility == STV_PROTECTED);
    }
}
