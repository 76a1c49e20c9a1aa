package io.xdlink.cli.bench;

import io.xdlink.xdomain.sysfs.Text;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The kernel's running totals of processor time for the whole host, from the {@code cpu} line of
 * {@code /proc/stat}, in clock ticks summed over every processor: all of it, the part spent idle (idle and waiting
 * on I/O) and the part the hypervisor ran something else while this machine's processors wanted to run ({@code
 * steal}; -1 where the kernel does not report it).
 *
 * <p>Guest time is already counted inside user and nice time, so it is not added again.
 *
 * @param total      every tick of every processor
 * @param idle       idle and I/O wait
 * @param steal      taken by the hypervisor, or -1 when the line has no such field
 * @param processors how many {@code cpuN} lines follow the total
 */
record ProcessorTimes(long total, long idle, long steal, int processors) {

    /** No host has more processors than this (a {@code cpuN} line each): a longer list is refused. */
    static final int MAX_PROCESSORS = 16_384;
    /** The longest line read; the {@code intr} line of a large host runs to tens of kilobytes and is skipped. */
    private static final int MAX_LINE = 1 << 20;

    /** Reads {@code file}; throws naming the file when it is not a {@code /proc/stat}. */
    static ProcessorTimes read(Path file) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
            String first = bounded(in);
            if (first == null) {
                throw new IOException(file + " is empty");
            }
            int processors = 0;
            String line;
            while ((line = bounded(in)) != null && line.startsWith("cpu")) {
                if (++processors > MAX_PROCESSORS) {
                    throw new IOException(file + " lists more than " + MAX_PROCESSORS + " processors");
                }
            }
            try {
                return parse(first, processors);
            } catch (IllegalArgumentException e) {
                throw new IOException(file + ": " + e.getMessage());
            }
        } catch (java.nio.charset.MalformedInputException e) {
            throw new IOException(file + " is not text");
        }
    }

    /** One line at most {@link #MAX_LINE} characters long; the rest of a longer one is refused, not buffered. */
    private static String bounded(BufferedReader in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) != -1 && c != '\n') {
            if (b.length() == MAX_LINE) {
                throw new IOException("a line longer than " + MAX_LINE + " characters");
            }
            b.append((char) c);
        }
        return c == -1 && b.isEmpty() ? null : b.toString();
    }

    /**
     * Parses the {@code cpu} line: {@code cpu user nice system idle [iowait irq softirq [steal [guest
     * [guest_nice]]]]}, every field a non-negative decimal count.
     */
    static ProcessorTimes parse(String line, int processors) {
        String[] f = line.strip().split("\\s+");
        if (!f[0].equals("cpu")) {
            throw new IllegalArgumentException("the first line is not the total cpu line: " + Text.quote(line));
        }
        if (f.length < 5) {
            throw new IllegalArgumentException("the cpu line has " + (f.length - 1)
                    + " fields, fewer than user, nice, system and idle");
        }
        if (f.length > 11) {
            throw new IllegalArgumentException("the cpu line has " + (f.length - 1) + " fields, more than the 10 "
                    + "a kernel writes");
        }
        long[] v = new long[f.length - 1];
        for (int i = 1; i < f.length; i++) {
            v[i - 1] = count(f[i], i);
        }
        long total = 0;
        // user nice system idle iowait irq softirq steal: guest and guest_nice are inside user and nice already.
        try {
            for (int i = 0; i < Math.min(v.length, 8); i++) {
                total = Math.addExact(total, v[i]);
            }
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("the cpu line's fields add up to more than a 64-bit count");
        }
        long idle = v[3] + (v.length > 4 ? v[4] : 0);
        long steal = v.length > 7 ? v[7] : -1;
        return new ProcessorTimes(total, idle, steal, processors);
    }

    private static long count(String field, int index) {
        try {
            if (field.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return Long.parseLong(field);
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("field " + index + " of the cpu line, " + Text.quote(field)
                    + ", is larger than a 64-bit count");
        }
        throw new IllegalArgumentException("field " + index + " of the cpu line is " + Text.quote(field)
                + ", not a count of clock ticks");
    }
}
