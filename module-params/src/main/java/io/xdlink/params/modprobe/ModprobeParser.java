package io.xdlink.params.modprobe;

import io.xdlink.params.files.BoundedFile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Arrays;

/**
 * Reads modprobe.d files the way kmod reads them (libkmod-config.c and its line reader), so that what we report is
 * what modprobe will do:
 * <ul>
 *   <li>a backslash before a line end joins the next line <em>without</em> adding a space; a backslash before any
 *       other character is dropped and the character kept; a backslash at the end of the file is dropped;</li>
 *   <li>a line is a comment when its first character is '#' (a '#' later on is not a comment: it reaches the kernel
 *       as a parameter) and a comment that ends with a backslash swallows the next line;</li>
 *   <li>words are separated by spaces and tabs; the commands are options, install, remove, alias, blacklist and
 *       softdep; anything else makes modprobe skip the line with an error;</li>
 *   <li>the text after an {@code options} module name goes to the kernel, which splits it as {@link KernelArgs}
 *       does.</li>
 * </ul>
 * Hostile input costs bounded work: one pass over the text, at most {@value #MAX_LINE} characters kept per logical
 * line, at most {@value #MAX_FILE_BYTES} bytes read per file, at most {@value #MAX_PROBLEMS} problems listed per file.
 */
public final class ModprobeParser {
    /** The longest logical line that is parsed; a longer one is reported and skipped. */
    public static final int MAX_LINE = 64 * 1024;
    /** The largest file that is read; a configuration file is a few kilobytes. */
    public static final int MAX_FILE_BYTES = 4 << 20;
    /** Problems listed per file before the rest are only counted. */
    public static final int MAX_PROBLEMS = 50;

    private static final List<String> COMMANDS = List.of("options", "install", "remove", "alias", "blacklist", "softdep");

    private ModprobeParser() {
    }

    /**
     * Reads and parses one file. A file over {@value #MAX_FILE_BYTES} bytes is not parsed; its result carries one
     * error saying so.
     *
     * @throws IOException when the file cannot be read (missing, a directory, no permission)
     */
    public static ModprobeFile read(Path path) throws IOException {
        String name = path.toString();
        byte[] bytes;
        try {
            bytes = BoundedFile.read(path, MAX_FILE_BYTES);
        } catch (BoundedFile.TooLarge e) {
            return new ModprobeFile(name, List.of(), List.of(new ModprobeProblem(name, 0, Severity.ERROR,
                    "larger than " + (MAX_FILE_BYTES >> 20) + " MiB; a modprobe.d file that big is not a "
                            + "configuration file, so it was not read")));
        }
        return parse(name, bytes);
    }

    /** Parses bytes as kmod would read them; invalid UTF-8 is shown as U+FFFD in messages. */
    public static ModprobeFile parse(String file, byte[] bytes) {
        return parse(file, new String(bytes, StandardCharsets.UTF_8));
    }

    /** Parses the text of one file. */
    public static ModprobeFile parse(String file, String text) {
        return new Reader(file, text).read();
    }

    /** One pass over one file's text. */
    private static final class Reader {
        private final String file;
        private final String text;
        private final List<ModprobeCommand> commands = new ArrayList<>();
        private final List<ModprobeProblem> problems = new ArrayList<>();
        private int unlisted;
        private int pos;
        private int lineNo = 1;
        private boolean sawCarriageReturn;

        Reader(String file, String text) {
            this.file = file;
            this.text = text;
        }

        ModprobeFile read() {
            int nul = text.indexOf('\0');
            if (nul >= 0) {
                problem(lineAtOffset(nul), Severity.ERROR, "binary data (a NUL byte): this is not a modprobe "
                        + "configuration file, so nothing in it was read");
                return result();
            }
            while (pos < text.length()) {
                readLogicalLine();
            }
            if (sawCarriageReturn) {
                problem(0, Severity.WARNING, "the file has CR LF line ends; modprobe keeps each CR as part of the "
                        + "line's last word, which breaks blacklist, alias, install and '\\' continuations");
            }
            return result();
        }

        private ModprobeFile result() {
            if (unlisted > 0) {
                problems.add(new ModprobeProblem(file, 0, Severity.ERROR,
                        unlisted + " more problems not listed (the first " + MAX_PROBLEMS + " are)"));
            }
            return new ModprobeFile(file, commands, problems);
        }

        private int lineAtOffset(int offset) {
            int line = 1;
            for (int i = 0; i < offset; i++) {
                if (text.charAt(i) == '\n') {
                    line++;
                }
            }
            return line;
        }

        private void problem(int line, Severity severity, String message) {
            if (problems.size() >= MAX_PROBLEMS) {
                unlisted++;
                return;
            }
            problems.add(new ModprobeProblem(file, line, severity, message));
        }

        /** Joins physical lines as kmod does and hands the logical line on. */
        private void readLogicalLine() {
            LogicalLine line = new LogicalLine(lineNo);
            int n = text.length();
            while (pos < n) {
                char c = text.charAt(pos);
                if (c == '\n') {
                    pos++;
                    lineNo++;
                    break;
                }
                if (c != '\\') {
                    if (c == '\r' && pos + 1 < n && text.charAt(pos + 1) == '\n') {
                        sawCarriageReturn = true;
                    }
                    line.append(c);
                    pos++;
                    continue;
                }
                if (pos + 1 == n) {
                    problem(lineNo, Severity.WARNING, "the file ends with '\\'; modprobe drops it and reads the "
                            + "line as it stands");
                    pos++;
                    break;
                }
                char next = text.charAt(pos + 1);
                if (next == '\n') {
                    pos += 2;
                    lineNo++;
                    if (pos == n) {
                        problem(lineNo - 1, Severity.WARNING, "the line ends with '\\' but the file ends there: "
                                + "the continuation continues nothing; modprobe reads the line as it stands");
                        break;
                    }
                    line.continueAt(lineNo, text.charAt(pos));
                    continue;
                }
                if (next == '\r' && pos + 2 < n && text.charAt(pos + 2) == '\n') {
                    problem(lineNo, Severity.WARNING, "'\\' before a CR LF line end does not continue the line "
                            + "(modprobe continues only '\\' followed by LF), so the next line stands alone");
                }
                // kmod drops a backslash that does not end a line and keeps the character after it.
                line.append(next);
                pos += 2;
            }
            handle(line);
        }

        private void handle(LogicalLine line) {
            if (line.length > MAX_LINE) {
                problem(line.firstLine, Severity.ERROR, "a line of " + line.length + " characters; lines longer "
                        + "than " + MAX_LINE + " characters are not read, so this one was skipped");
                return;
            }
            String s = line.text.toString();
            if (s.isEmpty()) {
                return;
            }
            if (s.charAt(0) == '#' || firstWord(s, 0).text.startsWith("#")) {
                if (line.continuedWithText) {
                    problem(line.firstLine, Severity.WARNING, "this comment ends with '\\', so modprobe reads line "
                            + (line.firstLine + 1) + " as part of the comment and ignores it");
                }
                return;
            }
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if ((c < 0x20 && c != '\t' && c != '\r' && c != '\f' && c != 0x0b) || c == 0x7f) {
                    problem(line.lineAt(i), Severity.ERROR, String.format("control character 0x%02x in a command "
                            + "line; this is not text modprobe can use, so the line was skipped", (int) c));
                    return;
                }
            }
            for (int offset : line.gluedAt) {
                String word = wordAround(s, offset);
                problem(line.lineAt(offset), Severity.WARNING, "this line continues the one before without a "
                        + "space, so modprobe reads '" + SafeText.clip(word) + "' as one word; put a space "
                        + "before the '\\'");
            }
            command(line, s);
        }

        private void command(LogicalLine line, String s) {
            int at = line.firstLine;
            Word cmd = firstWord(s, 0);
            Word second = firstWord(s, cmd.end);
            switch (cmd.text) {
                case "options", "install", "remove", "softdep" -> {
                    // kmod hands on everything after the one separator that follows the module name.
                    String rest = second.text.isEmpty() || second.end >= s.length() ? "" : s.substring(second.end + 1);
                    if (rest.isEmpty()) {
                        syntax(at, cmd.text, "a module name and " + (cmd.text.equals("options") ? "parameters"
                                : cmd.text.equals("softdep") ? "its dependencies" : "a command"));
                        return;
                    }
                    int restOffset = second.end + 1;
                    commands.add(switch (cmd.text) {
                        case "options" -> new ModprobeCommand.Options(file, at, second.text, rest,
                                options(line, rest, restOffset));
                        case "install" -> new ModprobeCommand.Install(file, at, second.text, rest);
                        case "remove" -> new ModprobeCommand.Remove(file, at, second.text, rest);
                        default -> new ModprobeCommand.Softdep(file, at, second.text, rest);
                    });
                }
                case "alias" -> {
                    Word third = firstWord(s, second.end);
                    if (third.text.isEmpty()) {
                        syntax(at, cmd.text, "a wildcard and a module name");
                        return;
                    }
                    commands.add(new ModprobeCommand.Alias(file, at, second.text, third.text));
                }
                case "blacklist" -> {
                    if (second.text.isEmpty()) {
                        syntax(at, cmd.text, "a module name");
                        return;
                    }
                    commands.add(new ModprobeCommand.Blacklist(file, at, second.text));
                }
                case "include", "config" -> problem(at, Severity.ERROR, "modprobe no longer reads '" + cmd.text
                        + "' commands; this line is ignored");
                default -> problem(at, Severity.ERROR, "modprobe ignores this line: '" + SafeText.clip(cmd.text)
                        + "' is not a modprobe command" + commandHint(cmd.text));
            }
        }

        private void syntax(int line, String cmd, String needs) {
            problem(line, Severity.ERROR, "modprobe ignores this line: '" + cmd + "' needs " + needs);
        }

        private static String commandHint(String word) {
            for (String c : COMMANDS) {
                if (c.equalsIgnoreCase(word) || c.equals(word + "s") || (c + "s").equals(word)) {
                    return "; did you mean '" + c + "'?";
                }
            }
            return " (" + String.join(", ", COMMANDS) + ")";
        }

        private List<ModprobeOption> options(LogicalLine line, String rest, int restOffset) {
            List<ModprobeOption> out = new ArrayList<>();
            for (KernelArgs.Arg a : KernelArgs.split(rest)) {
                out.add(new ModprobeOption(a.name(), a.value(), a.hasValue(), line.lineAt(restOffset + a.offset()),
                        a.openQuote()));
            }
            return out;
        }
    }

    /** A word and where it ends; empty text when there is none. */
    private record Word(String text, int end) {
    }

    /** The next word at or after {@code from}, separated by spaces and tabs as kmod's strtok does. */
    private static Word firstWord(String s, int from) {
        int i = from;
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        int start = i;
        while (i < s.length() && s.charAt(i) != ' ' && s.charAt(i) != '\t') {
            i++;
        }
        return new Word(s.substring(start, i), i);
    }

    private static String wordAround(String s, int offset) {
        int a = offset;
        while (a > 0 && !KernelArgs.isSpace(s.charAt(a - 1))) {
            a--;
        }
        int b = offset;
        while (b < s.length() && !KernelArgs.isSpace(s.charAt(b))) {
            b++;
        }
        return s.substring(a, b);
    }

    /** A logical line being assembled: its text (capped), its length, and where each physical line begins in it. */
    private static final class LogicalLine {
        final int firstLine;
        final StringBuilder text = new StringBuilder();
        long length;
        boolean continuedWithText;
        final List<Integer> gluedAt = new ArrayList<>();
        // Offsets where a continued physical line begins, and its number; merged when nothing lies between.
        private int[] breakOffsets = new int[4];
        private int[] breakLines = new int[4];
        private int breaks;

        LogicalLine(int firstLine) {
            this.firstLine = firstLine;
        }

        void append(char c) {
            length++;
            if (text.length() < MAX_LINE) {
                text.append(c);
            }
        }

        void continueAt(int line, char firstOfNext) {
            int offset = text.length();
            if (firstOfNext != '\n' && !KernelArgs.isSpace(firstOfNext)) {
                continuedWithText = true;
                if (offset > 0 && !KernelArgs.isSpace(text.charAt(offset - 1)) && gluedAt.size() < 8
                        && length <= MAX_LINE) {
                    gluedAt.add(offset);
                }
            } else if (firstOfNext == ' ' || firstOfNext == '\t') {
                continuedWithText = true;
            }
            if (breaks > 0 && breakOffsets[breaks - 1] == offset) {
                breakLines[breaks - 1] = line;
                return;
            }
            if (breaks == breakOffsets.length) {
                breakOffsets = Arrays.copyOf(breakOffsets, breaks * 2);
                breakLines = Arrays.copyOf(breakLines, breaks * 2);
            }
            breakOffsets[breaks] = offset;
            breakLines[breaks] = line;
            breaks++;
        }

        /** The physical line holding the character at {@code offset} of the logical line. */
        int lineAt(int offset) {
            // Binary search: a hostile file can continue a line after every character.
            int lo = 0;
            int hi = breaks - 1;
            int found = -1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (breakOffsets[mid] <= offset) {
                    found = mid;
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
            return found < 0 ? firstLine : breakLines[found];
        }
    }
}
