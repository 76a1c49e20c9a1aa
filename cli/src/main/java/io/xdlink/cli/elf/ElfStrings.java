package io.xdlink.cli.elf;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.Arrays;

/**
 * Finds NUL-terminated strings that start with a prefix in one section of an ELF file, reading it in pieces. A
 * collective library's loader names the plugin symbols it looks up as string literals in {@code .rodata}; reading
 * them tells what the installed library asks for without trusting its version number.
 */
public final class ElfStrings {
    /** Bytes read per piece. */
    static final int CHUNK = 1 << 20;
    /** Longest string returned; longer matches are cut here. */
    static final int MAX_LENGTH = 128;
    /** Most strings returned. */
    static final int MAX_RESULTS = 256;
    /** Most bytes of one section scanned. */
    static final long MAX_SCAN = 1L << 30;

    private ElfStrings() {
    }

    /**
     * Every string in the named section that contains {@code prefix} followed by at least one character before its
     * NUL, from the prefix on.
     */
    public static Set<String> find(Path file, ElfSection section, String prefix) throws ElfException {
        byte[] p = prefix.getBytes(StandardCharsets.US_ASCII);
        Set<String> found = new TreeSet<>();
        if (section.type() == ElfSection.SHT_NOBITS || p.length == 0) {
            return found;
        }
        long size = Math.min(section.size(), MAX_SCAN);
        try (ElfSource src = ElfSource.open(file)) {
            byte[] carry = new byte[0];
            for (long off = 0; off < size && found.size() < MAX_RESULTS; off += CHUNK) {
                int n = (int) Math.min(CHUNK, size - off);
                byte[] piece = src.read(section.offset() + off, n, section.name() + " piece at " + off)
                        .toArray(ValueLayout.JAVA_BYTE);
                byte[] buf = new byte[carry.length + piece.length];
                System.arraycopy(carry, 0, buf, 0, carry.length);
                System.arraycopy(piece, 0, buf, carry.length, piece.length);
                int keepFrom = scan(buf, p, found, off + n >= size);
                carry = Arrays.copyOfRange(buf, keepFrom, buf.length);
            }
        } catch (IOException e) {
            throw new ElfException(file + ": cannot read " + section.name() + ": " + e.getMessage());
        }
        return found;
    }

    /** Scans one buffer; returns where the unfinished tail starts (kept for the next piece). */
    private static int scan(byte[] buf, byte[] prefix, Set<String> found, boolean last) {
        int limit = buf.length - prefix.length;
        for (int i = 0; i <= limit && found.size() < MAX_RESULTS; i++) {
            if (buf[i] != prefix[0] || !startsWith(buf, i, prefix)) {
                continue;
            }
            int end = i + prefix.length;
            while (end < buf.length && buf[end] != 0 && end - i < MAX_LENGTH) {
                end++;
            }
            if (end == buf.length && !last) {
                return i;
            }
            if (end > i + prefix.length) {
                found.add(new String(buf, i, end - i, StandardCharsets.ISO_8859_1));
            }
            i = end;
        }
        return Math.max(0, Math.min(buf.length, limit + 1));
    }

    private static boolean startsWith(byte[] buf, int at, byte[] prefix) {
        for (int k = 0; k < prefix.length; k++) {
            if (buf[at + k] != prefix[k]) {
                return false;
            }
        }
        return true;
    }
}
