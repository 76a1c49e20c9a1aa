package io.xdlink.cli.elf;

/**
 * A file that is not a well-formed ELF object, with the field that gave it away. It carries no stack trace: it
 * reports bad data to a user, not a fault in the reader, and doctor may meet many such files.
 */
public final class ElfException extends Exception {
    private static final long serialVersionUID = 1L;

    public ElfException(String message) {
        super(message, null, false, false);
    }
}
