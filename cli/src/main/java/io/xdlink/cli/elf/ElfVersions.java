package io.xdlink.cli.elf;

import java.util.List;

/** The GNU symbol-version records: what a library defines and what it needs from others. */
public final class ElfVersions {
    private ElfVersions() {
    }

    /**
     * One {@code Elf_Verdef}: a version this object defines.
     *
     * @param index   {@code vd_ndx}, what {@code .gnu.version} entries refer to
     * @param flags   {@code vd_flags}; 1 marks the base version (the object's own name)
     * @param name    the version's name
     * @param parents the names of the versions it inherits from
     */
    public record Definition(int index, int flags, String name, List<String> parents) {
        public Definition {
            parents = List.copyOf(parents);
        }

        public boolean base() {
            return (flags & 1) != 0;
        }
    }

    /**
     * One {@code Elf_Verneed}: the versions this object needs from one library.
     *
     * @param file     the library ({@code libibverbs.so.1})
     * @param versions each version needed from it
     */
    public record Need(String file, List<Needed> versions) {
        public Need {
            versions = List.copyOf(versions);
        }
    }

    /**
     * One {@code Elf_Vernaux}.
     *
     * @param index {@code vna_other}, what {@code .gnu.version} entries refer to
     * @param flags {@code vna_flags}; 2 marks a weak need
     * @param name  the version's name
     */
    public record Needed(int index, int flags, String name) {
    }
}
