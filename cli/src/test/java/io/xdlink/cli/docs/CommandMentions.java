package io.xdlink.cli.docs;

import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds every {@code xdlink COMMAND [SUBCOMMAND]} written in code and checks it against the command line's picocli
 * tree: the command must exist, and where that command has subcommands the next word must be one of them.
 * {@code xdlink help COMMAND...} checks the commands it names. Only the {@code xdlink} a user types counts:
 * {@code ./xdlink} anywhere in a line, or {@code xdlink} where the code starts (after a prompt); so log lines
 * ({@code NET/xdlink : Using ...}, "the xdlink jars"), file names and module lines ({@code options xdlink ...}) are no
 * commands.
 */
final class CommandMentions {
    /** {@code ./xdlink} anywhere, or {@code xdlink} first in the code (after a prompt such as {@code host-a$}). */
    private static final Pattern MENTION = Pattern.compile(
            "(?:(?<![\\w./=-])\\./|^[ \\t]*(?:\\S*\\$[ \\t]+)?)xdlink((?:[ \\t]+[a-z][a-z0-9_-]*(?![\\w.]))+)");

    private final CommandLine root;

    CommandMentions(CommandLine root) {
        this.root = root;
    }

    /** Every mention in the page, as the words after {@code xdlink}, with the line it is on. */
    static List<Mention> find(Markdown page) {
        List<Mention> found = new ArrayList<>();
        for (Markdown.Code c : page.code()) {
            Matcher m = MENTION.matcher(c.text());
            while (m.find()) {
                found.add(new Mention(c.line(), List.of(m.group(1).strip().split("[ \\t]+"))));
            }
        }
        return found;
    }

    /** Problems with the page's mentions, each "page:line: what is wrong". */
    List<String> check(Markdown page) {
        List<String> problems = new ArrayList<>();
        for (Mention m : find(page)) {
            String why = resolve(m.words());
            if (why != null) {
                problems.add(page.name() + ":" + m.line() + ": `xdlink " + String.join(" ", m.words()) + "`: " + why);
            }
        }
        return problems;
    }

    /** Null when the words name commands that exist, else why not. */
    private String resolve(List<String> words) {
        CommandLine current = root;
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            Map<String, CommandLine> subs = current.getSubcommands();
            if (subs.isEmpty()) {
                return null; // the rest are the command's own arguments
            }
            CommandLine next = subs.get(w);
            if (next == null) {
                return "no command '" + w + "' in " + current.getCommandSpec().qualifiedName() + " (it has "
                        + String.join(", ", new TreeSet<>(subs.keySet())) + ")";
            }
            if (current == root && w.equals("help")) {
                return resolve(words.subList(i + 1, words.size()));
            }
            current = next;
        }
        return null;
    }

    /** The words after {@code xdlink} on one line. */
    record Mention(int line, List<String> words) {
        @Override
        public String toString() {
            return line + ": xdlink " + String.join(" ", words);
        }
    }
}
