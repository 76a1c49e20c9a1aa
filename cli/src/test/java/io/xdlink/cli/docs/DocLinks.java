package io.xdlink.cli.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks the relative links of a page's prose: {@code [text](path)}, {@code [text](path#heading)},
 * {@code [text](#heading)} and images. The file must exist inside the repository, and a heading, where one is named
 * in a Markdown file, must be one of its headings as GitHub turns headings into anchors. Links with a scheme
 * (https:, mailto:) are not followed.
 */
final class DocLinks {
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

    private final Path root;

    DocLinks(Path root) {
        this.root = root;
    }

    /** Every link target written in the page's prose, with its line. */
    static List<Link> find(Markdown page) {
        List<Link> links = new ArrayList<>();
        for (Markdown.Text t : page.prose()) {
            Matcher m = LINK.matcher(t.text());
            while (m.find()) {
                links.add(new Link(t.line(), m.group(1)));
            }
        }
        return links;
    }

    /** Problems with the page's links; {@code file} is the page's own path. */
    List<String> check(Markdown page, Path file) {
        List<String> problems = new ArrayList<>();
        for (Link link : find(page)) {
            String why = resolve(page, file, link.target());
            if (why != null) {
                problems.add(page.name() + ":" + link.line() + ": link " + link.target() + ": " + why);
            }
        }
        return problems;
    }

    private String resolve(Markdown page, Path file, String target) {
        if (SCHEME.matcher(target).find()) {
            return null;
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Markdown into = page;
        if (!path.isEmpty()) {
            Path to = file.getParent().resolve(path).normalize();
            if (!to.startsWith(root)) {
                return "leaves the repository";
            }
            if (!Files.exists(to)) {
                return "no such file " + root.relativize(to);
            }
            if (anchor == null || !to.toString().endsWith(".md")) {
                return null;
            }
            try {
                into = Markdown.parse(root.relativize(to).toString(), Files.readString(to));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        if (anchor == null) {
            return null;
        }
        for (String heading : into.headings()) {
            if (slug(heading).equals(anchor)) {
                return null;
            }
        }
        return "no heading with anchor #" + anchor + " in " + into.name();
    }

    /** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces made hyphens. */
    static String slug(String heading) {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }

    /** A link target as written, on a line of the page. */
    record Link(int line, String target) {
    }
}
