package io.xdlink.params;

/** A value that its parameter's type does not admit. The message names what is allowed. */
public final class ParamValueException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public ParamValueException(String message) {
        super(message);
    }

    /** Shortens hostile input (a 1 MiB line) before it goes into a message. */
    static String clip(String text) {
        String t = text.length() > 64 ? text.substring(0, 61) + "..." : text;
        StringBuilder sb = new StringBuilder(t.length());
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            sb.append(c < 0x20 || c == 0x7f ? '?' : c);
        }
        return sb.toString();
    }
}
