package io.xdlink.cli.docs;

import java.util.ArrayList;
import java.util.List;

/**
 * One Markdown page as the documentation checks read it: its code (inline spans and the lines of fenced blocks), its
 * prose with the code taken out (where links live), and its headings. Only what the pages use is understood: fences
 * of three or more backticks or tildes, spans of any number of backticks (which may run over a line break inside a
 * paragraph), and ATX headings. Text that breaks these rules (an unclosed fence, a lone backtick) is read the way
 * GitHub renders it: an unclosed fence runs to the end, a backtick without a partner is a plain character.
 *
 * @param name     the page's path from the repository root, used in every problem reported
 * @param code     every code span and every line of every code block, in order
 * @param prose    each paragraph outside code blocks with its code spans blanked out, joined into one line
 * @param headings the text of every heading, without the leading #'s
 */
record Markdown(String name, List<Code> code, List<Text> prose, List<String> headings) {

    /** A piece of code: a whole span, or one line of a fenced block. */
    record Code(int line, String text, boolean block) {
    }

    /** Prose starting on {@code line}. */
    record Text(int line, String text) {
    }

    static Markdown parse(String name, String text) {
        List<Code> code = new ArrayList<>();
        List<Text> prose = new ArrayList<>();
        List<String> headings = new ArrayList<>();
        String[] lines = text.split("\r?\n"); // trailing empty lines carry nothing
        String fence = null;
        StringBuilder paragraph = new StringBuilder();
        int paragraphLine = 0;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            String trimmed = line.strip();
            if (fence != null) {
                if (closes(trimmed, fence)) {
                    fence = null;
                } else {
                    code.add(new Code(i + 1, line, true));
                }
                continue;
            }
            String opening = fenceOf(trimmed);
            if (opening != null || trimmed.isEmpty() || trimmed.startsWith("#")) {
                flush(paragraph, paragraphLine, code, prose);
                if (opening != null) {
                    fence = opening;
                } else if (trimmed.startsWith("#")) {
                    String heading = trimmed.replaceFirst("^#+\\s*", "");
                    headings.add(heading);
                    paragraph.append(heading);
                    paragraphLine = i + 1;
                    flush(paragraph, paragraphLine, code, prose);
                }
                continue;
            }
            if (paragraph.isEmpty()) {
                paragraphLine = i + 1;
            } else {
                paragraph.append('\n');
            }
            paragraph.append(line);
        }
        flush(paragraph, paragraphLine, code, prose);
        return new Markdown(name, List.copyOf(code), List.copyOf(prose), List.copyOf(headings));
    }

    /** True when the line closes the fence: a run of its character at least as long, and nothing else. */
    private static boolean closes(String trimmed, String fence) {
        return trimmed.startsWith(fence) && trimmed.chars().allMatch(c -> c == fence.charAt(0));
    }

    /** The fence a line opens (its run of backticks or tildes), or null when it opens none. */
    private static String fenceOf(String trimmed) {
        for (String f : List.of("```", "~~~")) {
            if (trimmed.startsWith(f)) {
                int n = 0;
                while (n < trimmed.length() && trimmed.charAt(n) == f.charAt(0)) {
                    n++;
                }
                return trimmed.substring(0, n);
            }
        }
        return null;
    }

    /** Splits a paragraph into its code spans and its prose, then empties it. */
    private static void flush(StringBuilder paragraph, int firstLine, List<Code> code, List<Text> prose) {
        if (paragraph.isEmpty()) {
            return;
        }
        String p = paragraph.toString();
        StringBuilder rest = new StringBuilder(p.length());
        int i = 0;
        while (i < p.length()) {
            if (p.charAt(i) != '`') {
                rest.append(p.charAt(i++));
                continue;
            }
            int run = runAt(p, i);
            int close = closingRun(p, i + run, run);
            if (close < 0) {
                rest.append(p, i, i + run);
                i += run;
                continue;
            }
            int line = firstLine + (int) p.substring(0, i).chars().filter(c -> c == '\n').count();
            code.add(new Code(line, p.substring(i + run, close).replace('\n', ' ').strip(), false));
            rest.append(" ".repeat(close + run - i));
            i = close + run;
        }
        prose.add(new Text(firstLine, rest.toString().replace('\n', ' ')));
        paragraph.setLength(0);
    }

    private static int runAt(String s, int at) {
        int n = 0;
        while (at + n < s.length() && s.charAt(at + n) == '`') {
            n++;
        }
        return n;
    }

    /** Where the next run of exactly {@code run} backticks starts at or after {@code from}, or -1. */
    private static int closingRun(String s, int from, int run) {
        int i = from;
        while (i < s.length()) {
            if (s.charAt(i) == '`') {
                int n = runAt(s, i);
                if (n == run) {
                    return i;
                }
                i += n;
            } else {
                i++;
            }
        }
        return -1;
    }
}
