package io.xdlink.cli.doctor;

import java.util.Locale;

/** How a check came out: {@code ok}, {@code warn} (works, but slower or fragile), {@code fail} (will not work). */
public enum Status {
    OK, WARN, FAIL;

    /** The word printed and written to JSON. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
