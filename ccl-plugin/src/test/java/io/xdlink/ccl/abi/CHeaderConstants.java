package io.xdlink.ccl.abi;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The integer constants a C header declares under one prefix: object-like {@code #define}s and enumerators, with
 * their values worked out as the C compiler would for the small expressions headers use (decimal, hex and octal
 * literals with integer suffixes, parentheses, unary minus, {@code + - << >> |}, and names declared earlier under
 * the prefix). For the test that holds the native shim's header and the Java side of the ABI to one contract.
 *
 * <p>Anything else under the prefix is refused with an error naming the source, the line and the constant: a
 * define without a value, a function-like macro, a value that is not such an expression (a string, an unknown
 * name), a literal or shift that does not fit 64 bits, a name declared twice, an enum or a comment never closed.
 * Nothing here loops on its input or trusts a length from it.
 */
final class CHeaderConstants {
    /** One constant: its value and the line it was declared on (from 1). */
    record Constant(String name, long value, int line) {
    }

    private static final Pattern DEFINE = Pattern.compile("^\\s*#\\s*define\\s+([A-Za-z_]\\w*)(.*)$");
    private static final Pattern ENUM = Pattern.compile("\\benum\\b(\\s+[A-Za-z_]\\w*)?\\s*\\{");
    private static final Pattern ENUMERATOR = Pattern.compile("\\s*([A-Za-z_]\\w*)\\s*(?:=(.*))?", Pattern.DOTALL);

    private final String source;
    private final String prefix;
    private final Map<String, Constant> found = new LinkedHashMap<>();

    private CHeaderConstants(String source, String prefix) {
        this.source = source;
        this.prefix = prefix;
    }

    /**
     * The constants of {@code text} whose names start with {@code prefix}, in the order declared.
     *
     * @param source what the text is, for error messages (a file name)
     * @throws IllegalArgumentException naming the source, the line and what is wrong
     */
    static Map<String, Constant> parse(String source, String text, String prefix) {
        CHeaderConstants c = new CHeaderConstants(source, prefix);
        String code = withoutComments(source, text);
        c.defines(code);
        c.enums(code);
        return Collections.unmodifiableMap(c.found);
    }

    /**
     * The text with every comment blanked out (newlines kept, so lines keep their numbers), string literals kept.
     *
     * @throws IllegalArgumentException naming the source and the line of a comment never closed
     */
    static String withoutComments(String source, String text) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            char ch = text.charAt(i);
            if (ch == '"' || ch == '\'') {
                int end = i + 1;
                while (end < text.length() && text.charAt(end) != ch && text.charAt(end) != '\n') {
                    end += text.charAt(end) == '\\' ? 2 : 1;
                }
                end = Math.min(end + 1, text.length());
                out.append(text, i, end);
                i = end;
            } else if (text.startsWith("/*", i)) {
                int end = text.indexOf("*/", i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException(source + " line " + lineOf(text, i)
                            + ": a comment that is never closed");
                }
                for (int k = i; k < end + 2; k++) {
                    out.append(text.charAt(k) == '\n' ? '\n' : ' ');
                }
                i = end + 2;
            } else if (text.startsWith("//", i)) {
                while (i < text.length() && text.charAt(i) != '\n') {
                    out.append(' ');
                    i++;
                }
            } else {
                out.append(ch);
                i++;
            }
        }
        return out.toString();
    }

    private void defines(String code) {
        String[] lines = code.split("\n", -1);
        for (int n = 0; n < lines.length; n++) {
            int first = n;
            StringBuilder line = new StringBuilder(lines[n]);
            // A define may go on over lines that end in a backslash.
            while (line.toString().stripTrailing().endsWith("\\") && n + 1 < lines.length) {
                String s = line.toString().stripTrailing();
                line.setLength(s.length() - 1);
                line.append(' ').append(lines[++n]);
            }
            Matcher m = DEFINE.matcher(line);
            if (!m.matches() || !m.group(1).startsWith(prefix)) {
                continue;
            }
            String name = m.group(1);
            String rest = m.group(2);
            if (rest.startsWith("(")) {
                throw error(first + 1, name, "a function-like macro, not a constant");
            }
            if (rest.isBlank()) {
                throw error(first + 1, name, "defined without a value");
            }
            declare(name, evaluate(first + 1, name, rest), first + 1);
        }
    }

    private void enums(String code) {
        Matcher m = ENUM.matcher(code);
        int from = 0;
        while (m.find(from)) {
            int open = m.end();
            int close = code.indexOf('}', open);
            if (close < 0) {
                throw error(lineOf(code, m.start()), null, "an enum that is never closed");
            }
            long next = 0;
            int at = open;
            for (String item : code.substring(open, close).split(",", -1)) {
                int line = lineOf(code, at + leadingSpace(item));
                at += item.length() + 1;
                if (item.isBlank()) {
                    continue; // a trailing comma
                }
                Matcher e = ENUMERATOR.matcher(item);
                if (!e.matches()) {
                    throw error(line, null, "an enumerator that is not NAME or NAME = value: '" + item.strip() + "'");
                }
                String name = e.group(1);
                long value = e.group(2) == null ? next : evaluate(line, name, e.group(2));
                if (name.startsWith(prefix)) {
                    declare(name, value, line);
                }
                next = value + 1;
            }
            from = close + 1;
        }
    }

    private static int leadingSpace(String s) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    private void declare(String name, long value, int line) {
        Constant before = found.putIfAbsent(name, new Constant(name, value, line));
        if (before != null) {
            throw error(line, name, "declared again (first on line " + before.line() + ")");
        }
    }

    static int lineOf(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    private IllegalArgumentException error(int line, String name, String what) {
        return new IllegalArgumentException(source + " line " + line + ": " + (name == null ? "" : name + ": ")
                + what);
    }

    // ---------------------------------------------------------------- expressions

    private long evaluate(int line, String name, String text) {
        Expression x = new Expression(text, line, name);
        long v = x.or();
        x.skipSpace();
        if (x.pos != text.length()) {
            throw x.wrong("unexpected '" + text.substring(x.pos).strip() + "'");
        }
        return v;
    }

    /** A recursive descent over one value's text; depth is bounded by the text's length, which a line bounds. */
    private final class Expression {
        private static final int MAX_DEPTH = 32;
        private final String text;
        private final int line;
        private final String name;
        private int pos;
        private int depth;

        Expression(String text, int line, String name) {
            this.text = text;
            this.line = line;
            this.name = name;
        }

        long or() {
            long v = shift();
            while (skipSpace() && peek('|') && !peek("||")) {
                pos++;
                v |= shift();
            }
            return v;
        }

        long shift() {
            long v = additive();
            while (skipSpace() && (peek("<<") || peek(">>"))) {
                boolean left = peek("<<");
                pos += 2;
                long by = additive();
                if (by < 0 || by > 63) {
                    throw wrong("a shift by " + by);
                }
                if (left) {
                    if (by > 0 && (v < 0 || (v >>> (63 - by)) != 0)) {
                        throw wrong(v + " << " + by + " does not fit 64 bits");
                    }
                    v <<= by;
                } else {
                    v >>= by;
                }
            }
            return v;
        }

        long additive() {
            long v = unary();
            while (skipSpace() && (peek('+') || peek('-'))) {
                boolean plus = peek('+');
                pos++;
                long w = unary();
                try {
                    v = plus ? Math.addExact(v, w) : Math.subtractExact(v, w);
                } catch (ArithmeticException e) {
                    throw wrong("does not fit 64 bits");
                }
            }
            return v;
        }

        long unary() {
            skipSpace();
            if (peek('-') || peek('+')) {
                boolean minus = peek('-');
                pos++;
                long v = nested();
                if (minus && v == Long.MIN_VALUE) {
                    throw wrong("does not fit 64 bits");
                }
                return minus ? -v : v;
            }
            return primary();
        }

        private long nested() {
            if (++depth > MAX_DEPTH) {
                throw wrong("nested deeper than " + MAX_DEPTH);
            }
            long v = unary();
            depth--;
            return v;
        }

        long primary() {
            skipSpace();
            if (pos >= text.length()) {
                throw wrong(pos == 0 || text.isBlank() ? "no value" : "ends where a value should be");
            }
            char c = text.charAt(pos);
            if (c == '(') {
                if (++depth > MAX_DEPTH) {
                    throw wrong("nested deeper than " + MAX_DEPTH);
                }
                pos++;
                long v = or();
                skipSpace();
                if (!peek(')')) {
                    throw wrong("a '(' that is never closed");
                }
                pos++;
                depth--;
                return v;
            }
            if (Character.isDigit(c)) {
                return literal();
            }
            if (Character.isLetter(c) || c == '_') {
                int start = pos;
                while (pos < text.length()
                        && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
                    pos++;
                }
                String ref = text.substring(start, pos);
                Constant k = found.get(ref);
                if (k == null) {
                    throw wrong("'" + ref + "' is not an integer constant declared before it");
                }
                return k.value();
            }
            throw wrong("not an integer constant expression: '" + text.strip() + "'");
        }

        private long literal() {
            int start = pos;
            while (pos < text.length() && Character.isLetterOrDigit(text.charAt(pos))) {
                pos++;
            }
            String token = text.substring(start, pos);
            String digits = token.replaceFirst("(?i)(u|l|ul|lu|ll|ull|llu)$", "");
            try {
                if (digits.length() > 2 && (digits.startsWith("0x") || digits.startsWith("0X"))) {
                    return Long.parseUnsignedLong(digits.substring(2), 16);
                }
                if (digits.length() > 1 && digits.startsWith("0")) {
                    return Long.parseUnsignedLong(digits.substring(1), 8);
                }
                return Long.parseLong(digits);
            } catch (NumberFormatException e) {
                throw wrong("'" + token + "' is not an integer literal that fits 64 bits");
            }
        }

        /** Skips white space; always true, so it can lead a condition. */
        boolean skipSpace() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
            return true;
        }

        private boolean peek(char c) {
            return pos < text.length() && text.charAt(pos) == c;
        }

        private boolean peek(String s) {
            return text.startsWith(s, pos);
        }

        IllegalArgumentException wrong(String what) {
            return error(line, name, what);
        }
    }
}
