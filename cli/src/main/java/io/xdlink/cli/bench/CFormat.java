package io.xdlink.cli.bench;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The two printf conversions perftest's tables use, with C's exact results: {@code %-W.Pf} rounds the exact binary
 * value half-to-even (Java's Formatter rounds half-up, which differs on exact ties such as 0.125), and {@code %-Wd}
 * pads on the right.
 */
final class CFormat {
    private CFormat() {
    }

    /** {@code %.Pf} as glibc prints it. */
    static String fixed(double value, int precision) {
        if (Double.isNaN(value)) {
            return Double.doubleToRawLongBits(value) < 0 ? "-nan" : "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        String s = new BigDecimal(value).setScale(precision, RoundingMode.HALF_EVEN).toPlainString();
        // C keeps the sign of a negative value that rounds to zero: printf("%.2f", -0.001) prints -0.00.
        if ((value < 0 || (value == 0 && 1 / value < 0)) && !s.startsWith("-")) {
            s = "-" + s;
        }
        return s;
    }

    /** {@code %-W.Pf}. */
    static String fixed(double value, int width, int precision) {
        return left(fixed(value, precision), width);
    }

    /** {@code %-Wd} / {@code %-Wlu}. */
    static String left(long value, int width) {
        return left(Long.toString(value), width);
    }

    /** A byte count as people write it: 64K, 8M, 1G, or plain bytes. */
    static String sizeText(long bytes) {
        if (bytes > 0 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "G";
        }
        if (bytes > 0 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "M";
        }
        if (bytes > 0 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + "K";
        }
        return Long.toString(bytes);
    }

    /** Left-justifies in a field of at least {@code width} characters. */
    static String left(String s, int width) {
        if (s.length() >= width) {
            return s;
        }
        return s + " ".repeat(width - s.length());
    }
}
