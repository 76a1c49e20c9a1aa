package io.xdlink.cli.json;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads JSON into plain values: {@link Map} (insertion order), {@link List}, {@link String}, {@link Double} or
 * {@link Long}, {@link Boolean} and {@code null}. Built for files people hand to xdlink (benchmark results to plot),
 * so it refuses what could hurt: nesting deeper than {@value #MAX_DEPTH}, text longer than the caller allows, and
 * anything that is not strict RFC 8259 JSON. Errors name the offset.
 */
public final class JsonReader {
    /** Deepest nesting accepted; deeper input is refused rather than risking the stack. */
    public static final int MAX_DEPTH = 64;

    private final String text;
    private int pos;

    private JsonReader(String text) {
        this.text = text;
    }

    /** Parses one JSON document (surrounding white space allowed). */
    public static Object parse(String text) {
        JsonReader r = new JsonReader(text);
        r.skipSpace();
        Object v = r.value(0);
        r.skipSpace();
        if (r.pos != text.length()) {
            throw r.error("unexpected text after the document");
        }
        return v;
    }

    private Object value(int depth) {
        if (depth >= MAX_DEPTH) {
            throw error("nesting deeper than " + MAX_DEPTH);
        }
        if (pos >= text.length()) {
            throw error("unexpected end of input");
        }
        char c = text.charAt(pos);
        return switch (c) {
            case '{' -> object(depth);
            case '[' -> array(depth);
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    yield number();
                }
                throw error("unexpected character '" + printable(c) + "'");
            }
        };
    }

    private Map<String, Object> object(int depth) {
        pos++;
        Map<String, Object> m = new LinkedHashMap<>();
        skipSpace();
        if (peek() == '}') {
            pos++;
            return Collections.unmodifiableMap(m);
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw error("expected a member name");
            }
            String key = string();
            skipSpace();
            expect(':');
            skipSpace();
            if (m.containsKey(key)) {
                throw error("duplicate member \"" + key + "\"");
            }
            m.put(key, value(depth + 1));
            skipSpace();
            char c = next("',' or '}'");
            if (c == '}') {
                return Collections.unmodifiableMap(m);
            }
            if (c != ',') {
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> array(int depth) {
        pos++;
        List<Object> l = new ArrayList<>();
        skipSpace();
        if (peek() == ']') {
            pos++;
            return Collections.unmodifiableList(l);
        }
        while (true) {
            skipSpace();
            l.add(value(depth + 1));
            skipSpace();
            char c = next("',' or ']'");
            if (c == ']') {
                return Collections.unmodifiableList(l);
            }
            if (c != ',') {
                throw error("expected ',' or ']'");
            }
        }
    }

    private String string() {
        pos++;
        StringBuilder sb = new StringBuilder();
        while (true) {
            char c = next("closing '\"'");
            if (c == '"') {
                return sb.toString();
            }
            if (c < 0x20) {
                throw error("control character in a string");
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = next("an escape");
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    if (pos + 4 > text.length()) {
                        throw error("truncated \\u escape");
                    }
                    int cp = 0;
                    for (int i = 0; i < 4; i++) {
                        int d = Character.digit(text.charAt(pos++), 16);
                        if (d < 0) {
                            throw error("bad \\u escape");
                        }
                        cp = cp * 16 + d;
                    }
                    sb.append((char) cp);
                }
                default -> throw error("bad escape '\\" + printable(e) + "'");
            }
        }
    }

    private Object number() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        if (peek() == '0') {
            pos++;
        } else if (Character.isDigit(peek())) {
            while (Character.isDigit(peek())) {
                pos++;
            }
        } else {
            throw error("expected a digit");
        }
        boolean integral = true;
        if (peek() == '.') {
            integral = false;
            pos++;
            if (!Character.isDigit(peek())) {
                throw error("expected a digit after '.'");
            }
            while (Character.isDigit(peek())) {
                pos++;
            }
        }
        if (peek() == 'e' || peek() == 'E') {
            integral = false;
            pos++;
            if (peek() == '+' || peek() == '-') {
                pos++;
            }
            if (!Character.isDigit(peek())) {
                throw error("expected a digit in the exponent");
            }
            while (Character.isDigit(peek())) {
                pos++;
            }
        }
        String n = text.substring(start, pos);
        if (integral && n.length() <= 18) {
            return Long.parseLong(n);
        }
        double d = Double.parseDouble(n);
        if (Double.isInfinite(d)) {
            throw error("number out of range: " + (n.length() > 32 ? n.substring(0, 32) + "..." : n));
        }
        return d;
    }

    private Object literal(String word, Object v) {
        if (!text.startsWith(word, pos)) {
            throw error("unexpected characters");
        }
        pos += word.length();
        return v;
    }

    private void skipSpace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private char next(String what) {
        if (pos >= text.length()) {
            throw error("unexpected end of input; expected " + what);
        }
        return text.charAt(pos++);
    }

    private void expect(char c) {
        if (next("'" + c + "'") != c) {
            pos--;
            throw error("expected '" + c + "'");
        }
    }

    private JsonException error(String message) {
        return new JsonException("offset " + pos + ": " + message);
    }

    private static String printable(char c) {
        return c < 0x20 || c > 0x7e ? String.format("\\u%04x", (int) c) : String.valueOf(c);
    }

    /** Input that is not the JSON expected; the message names the offset. */
    public static final class JsonException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        JsonException(String message) {
            super(message);
        }
    }
}
