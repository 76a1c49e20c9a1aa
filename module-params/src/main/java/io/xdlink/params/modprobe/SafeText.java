package io.xdlink.params.modprobe;

/**
 * Makes hostile text fit for a one-line message: a 1 MiB line or a run of control bytes must never reach a terminal
 * or a log unshortened.
 */
public final class SafeText {
    /** The longest piece of input quoted in a message. */
    public static final int MAX_QUOTED = 64;

    private SafeText() {
    }

    /** At most {@value #MAX_QUOTED} characters, control characters shown as '?'. */
    public static String clip(String text) {
        String t = text.length() > MAX_QUOTED ? text.substring(0, MAX_QUOTED - 3) + "..." : text;
        StringBuilder sb = new StringBuilder(t.length());
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            sb.append(c < 0x20 || c == 0x7f ? '?' : c);
        }
        return sb.toString();
    }
}
