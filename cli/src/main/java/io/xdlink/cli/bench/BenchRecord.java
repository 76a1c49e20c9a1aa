package io.xdlink.cli.bench;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

import static io.xdlink.cli.bench.RendezvousRecords.abbreviate;

/**
 * What travels in one rendezvous record: a kind word and {@code key=value} pairs of printable ASCII without spaces,
 * for example {@code SETUP test=write_bw size=65536 iters=5000}. Parsing is strict, because the record may come from
 * anything that connected to the port: unknown kinds, malformed pairs, duplicate keys and missing keys are refused
 * with a message naming them.
 */
public record BenchRecord(String kind, Map<String, String> values) {
    private static final Pattern WORD = Pattern.compile("[A-Za-z0-9_.:/+-]{1,64}");
    private static final Pattern VALUE = Pattern.compile("[!-~]{0,160}");

    public BenchRecord {
        if (!WORD.matcher(kind).matches()) {
            throw new IllegalArgumentException("bad record kind '" + abbreviate(kind) + "'");
        }
        Map<String, String> copy = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            if (!WORD.matcher(k).matches() || !VALUE.matcher(v).matches() || v.contains("=")) {
                throw new IllegalArgumentException("bad record field '" + abbreviate(k) + "'");
            }
            copy.put(k, v);
        });
        values = Collections.unmodifiableMap(copy);
    }

    /** A record of one kind, fields added with {@link #with}. */
    public static BenchRecord of(String kind) {
        return new BenchRecord(kind, Map.of());
    }

    public BenchRecord with(String key, Object value) {
        Map<String, String> m = new LinkedHashMap<>(values);
        m.put(key, String.valueOf(value));
        return new BenchRecord(kind, m);
    }

    /** The text form, as it goes into a {@link Rendezvous} record. */
    public String format() {
        StringBuilder sb = new StringBuilder(kind);
        values.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
        return sb.toString();
    }

    /**
     * Reads a record of the expected kind.
     *
     * @throws BenchException naming what is wrong, or the ERROR the peer sent instead
     */
    public static BenchRecord parse(String text, String expectedKind) {
        String[] parts = text.split(" ", -1);
        if (parts[0].equals("ERROR")) {
            String why = text.length() > 6 ? text.substring(6) : "no reason given";
            throw new BenchException("the peer gave up: " + why.replace("_", " "));
        }
        if (!parts[0].equals(expectedKind)) {
            throw new BenchException("expected a " + expectedKind + " record from the peer, got '"
                    + abbreviate(text) + "'");
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq <= 0) {
                throw new BenchException("malformed field '" + abbreviate(parts[i]) + "' in the peer's "
                        + expectedKind + " record");
            }
            String key = parts[i].substring(0, eq);
            if (m.put(key, parts[i].substring(eq + 1)) != null) {
                throw new BenchException("field '" + abbreviate(key) + "' appears twice in the peer's "
                        + expectedKind + " record");
            }
        }
        try {
            return new BenchRecord(parts[0], m);
        } catch (IllegalArgumentException e) {
            throw new BenchException("the peer's " + expectedKind + " record has a " + e.getMessage());
        }
    }

    /** A field that must be there. */
    public String get(String key) {
        String v = values.get(key);
        if (v == null) {
            throw new BenchException("the peer's " + kind + " record has no '" + key + "'");
        }
        return v;
    }

    /** A field that must be a decimal whole number in [min, max]. */
    public long getLong(String key, long min, long max) {
        return wholeNumber(kind, key, get(key), min, max);
    }

    /** One item of a field, read as {@link #getLong} reads a field. */
    static long wholeNumber(String kind, String key, String v, long min, long max) {
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new BenchException("the peer's " + kind + " record has " + key + "='" + abbreviate(v)
                    + "', not a number");
        }
        if (n < min || n > max) {
            throw new BenchException("the peer's " + kind + " record has " + key + "=" + v + ", outside " + min
                    + ".." + max);
        }
        return n;
    }

    /** A field holding 64 unsigned bits as {@code 0x} and up to 16 hex digits (an address). */
    public long getHex(String key) {
        String v = get(key);
        if (!v.matches("0x[0-9a-f]{1,16}")) {
            throw new BenchException("the peer's " + kind + " record has " + key + "='" + abbreviate(v)
                    + "', not 0x and hex digits");
        }
        return Long.parseUnsignedLong(v.substring(2), 16);
    }

    /** A field holding a double. */
    public double getDouble(String key) {
        String v = get(key);
        try {
            double d = Double.parseDouble(v);
            if (!Double.isFinite(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new BenchException("the peer's " + kind + " record has " + key + "='" + abbreviate(v)
                    + "', not a finite number");
        }
    }

    /** The error record a side sends before it stops, so the other side says why instead of "disconnected". */
    public static String error(String why) {
        String w = why.replaceAll("[^!-~ ]", "?").replace(' ', '_');
        return "ERROR " + (w.length() > 200 ? w.substring(0, 200) : w);
    }
}
