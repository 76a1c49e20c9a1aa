package io.xdlink.xdomain.property;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One entry of a property directory: a key of at most 8 characters and a typed value. The same key may appear with
 * different types in one directory (Linux publishes {@code vendorid} as an immediate and as text); look-ups match
 * key and type.
 */
public sealed interface Property {
    /** Directory ('D'). */
    int TYPE_DIRECTORY = 0x44;
    /** Data ('d'). */
    int TYPE_DATA = 0x64;
    /** Text ('t'). */
    int TYPE_TEXT = 0x74;
    /** Immediate value ('v'). */
    int TYPE_IMMEDIATE = 0x76;
    /** A key is at most this many bytes. */
    int MAX_KEY = 8;

    String key();

    /** The type byte as it appears in bits 31:24 of an entry's third word. */
    int type();

    /** Checks a key: at most 8 bytes, one byte per character (ISO-8859-1), no NUL. */
    static String checkKey(String key) {
        Objects.requireNonNull(key, "key");
        if (key.length() > MAX_KEY) {
            throw new IllegalArgumentException("key '" + key + "' is longer than " + MAX_KEY + " characters");
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c == 0 || c > 0xFF) {
                throw new IllegalArgumentException("key '" + key + "' has a character that is not one byte: "
                        + (int) c);
            }
        }
        return key;
    }

    /** {@code 'v'}: a 32-bit value held in the entry itself. */
    record Immediate(String key, int value) implements Property {
        public Immediate {
            checkKey(key);
        }

        @Override
        public int type() {
            return TYPE_IMMEDIATE;
        }
    }

    /**
     * {@code 't'}: a NUL-terminated string in {@code dwords} dwords. Linux pads to round_up(strlen + 1, 4) bytes;
     * {@link #of} does the same. The value is kept as the bytes before the NUL (Linux treats them as a C string and
     * a hostname may be UTF-8), so a parsed text formats back to the same bytes; {@link #text()} decodes them.
     *
     * @param value  the string's bytes, without the terminating NUL
     * @param dwords the length the entry declares; the bytes and a NUL must fit
     */
    record Text(String key, byte[] value, int dwords) implements Property {
        public Text {
            checkKey(key);
            value = Objects.requireNonNull(value, "value").clone();
            for (byte b : value) {
                if (b == 0) {
                    throw new IllegalArgumentException("text of '" + key + "' contains NUL");
                }
            }
            int need = (value.length + 1 + 3) / 4;
            if (dwords < need || dwords > 0xFFFF) {
                throw new IllegalArgumentException("text of '" + key + "' needs " + need + ".." + 0xFFFF
                        + " dwords: " + dwords);
            }
        }

        /** A UTF-8 text padded the way Linux pads it. */
        public static Text of(String key, String text) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            return new Text(key, bytes, (bytes.length + 1 + 3) / 4);
        }

        /** The string, decoded as UTF-8 (bytes that are not UTF-8 show as U+FFFD). */
        public String text() {
            return new String(value, StandardCharsets.UTF_8);
        }

        @Override
        public byte[] value() {
            return value.clone();
        }

        @Override
        public int type() {
            return TYPE_TEXT;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Text t && key.equals(t.key) && dwords == t.dwords && Arrays.equals(value, t.value);
        }

        @Override
        public int hashCode() {
            return (key.hashCode() * 31 + Arrays.hashCode(value)) * 31 + dwords;
        }

        @Override
        public String toString() {
            return "Text[key=" + key + ", text=" + text() + ", dwords=" + dwords + "]";
        }
    }

    /** {@code 'd'}: raw data, zero padded to whole dwords; byte i of the data is byte i on the wire. */
    record Data(String key, byte[] bytes) implements Property {
        public Data {
            checkKey(key);
            bytes = Objects.requireNonNull(bytes, "bytes").clone();
            if (bytes.length % 4 != 0 || bytes.length / 4 > 0xFFFF) {
                throw new IllegalArgumentException("data of '" + key + "' must be whole dwords (use Data.of): "
                        + bytes.length + " bytes");
            }
        }

        /** Data padded with zeros to a whole number of dwords, as Linux pads it. */
        public static Data of(String key, byte[] raw) {
            return new Data(key, Arrays.copyOf(raw, (raw.length + 3) / 4 * 4));
        }

        @Override
        public byte[] bytes() {
            return bytes.clone();
        }

        public int dwords() {
            return bytes.length / 4;
        }

        @Override
        public int type() {
            return TYPE_DATA;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Data d && key.equals(d.key) && Arrays.equals(bytes, d.bytes);
        }

        @Override
        public int hashCode() {
            return key.hashCode() * 31 + Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return "Data[key=" + key + ", bytes=" + HexFormat.of().formatHex(bytes) + "]";
        }
    }

    /** {@code 'D'}: a sub-directory, which carries its own UUID. */
    record Directory(String key, PropertyDirectory directory) implements Property {
        public Directory {
            checkKey(key);
            Objects.requireNonNull(directory, "directory");
            if (directory.uuid() == null) {
                throw new IllegalArgumentException("sub-directory '" + key + "' needs a UUID");
            }
        }

        @Override
        public int type() {
            return TYPE_DIRECTORY;
        }
    }

    /**
     * An entry of a type this codec does not know. Kept whole (type byte, length and value word) so a block that
     * passes through xdlink loses nothing; formatting writes the three back unchanged.
     */
    record Unknown(String key, int type, int length, int value) implements Property {
        public Unknown {
            checkKey(key);
            if (type < 0 || type > 0xFF || type == TYPE_DIRECTORY || type == TYPE_DATA || type == TYPE_TEXT
                    || type == TYPE_IMMEDIATE) {
                throw new IllegalArgumentException("not an unknown type: " + type);
            }
            if (length < 0 || length > 0xFFFF) {
                throw new IllegalArgumentException("length must fit 16 bits: " + length);
            }
        }
    }
}
