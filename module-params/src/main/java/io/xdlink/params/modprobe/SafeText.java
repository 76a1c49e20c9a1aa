package io.xdlink.params.modprobe;

/**
 * Makes hostile text fit for a one-line message. This is the one place xdlink escapes text it echoes, whoever
 * wrote it (a user's option, a configuration file, a peer's device name, a property block): printed raw, a control
 * character or a bidirectional override (U+202A..U+202E, U+2066..U+2069) would rewrite the terminal or reorder what
 * the user reads, and a 1 MiB line must never reach a terminal or a log unshortened. xdomain's {@code Text} and the
 * command line's messages call {@link #printable} too.
 */
public final class SafeText {
    /** The longest piece of input quoted in a message. */
    public static final int MAX_QUOTED = 64;

    private SafeText() {
    }

    /**
     * The text with every non-printing character escaped: C0 and C1 controls and DEL as {@code \xNN}; format
     * characters (bidirectional overrides and isolates, zero-width characters), line and paragraph separators,
     * unassigned, private-use and unpaired surrogate code points as backslash-u and four hex digits (backslash-U and
     * eight above U+FFFF); a backslash as two, so an escape in the input cannot pass for one of ours.
     */
    public static String printable(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (cp == '\\') {
                sb.append("\\\\");
            } else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) {
                sb.append(String.format("\\x%02x", cp));
            } else if (hidden(cp)) {
                sb.append(cp > 0xffff ? String.format("\\U%08x", cp) : String.format("\\u%04x", cp));
            } else {
                sb.appendCodePoint(cp);
            }
        }
        return sb.toString();
    }

    private static boolean hidden(int cp) {
        int type = Character.getType(cp);
        return type == Character.FORMAT || type == Character.UNASSIGNED || type == Character.SURROGATE
                || type == Character.PRIVATE_USE || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR;
    }

    /** At most {@value #MAX_QUOTED} characters of {@link #printable} text, cut with "..." when longer. */
    public static String clip(String text) {
        // Escaping at most quadruples a character's length: only so much of a huge input is looked at.
        String t = printable(text.length() > MAX_QUOTED * 2 ? text.substring(0, MAX_QUOTED * 2) : text);
        if (t.length() <= MAX_QUOTED) {
            return t;
        }
        int end = MAX_QUOTED - 3;
        if (Character.isHighSurrogate(t.charAt(end - 1))) {
            end--;
        }
        return t.substring(0, end) + "...";
    }
}
