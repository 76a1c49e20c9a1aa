package io.xdlink.params;

import java.util.List;
import java.util.ArrayList;
import java.util.Locale;

/**
 * The type of a parameter: how its text is parsed, how a value is printed, and what the allowed values are.
 *
 * <p>Parsing never accepts a value outside the declared range: the error names the range or the allowed values.
 *
 * @param <T> the Java type of a value
 */
public sealed interface ParamType<T>
        permits ParamType.Bool, ParamType.Int, ParamType.Size, ParamType.Enum, ParamType.Str, ParamType.ListOf {

    /** Parses a value from its text form; throws {@link ParamValueException} naming what is allowed. */
    T parse(String text);

    /** Prints a value so that {@link #parse} reads it back. */
    String format(T value);

    /** Short type name as shown in tables: {@code bool}, {@code int}, {@code unsigned}, {@code size}, ... */
    String typeName();

    /** The allowed values or range as shown in tables, empty when any value of the type is allowed. */
    String rangeText();

    /** A boolean: 1/0, y/n, yes/no, true/false, on/off (Linux's param_set_bool accepts the first four). */
    record Bool() implements ParamType<Boolean> {
        @Override
        public Boolean parse(String text) {
            return switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "1", "y", "yes", "true", "on" -> Boolean.TRUE;
                case "0", "n", "no", "false", "off" -> Boolean.FALSE;
                default -> throw new ParamValueException(
                        "'" + ParamValueException.clip(text) + "' is not a boolean (use 1/0, y/n, yes/no, true/false, on/off)");
            };
        }

        @Override
        public String format(Boolean value) {
            return value ? "1" : "0";
        }

        @Override
        public String typeName() {
            return "bool";
        }

        @Override
        public String rangeText() {
            return "0, 1";
        }
    }

    /**
     * A whole number within {@code [min, max]}. {@code unsigned} marks a type that never admits a sign, as the kernel's
     * {@code uint} parameters do.
     */
    record Int(long min, long max, boolean unsigned) implements ParamType<Long> {
        public Int {
            if (min > max) {
                throw new IllegalArgumentException("min " + min + " > max " + max);
            }
            if (unsigned && min < 0) {
                throw new IllegalArgumentException("an unsigned range cannot start below 0: " + min);
            }
        }

        @Override
        public Long parse(String text) {
            String t = text.trim();
            if (unsigned && (t.startsWith("-") || t.startsWith("+"))) {
                throw new ParamValueException("'" + ParamValueException.clip(text) + "' must be an unsigned number in " + rangeText());
            }
            if (Numbers.hasSizeSuffix(t)) {
                throw new ParamValueException("'" + ParamValueException.clip(text) + "' has a size suffix, but this "
                        + "parameter is a plain number, not a size: K, M and G apply only to size parameters; allowed: "
                        + rangeText());
            }
            long v = Numbers.parseLong(t, text, rangeText());
            return check(v, text);
        }

        Long check(long v, String text) {
            if (v < min || v > max) {
                throw new ParamValueException(
                        "'" + ParamValueException.clip(text) + "' is out of range; allowed: " + rangeText());
            }
            return v;
        }

        @Override
        public String format(Long value) {
            return Long.toString(value);
        }

        @Override
        public String typeName() {
            return unsigned ? "unsigned" : "int";
        }

        @Override
        public String rangeText() {
            return min + ".." + max;
        }
    }

    /** A byte count with an optional K, M or G suffix (powers of 1024), within {@code [min, max]} bytes. */
    record Size(long min, long max) implements ParamType<Long> {
        public Size {
            if (min < 0 || min > max) {
                throw new IllegalArgumentException("bad size range " + min + ".." + max);
            }
        }

        @Override
        public Long parse(String text) {
            long v = Numbers.parseSize(text, rangeText());
            if (v < min || v > max) {
                throw new ParamValueException(
                        "'" + ParamValueException.clip(text) + "' is out of range; allowed: " + rangeText());
            }
            return v;
        }

        @Override
        public String format(Long value) {
            return Numbers.formatSize(value);
        }

        @Override
        public String typeName() {
            return "size";
        }

        @Override
        public String rangeText() {
            return Numbers.formatSize(min) + ".." + Numbers.formatSize(max);
        }
    }

    /** One of a fixed set of lower-case words. */
    record Enum(List<String> values) implements ParamType<String> {
        public Enum {
            values = List.copyOf(values);
            if (values.isEmpty()) {
                throw new IllegalArgumentException("an enum needs at least one value");
            }
        }

        @Override
        public String parse(String text) {
            String t = text.trim().toLowerCase(Locale.ROOT);
            if (!values.contains(t)) {
                throw new ParamValueException("'" + ParamValueException.clip(text) + "' is not one of " + rangeText());
            }
            return t;
        }

        @Override
        public String format(String value) {
            return value;
        }

        @Override
        public String typeName() {
            return "enum";
        }

        @Override
        public String rangeText() {
            return String.join("|", values);
        }
    }

    /** Free text up to {@code maxLength} characters. */
    record Str(int maxLength) implements ParamType<String> {
        @Override
        public String parse(String text) {
            if (text.length() > maxLength) {
                throw new ParamValueException("value is " + text.length() + " characters; at most " + maxLength + " allowed");
            }
            return text;
        }

        @Override
        public String format(String value) {
            return value;
        }

        @Override
        public String typeName() {
            return "string";
        }

        @Override
        public String rangeText() {
            return "";
        }
    }

    /** A comma-separated list (as the kernel's array parameters: {@code p=1,2,3}) of at most {@code maxItems}. */
    record ListOf<E>(ParamType<E> element, int maxItems) implements ParamType<List<E>> {
        @Override
        public List<E> parse(String text) {
            if (text.isEmpty()) {
                return List.of();
            }
            String[] parts = text.split(",", maxItems + 1);
            if (parts.length > maxItems) {
                throw new ParamValueException("more than " + maxItems + " items in a list");
            }
            ArrayList<E> out = new ArrayList<>(parts.length);
            for (String p : parts) {
                out.add(element.parse(p));
            }
            return List.copyOf(out);
        }

        @Override
        public String format(List<E> value) {
            return String.join(",", value.stream().map(element::format).toList());
        }

        @Override
        public String typeName() {
            return "list of " + element.typeName();
        }

        @Override
        public String rangeText() {
            return element.rangeText();
        }
    }
}
