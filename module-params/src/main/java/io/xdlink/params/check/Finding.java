package io.xdlink.params.check;

import io.xdlink.params.modprobe.Severity;

/**
 * One thing the checker found in a modprobe line, as a value a command can print and a report can serialise.
 *
 * @param severity  how much it matters; {@link Severity#ERROR} means something written will not take effect
 * @param kind      what was found, stable across releases so tools can match on it
 * @param file      the file (or a label such as {@code argument}) the line came from
 * @param line      the physical line, 0 when the finding concerns a whole file
 * @param module    the module the line is for ('_' form), empty when none
 * @param parameter the parameter name as written, empty when none
 * @param message   one line saying what is wrong and, when a name was mistyped, what was meant
 * @param detail    why it matters and what to do, one or two sentences; empty when the message says it all
 */
public record Finding(Severity severity, Kind kind, String file, int line, String module, String parameter,
                      String message, String detail) {

    /** What was found. */
    public enum Kind {
        /** A name the module does not declare: the kernel drops it with only a line in dmesg. */
        UNKNOWN_PARAMETER,
        /** A name that exists only in some documentation; the module declares another. */
        MISNAMED_PARAMETER,
        /** A name the module once had and no longer has. */
        REMOVED_PARAMETER,
        /** A value xdlink would refuse. */
        BAD_VALUE,
        /** A name still accepted but replaced by another. */
        DEPRECATED_PARAMETER,
        /** A name set more than once; the last setting wins. */
        REPEATED_PARAMETER,
        /** A '#' in the middle of a line, which the kernel receives as a parameter. */
        COMMENT_AS_PARAMETER,
        /** A module name close to one we know but not equal to it: its options are probably never used. */
        UNKNOWN_MODULE,
        /** A module whose parameters we do not know: not checked. */
        UNCHECKED_MODULE,
        /** An {@code options xdlink} line where xdlink does not read it. */
        NOT_READ_BY_XDLINK,
        /** A line modprobe skips or reads differently from how it looks. */
        SYNTAX
    }

    /** {@code file:line: severity: message}, then the detail on the same line after a dash when there is one. */
    public String format() {
        String where = line > 0 ? file + ":" + line : file;
        return where + ": " + severity.label() + ": " + message + (detail.isEmpty() ? "" : " -- " + detail);
    }
}
