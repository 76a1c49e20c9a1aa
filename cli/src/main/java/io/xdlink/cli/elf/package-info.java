/**
 * A bounds-checked reader of ELF shared objects, in Java: 32- and 64-bit, either byte order, section headers, the
 * dynamic symbol table and the GNU symbol-version sections. {@code xdlink doctor} reads which table symbols a
 * collective-library plugin exports and which provider ABI libibverbs defines, from files it did not build and must
 * not trust; so every offset, size and count is checked against the file before use, nothing is allocated from an
 * unchecked length, every chain is walked with a bound, and any defect is an {@link io.xdlink.cli.elf.ElfException}
 * naming the file and the field, never another exception.
 */
package io.xdlink.cli.elf;
