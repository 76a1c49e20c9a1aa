package io.xdlink.cli.json;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Writes JSON from plain values: {@link Map} (string keys, written in iteration order), {@link List}, {@link String},
 * {@link Number}, {@link Boolean}, {@code null}, and empty or present {@code Optional}s (empty is {@code null}).
 * Two-space indentation, one member per line, so a person can read it and a program can parse it.
 */
public final class Json {
    private Json() {
    }

    /** The value as a JSON document. */
    public static String format(Object value) {
        StringBuilder sb = new StringBuilder();
        write(sb, value, 0);
        return sb.toString();
    }

    /** A JSON string literal. */
    public static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2);
        quote(sb, s);
        return sb.toString();
    }

    private static void write(StringBuilder sb, Object v, int depth) {
        switch (v) {
            case null -> sb.append("null");
            case String s -> quote(sb, s);
            case Boolean b -> sb.append(b);
            case Double d when d.isNaN() || d.isInfinite() -> sb.append("null");
            case Float f when f.isNaN() || f.isInfinite() -> sb.append("null");
            case Number n -> sb.append(n);
            case Optional<?> o -> write(sb, o.orElse(null), depth);
            case OptionalInt o -> write(sb, o.isPresent() ? o.getAsInt() : null, depth);
            case OptionalLong o -> write(sb, o.isPresent() ? o.getAsLong() : null, depth);
            case Map<?, ?> m -> object(sb, m, depth);
            case List<?> l -> array(sb, l, depth);
            default -> throw new IllegalArgumentException("cannot write " + v.getClass().getName() + " as JSON");
        }
    }

    private static void object(StringBuilder sb, Map<?, ?> m, int depth) {
        if (m.isEmpty()) {
            sb.append("{}");
            return;
        }
        sb.append("{\n");
        Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<?, ?> e = it.next();
            indent(sb, depth + 1);
            quote(sb, String.valueOf(e.getKey()));
            sb.append(": ");
            write(sb, e.getValue(), depth + 1);
            sb.append(it.hasNext() ? ",\n" : "\n");
        }
        indent(sb, depth);
        sb.append('}');
    }

    private static void array(StringBuilder sb, List<?> l, int depth) {
        if (l.isEmpty()) {
            sb.append("[]");
            return;
        }
        sb.append("[\n");
        for (int i = 0; i < l.size(); i++) {
            indent(sb, depth + 1);
            write(sb, l.get(i), depth + 1);
            sb.append(i + 1 < l.size() ? ",\n" : "\n");
        }
        indent(sb, depth);
        sb.append(']');
    }

    private static void indent(StringBuilder sb, int depth) {
        sb.append("  ".repeat(depth));
    }

    private static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    boolean loneSurrogate = Character.isSurrogate(c) && !(Character.isHighSurrogate(c)
                            && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1)))
                            && !(Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(s.charAt(i - 1)));
                    // Bidirectional overrides and other format characters too: JSON read on a terminal must not
                    // reorder what it shows; the escape is the same string to a JSON reader.
                    if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == 0x2028 || c == 0x2029
                            || Character.getType(c) == Character.FORMAT || loneSurrogate) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
