package io.xdlink.cli.elf;

import java.nio.ByteOrder;
import java.util.List;
import java.util.Optional;

/**
 * What {@link ElfReader} read from one ELF object.
 *
 * @param path               the file it came from
 * @param bits               32 or 64
 * @param order              the byte order of its fields
 * @param type               {@code e_type}: 2 executable, 3 shared object
 * @param machine            {@code e_machine}: 62 x86-64, 183 aarch64, ...
 * @param sections           every section header
 * @param dynamicSymbols     the {@code .dynsym} entries with their versions (entry 0, the null symbol, left out)
 * @param versionDefinitions {@code .gnu.version_d}
 * @param versionNeeds       {@code .gnu.version_r}
 */
public record ElfFile(String path, int bits, ByteOrder order, int type, int machine, List<ElfSection> sections,
                      List<ElfSymbol> dynamicSymbols, List<ElfVersions.Definition> versionDefinitions,
                      List<ElfVersions.Need> versionNeeds) {
    public ElfFile {
        sections = List.copyOf(sections);
        dynamicSymbols = List.copyOf(dynamicSymbols);
        versionDefinitions = List.copyOf(versionDefinitions);
        versionNeeds = List.copyOf(versionNeeds);
    }

    /** Symbols defined here that {@code dlsym} can find. */
    public List<ElfSymbol> exportedSymbols() {
        return dynamicSymbols.stream().filter(ElfSymbol::exported).toList();
    }

    /** The first section with this name. */
    public Optional<ElfSection> section(String name) {
        return sections.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** Names of the versions this object defines, the base version (its own soname) left out. */
    public List<String> definedVersions() {
        return versionDefinitions.stream().filter(d -> !d.base()).map(ElfVersions.Definition::name).toList();
    }

    /** Names of every version this object needs, from any library. */
    public List<String> neededVersions() {
        return versionNeeds.stream().flatMap(n -> n.versions().stream()).map(ElfVersions.Needed::name).toList();
    }
}
