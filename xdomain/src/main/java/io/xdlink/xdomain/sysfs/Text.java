package io.xdlink.xdomain.sysfs;

import io.xdlink.params.modprobe.SafeText;

/**
 * Makes text a peer chose safe to print. A remote host writes its own device name, vendor name and service keys;
 * printed raw, a control sequence in them would rewrite the user's terminal, so control, format and bidirectional
 * override characters become backslash escapes of their code points.
 */
public final class Text {
    /** Longest value quoted inside a message. */
    static final int QUOTE_LIMIT = 40;

    private Text() {
    }

    /** The text with every non-printing character escaped, as module-params' {@link SafeText} escapes it. */
    public static String printable(String s) {
        return SafeText.printable(s);
    }

    /** The value in double quotes, escaped and clipped to a length that fits a message line. */
    public static String quote(String s) {
        String p = printable(s.length() > QUOTE_LIMIT * 4 ? s.substring(0, QUOTE_LIMIT * 4) : s);
        if (p.length() > QUOTE_LIMIT) {
            int end = Character.isHighSurrogate(p.charAt(QUOTE_LIMIT - 1)) ? QUOTE_LIMIT - 1 : QUOTE_LIMIT;
            p = p.substring(0, end) + "...";
        }
        return "\"" + p + "\"";
    }
}
