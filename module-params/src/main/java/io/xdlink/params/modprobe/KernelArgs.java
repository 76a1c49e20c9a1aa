package io.xdlink.params.modprobe;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a parameter string into arguments exactly as the kernel does when a module loads (kernel/params.c,
 * {@code next_arg}), so that what we check is what the module will see:
 * <ul>
 *   <li>arguments are separated by white space outside double quotes;</li>
 *   <li>a double quote anywhere toggles quoting, so {@code p="a b"} is one argument;</li>
 *   <li>a value that starts with a quote loses it, and then a quote ending the argument is dropped too
 *       ({@code p="a b"} gives {@code a b}); a whole argument in quotes ({@code "p=a b"}) loses both;</li>
 *   <li>the name ends at the first '=' (inside quotes too); an argument without '=' is a bare name;</li>
 *   <li>an unclosed quote runs to the end of the string.</li>
 * </ul>
 * Work is linear in the input, so a 1 MiB line costs one pass.
 */
public final class KernelArgs {
    private KernelArgs() {
    }

    /**
     * One argument.
     *
     * @param name      text before the first '='
     * @param value     text after it, quotes removed as the kernel removes them; empty for a bare name
     * @param hasValue  whether there was an '='
     * @param offset    where the argument starts in the input
     * @param openQuote whether a quote opened in this argument was never closed
     */
    public record Arg(String name, String value, boolean hasValue, int offset, boolean openQuote) {
    }

    /** The arguments of {@code text}, in order. */
    public static List<Arg> split(String text) {
        List<Arg> out = new ArrayList<>();
        int n = text.length();
        int i = skipSpaces(text, 0);
        while (i < n) {
            int offset = i;
            boolean quoted = false;
            boolean inQuote = false;
            if (text.charAt(i) == '"') {
                i++;
                quoted = true;
                inQuote = true;
            }
            int start = i;
            int equals = -1;
            int end = start;
            while (end < n) {
                char c = text.charAt(end);
                if (isSpace(c) && !inQuote) {
                    break;
                }
                // As in the kernel, an '=' in the first position does not end the name (its sentinel is 0).
                if (equals < 0 && c == '=' && end != start) {
                    equals = end;
                }
                if (c == '"') {
                    inQuote = !inQuote;
                }
                end++;
            }
            // The kernel drops a trailing quote when the argument began with one, or when the value did.
            int tokenEnd = end;
            String name;
            String value;
            if (equals < 0) {
                if (quoted && tokenEnd > start && text.charAt(tokenEnd - 1) == '"') {
                    tokenEnd--;
                }
                name = text.substring(start, tokenEnd);
                value = "";
            } else {
                name = text.substring(start, equals);
                int valueStart = equals + 1;
                boolean valueQuoted = valueStart < end && text.charAt(valueStart) == '"';
                if (valueQuoted) {
                    valueStart++;
                }
                if ((valueQuoted || quoted) && tokenEnd > valueStart && text.charAt(tokenEnd - 1) == '"') {
                    tokenEnd--;
                }
                value = text.substring(valueStart, Math.max(valueStart, tokenEnd));
            }
            out.add(new Arg(name, value, equals >= 0, offset, inQuote));
            i = skipSpaces(text, end);
        }
        return out;
    }

    /** The kernel's isspace() for the characters that can appear in text. */
    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0b || c == '\f';
    }

    private static int skipSpaces(String text, int from) {
        int i = from;
        while (i < text.length() && isSpace(text.charAt(i))) {
            i++;
        }
        return i;
    }
}
