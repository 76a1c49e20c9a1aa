package io.xdlink.params.modprobe;

import java.util.Locale;

/** How much a problem matters: an error loses something the user wrote; a warning works but surprises; a note informs. */
public enum Severity {
    /** Something the user wrote is ignored or refused (a name the kernel drops, a line modprobe skips). */
    ERROR,
    /** It works, but not as a reader of the file would expect (a repeated name, a deprecated name). */
    WARNING,
    /** Worth knowing, nothing to fix (a module whose parameters xdlink does not know). */
    NOTE;

    /** Lower case, as printed in messages. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
