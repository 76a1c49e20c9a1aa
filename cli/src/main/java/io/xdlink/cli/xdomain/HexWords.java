package io.xdlink.cli.xdomain;

import io.xdlink.cli.UsageException;
import io.xdlink.xdomain.sysfs.Text;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads 32-bit words written as hex: one word per token, tokens separated by spaces, commas or new lines, each with
 * or without {@code 0x}; a token of 1 to 8 digits is one word's value, a longer one must be whole words (a dump
 * without spaces). Brackets and a leading {@code data=} are ignored, so a tracefs line such as
 * {@code data=[0x00000000, 0x00000001, ...]} pastes as it is. Reads at most {@link #MAX_WORDS} words.
 */
final class HexWords {
    /** More than any packet (63 words + CRC) or property block (500 dwords) needs. */
    static final int MAX_WORDS = 1024;

    private HexWords() {
    }

    /** The words of {@code text}; bad input is a {@link UsageException} naming the token. */
    static int[] parse(String text) {
        List<Integer> words = new ArrayList<>();
        int token = 0;
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (isSeparator(c)) {
                i++;
                continue;
            }
            int start = i;
            while (i < n && !isSeparator(text.charAt(i))) {
                i++;
            }
            token++;
            String t = text.substring(start, i);
            if (t.regionMatches(true, 0, "data=", 0, 5)) {
                t = t.substring(5);
                if (t.isEmpty()) {
                    continue;
                }
            }
            word(t, token, words);
            if (words.size() > MAX_WORDS) {
                throw new UsageException("more than " + MAX_WORDS + " words: a packet has at most 64 with its CRC,"
                        + " a property block at most 500");
            }
        }
        if (words.isEmpty()) {
            throw new UsageException("no hex words given");
        }
        int[] out = new int[words.size()];
        for (int k = 0; k < out.length; k++) {
            out[k] = words.get(k);
        }
        return out;
    }

    private static boolean isSeparator(char c) {
        return c == ' ' || c == ',' || c == '\n' || c == '\r' || c == '\t' || c == '[' || c == ']' || c == ';';
    }

    private static void word(String token, int index, List<Integer> words) {
        String digits = token.startsWith("0x") || token.startsWith("0X") ? token.substring(2) : token;
        if (digits.isEmpty()) {
            throw new UsageException("token " + index + " '" + shorten(token) + "': no hex digits");
        }
        for (int k = 0; k < digits.length(); k++) {
            if (Character.digit(digits.charAt(k), 16) < 0) {
                throw new UsageException("token " + index + " '" + shorten(token) + "': '"
                        + Text.printable(digits.substring(k, digits.offsetByCodePoints(k, 1))) + "' is not a hex digit");
            }
        }
        if (digits.length() <= 8) {
            words.add(Integer.parseUnsignedInt(digits, 16));
            return;
        }
        if (digits.length() % 8 != 0) {
            throw new UsageException("token " + index + " '" + shorten(token) + "': " + digits.length()
                    + " hex digits is neither one word (up to 8) nor whole words (a multiple of 8)");
        }
        for (int k = 0; k < digits.length() && words.size() <= MAX_WORDS; k += 8) {
            words.add(Integer.parseUnsignedInt(digits, k, k + 8, 16));
        }
    }

    /** The token as echoed: escaped (it may hold control characters or bidirectional overrides) and cut short. */
    private static String shorten(String token) {
        return Text.printable(token.length() <= 24 ? token : token.substring(0, 21) + "...");
    }
}
