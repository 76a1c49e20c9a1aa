package io.xdlink.params.modprobe;

/**
 * Something in a modprobe.d file that modprobe would skip or read differently from how it looks.
 *
 * @param file     the file, as given to the parser
 * @param line     the 1-based physical line, 0 when the problem concerns the whole file
 * @param severity how much it matters
 * @param message  one line, already safe to print
 */
public record ModprobeProblem(String file, int line, Severity severity, String message) {
    /** {@code file:line: severity: message}, the form compilers use, so editors can jump to it. */
    public String format() {
        return (line > 0 ? file + ":" + line : file) + ": " + severity.label() + ": " + message;
    }
}
