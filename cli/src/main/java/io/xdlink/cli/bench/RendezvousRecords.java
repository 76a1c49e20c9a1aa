package io.xdlink.cli.bench;

import java.nio.charset.StandardCharsets;

import static io.xdlink.cli.bench.Rendezvous.RECORD_BYTES;

/**
 * The records {@link Rendezvous} swaps: fixed-size, printable ASCII, NUL padded, as perftest's exchange. The bytes
 * come from whoever connected, so {@link #decode} checks every one of them, and {@link #printable} quotes a
 * stranger's bytes safely for a log line.
 */
final class RendezvousRecords {
    private RendezvousRecords() {
    }

    /** The first bytes of what a stranger sent, quoted with anything unprintable escaped, for one log line. */
    static String printable(byte[] b, int n) {
        StringBuilder sb = new StringBuilder("'");
        for (int i = 0; i < Math.min(n, 40); i++) {
            int c = b[i] & 0xff;
            if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') {
                sb.append((char) c);
            } else {
                sb.append(String.format("\\x%02x", c));
            }
        }
        return sb.append(n > 40 ? "'..." : "'").toString();
    }

    /** The wire form of {@code record}: its ASCII bytes, NUL padded to {@value Rendezvous#RECORD_BYTES}. */
    static byte[] encode(String record) {
        byte[] text = record.getBytes(StandardCharsets.US_ASCII);
        if (text.length >= RECORD_BYTES) {
            throw new IllegalArgumentException("record longer than " + (RECORD_BYTES - 1) + " bytes");
        }
        for (int i = 0; i < record.length(); i++) {
            char c = record.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                throw new IllegalArgumentException("record has a non-printable character at " + i);
            }
        }
        byte[] b = new byte[RECORD_BYTES];
        System.arraycopy(text, 0, b, 0, text.length);
        return b;
    }

    /** The record in a wire form, refusing anything that is not printable ASCII followed by NUL padding only. */
    static String decode(byte[] b) {
        int end = 0;
        while (end < b.length && b[end] != 0) {
            int c = b[end] & 0xff;
            if (c < 0x20 || c > 0x7e) {
                throw new BenchException("the peer sent a record that is not an xdlink bench record (byte 0x"
                        + Integer.toHexString(c) + " at " + end + "); is it a perftest or another program?");
            }
            end++;
        }
        for (int i = end; i < b.length; i++) {
            if (b[i] != 0) {
                throw new BenchException("the peer sent a malformed record (data after the terminator at " + end
                        + ")");
            }
        }
        return new String(b, 0, end, StandardCharsets.US_ASCII);
    }

    /** At most 40 characters of {@code s}, for an error message. */
    static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 37) + "..." : s;
    }
}
