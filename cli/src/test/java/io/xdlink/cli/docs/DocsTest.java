package io.xdlink.cli.docs;

import io.xdlink.cli.Main;
import io.xdlink.params.ParamRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * README.md and every page in docs/, checked against the code: the commands and parameters they name exist, the
 * architecture's isend path names real methods in at most twelve steps, relative links resolve, and the README stays
 * a page a newcomer reads first (under 15 KiB).
 */
class DocsTest {
    /** The README's size limit in bytes. */
    static final long README_LIMIT = 15 * 1024;

    private static Path root;
    private static final Map<Path, Markdown> PAGES = new LinkedHashMap<>();

    @BeforeAll
    static void readPages() throws IOException {
        root = RepositoryRoot.find();
        List<Path> files = new ArrayList<>();
        files.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        for (Path f : files) {
            PAGES.put(f, Markdown.parse(root.relativize(f).toString(), Files.readString(f)));
        }
    }

    @Test
    void everyPageIsRead() {
        assertThat(PAGES.keySet()).extracting(p -> root.relativize(p).toString())
                .contains("README.md", "docs/architecture.md", "docs/benchmarks.md", "docs/testing.md",
                        "docs/parameters.md", "docs/plugin.md", "docs/hosts.md", "docs/simulator.md",
                        "docs/cluster.md");
    }

    @Test
    void everyCommandExists() {
        CommandMentions commands = new CommandMentions(Main.commandLine());
        assertThat(problems(commands::check)).as("xdlink commands the pages name").isEmpty();
        // The check sees the commands it is there for: a reader that found none would pass anything.
        assertThat(PAGES.values().stream().mapToLong(p -> CommandMentions.find(p).size()).sum()).isGreaterThan(30);
    }

    @Test
    void everyParameterExists() {
        ParamMentions params = new ParamMentions(ParamRegistry.load());
        assertThat(problems(params::check)).as("parameters the pages name").isEmpty();
        assertThat(PAGES.values().stream().mapToLong(p -> params.find(p).size()).sum()).isGreaterThan(50);
    }

    @Test
    void everyMethodReferenceExists() {
        MethodRefs refs = new MethodRefs(root);
        assertThat(problems(refs::check)).as("Class#method references").isEmpty();
    }

    @Test
    void theIsendPathIsAtMostTwelveStepsEachNamingAMethod() throws IOException {
        Path architecture = root.resolve("docs/architecture.md");
        assertThat(MethodRefs.checkSteps("docs/architecture.md", Files.readString(architecture))).isEmpty();
    }

    @Test
    void relativeLinksResolve() {
        DocLinks links = new DocLinks(root);
        List<String> problems = new ArrayList<>();
        PAGES.forEach((file, page) -> problems.addAll(links.check(page, file)));
        assertThat(problems).as("relative links").isEmpty();
    }

    @Test
    void readmeStaysUnder15KiB() throws IOException {
        assertThat(Files.size(root.resolve("README.md")))
                .as("README.md is a newcomer's first page; move detail into docs/").isLessThan(README_LIMIT);
    }

    private static List<String> problems(Function<Markdown, List<String>> check) {
        List<String> all = new ArrayList<>();
        PAGES.values().forEach(p -> all.addAll(check.apply(p)));
        return all;
    }
}
