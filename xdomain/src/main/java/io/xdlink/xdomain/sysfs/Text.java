package io.xdlink.xdomain.sysfs;

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

    /** The text with every non-printing character escaped. */
    public static String printable(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (cp == '\\') {
                sb.append("\\\\");
            } else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) {
                sb.append(String.format("\\x%02x", cp));
            } else if (Character.getType(cp) == Character.FORMAT || Character.getType(cp) == Character.UNASSIGNED
                    || Character.getType(cp) == Character.SURROGATE || Character.getType(cp) == Character.PRIVATE_USE
                    || Character.getType(cp) == Character.LINE_SEPARATOR
                    || Character.getType(cp) == Character.PARAGRAPH_SEPARATOR) {
                sb.append(cp > 0xffff ? String.format("\\U%08x", cp) : String.format("\\u%04x", cp));
            } else {
                sb.appendCodePoint(cp);
            }
        }
        return sb.toString();
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
