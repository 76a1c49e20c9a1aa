package io.xdlink.params;

/** Overflow-checked parsing of numbers and sizes, as the kernel's kstrto* helpers do it (decimal or 0x hex). */
final class Numbers {
    private Numbers() {
    }

    static long parseLong(String t, String original, String range) {
        boolean negative = false;
        String s = t;
        if (s.startsWith("-") || s.startsWith("+")) {
            negative = s.charAt(0) == '-';
            s = s.substring(1);
        }
        int radix = 10;
        if (s.length() > 2 && (s.startsWith("0x") || s.startsWith("0X"))) {
            radix = 16;
            s = s.substring(2);
        }
        if (s.isEmpty()) {
            throw notANumber(original, range);
        }
        if (s.length() > 20) {
            // Too long for any long: say "overflows" when it is a number, so a user sees why it was refused.
            for (int i = 0; i < s.length(); i++) {
                if (Character.digit(s.charAt(i), radix) < 0) {
                    throw notANumber(original, range);
                }
            }
            throw new ParamValueException("'" + ParamValueException.clip(original) + "' overflows; allowed: " + range);
        }
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            int d = Character.digit(s.charAt(i), radix);
            if (d < 0) {
                throw notANumber(original, range);
            }
            try {
                v = Math.addExact(Math.multiplyExact(v, radix), d);
            } catch (ArithmeticException overflow) {
                throw new ParamValueException("'" + ParamValueException.clip(original) + "' overflows; allowed: " + range);
            }
        }
        return negative ? -v : v;
    }

    static long parseSize(String text, String range) {
        String t = text.trim();
        if (t.isEmpty()) {
            throw notANumber(text, range);
        }
        long multiplier = 1;
        char last = Character.toUpperCase(t.charAt(t.length() - 1));
        switch (last) {
            case 'K' -> multiplier = 1L << 10;
            case 'M' -> multiplier = 1L << 20;
            case 'G' -> multiplier = 1L << 30;
            default -> { }
        }
        if (multiplier != 1) {
            t = t.substring(0, t.length() - 1);
        }
        if (t.startsWith("-") || t.startsWith("+")) {
            throw new ParamValueException("'" + ParamValueException.clip(text) + "' must be a size in " + range);
        }
        long v = parseLong(t, text, range);
        try {
            return Math.multiplyExact(v, multiplier);
        } catch (ArithmeticException overflow) {
            throw new ParamValueException("'" + ParamValueException.clip(text) + "' overflows; allowed: " + range);
        }
    }

    /** Prints a size with the largest suffix that divides it exactly. */
    static String formatSize(long bytes) {
        if (bytes != 0) {
            if (bytes % (1L << 30) == 0) {
                return (bytes >> 30) + "G";
            }
            if (bytes % (1L << 20) == 0) {
                return (bytes >> 20) + "M";
            }
            if (bytes % (1L << 10) == 0) {
                return (bytes >> 10) + "K";
            }
        }
        return Long.toString(bytes);
    }

    /** True when the text is a number followed by a K, M or G size suffix, which only size parameters take. */
    static boolean hasSizeSuffix(String text) {
        String t = text.trim();
        if (t.length() < 2 || "KkMmGg".indexOf(t.charAt(t.length() - 1)) < 0) {
            return false;
        }
        try {
            parseLong(t.substring(0, t.length() - 1), text, "");
            return true;
        } catch (ParamValueException e) {
            return false;
        }
    }

    private static ParamValueException notANumber(String original, String range) {
        return new ParamValueException("'" + ParamValueException.clip(original) + "' is not a number; allowed: " + range);
    }
}
