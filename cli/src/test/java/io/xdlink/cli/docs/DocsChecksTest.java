package io.xdlink.cli.docs;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.xdlink.cli.Main;
import io.xdlink.params.ParamRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The documentation checks on small pages written to break them: what they must report and what they must not. */
class DocsChecksTest {
    private final FileSystem fs = Jimfs.newFileSystem(Configuration.unix());
    private final Path root = fs.getPath("/repo");

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    private static Markdown page(String text) {
        return Markdown.parse("page.md", text);
    }

    @Test
    void aBogusCommandAndABogusParameterAreBothReported() {
        Markdown p = page("Run `xdlink frobnicate --now` and then\n\n```\n"
                + "./xdlink bench write_bw -P ring_sise=1024\n```\n");
        assertThat(new CommandMentions(Main.commandLine()).check(p))
                .containsExactly("page.md:1: `xdlink frobnicate`: no command 'frobnicate' in xdlink (it has bench, "
                        + "cluster, doctor, help, params, topology, xdomain)");
        assertThat(new ParamMentions(ParamRegistry.load()).check(p))
                .containsExactly("page.md:4: parameter 'ring_sise' is not in the registry "
                        + "(xdlink params lists every one)");
    }

    @Test
    void subcommandsAreCheckedWhereACommandHasThem() {
        CommandMentions commands = new CommandMentions(Main.commandLine());
        Markdown good = page("`xdlink bench write_bw`, `xdlink cluster all_reduce_perf --hosts 4`, "
                + "`xdlink params check`, `./xdlink xdomain decode HEX`, `xdlink help bench write_bw`, "
                + "`xdlink topology --json`, `xdlink help`");
        assertThat(commands.check(good)).isEmpty();
        assertThat(CommandMentions.find(good)).hasSize(7);
        Markdown bad = page("`xdlink bench write_bandwidth`\n`xdlink params fix`\n`xdlink help benchh`\n"
                + "`xdlink trace`");
        assertThat(commands.check(bad)).hasSize(4)
                .anySatisfy(s -> assertThat(s).startsWith("page.md:1: `xdlink bench write_bandwidth`: no command "
                        + "'write_bandwidth' in xdlink bench"))
                .anySatisfy(s -> assertThat(s).startsWith("page.md:2: `xdlink params fix`"))
                .anySatisfy(s -> assertThat(s).startsWith("page.md:3: `xdlink help benchh`"))
                .anySatisfy(s -> assertThat(s).startsWith("page.md:4: `xdlink trace`"));
    }

    @Test
    void xdlinkThatIsNoCommandIsNotReadAsOne() {
        Markdown p = page("```\nhost:4242:4242 [0] NCCL INFO NET/xdlink : Using [0]xdlink-loopback0 speed 40000\n"
                + "export NCCL_NET=xdlink LD_LIBRARY_PATH=/opt\n"
                + "NCCL INFO NCCL_NET_PLUGIN set by environment to xdlink\n"
                + "host NCCL INFO Loaded net plugin xdlink (v12)\n# xdlink: wall time 12.2 s\n"
                + "options xdlink ring_size=1024\nlibnccl-net-xdlink.so\n"
                + "NET/xdlink : no jars beside it: the plugin directory must hold the xdlink jars\n```\n"
                + "and in prose: run xdlink bench, `the xdlink jars`\n");
        assertThat(CommandMentions.find(p)).isEmpty();
    }

    @Test
    void parametersAreReadWhereTheyAreSetAndForeignDriversAreLeftAlone() {
        ParamMentions params = new ParamMentions(ParamRegistry.load());
        Markdown p = page("""
                `XDLINK_PARAMS="loopback=1 bogus_one=2"` and `XDLINK_PARAMS=ring_size=64`

                ```
                options xdlink ring_size=1024 bogus_two=3 # a comment=1
                options odl_tb5 ring_size=1024 whatever=1
                options thunderbolt_net nonsense=1
                ./xdlink cluster all_reduce_perf -P cluster_refused_bond=cable2 -P "bogus_three=1"
                ./mvnw -Pstress -pl tests -am verify
                ```

                Set `tcp_bogus_timeout` or `loopback_gen=gen9`; the kernel's `iommu=pt`, perftest's `t_typical` and
                the placeholder `name=value` are not ours; `ring-size` is the alias spelling of `ring_size`.
                """);
        assertThat(params.find(p)).extracting(ParamMentions.Mention::name).containsExactly(
                "loopback", "bogus_one", "ring_size", "ring_size", "bogus_two", "cluster_refused_bond", "bogus_three",
                "tcp_bogus_timeout", "loopback_gen", "ring_size");
        assertThat(params.check(p)).containsExactly(
                "page.md:1: parameter 'bogus_one' is not in the registry (xdlink params lists every one)",
                "page.md:4: parameter 'bogus_two' is not in the registry (xdlink params lists every one)",
                "page.md:7: parameter 'bogus_three' is not in the registry (xdlink params lists every one)",
                "page.md:11: parameter 'tcp_bogus_timeout' is not in the registry (xdlink params lists every one)");
    }

    @Test
    void methodReferencesNameClassesMethodsAndCFunctionsThatExist() throws IOException {
        Files.createDirectories(root.resolve("src"));
        Files.writeString(root.resolve("src/shim.c"), """
                int declared_only(void);
                static int real_one(void *p,
                                    int n) {
                    return declared_only();
                }
                """);
        MethodRefs refs = new MethodRefs(root);
        Markdown p = page("`io.xdlink.cli.Main#commandLine` `io.xdlink.cli.Main#noSuchMethod` `io.xdlink.NoSuch#x`\n"
                + "`src/shim.c#real_one` `src/shim.c#declared_only` `src/none.c#f` `../../etc/passwd.c#root`\n"
                + "`a#b` is no reference");
        assertThat(refs.check(p)).containsExactly(
                "page.md:1: `io.xdlink.cli.Main#noSuchMethod`: io.xdlink.cli.Main declares no method noSuchMethod",
                "page.md:1: `io.xdlink.NoSuch#x`: no class io.xdlink.NoSuch on cli's test class path",
                "page.md:2: `src/shim.c#declared_only`: src/shim.c defines no function declared_only",
                "page.md:2: `src/none.c#f`: no file src/none.c under the repository root");
        assertThat(refs.resolve("../../etc/passwd.c#root")).isEqualTo("not a reference");
    }

    @Test
    void stepsAreNumberedInOrderStartWithAReferenceAndAreAtMostTwelve() {
        assertThat(MethodRefs.checkSteps("a.md", "1. `io.xdlink.cli.Main#run` runs\n2. `x.Y#z` too\n")).isEmpty();
        assertThat(MethodRefs.checkSteps("a.md", "1. `io.xdlink.cli.Main#run`\n3. Main.run, unquoted\n"))
                .containsExactly("a.md:2: step 3: expected step 2",
                        "a.md:2: step 3: does not start with `package.Class#method` or `path/file.c#function`");
        StringBuilder thirteen = new StringBuilder();
        for (int i = 1; i <= 13; i++) {
            thirteen.append(i).append(". `io.xdlink.cli.Main#run`\n");
        }
        assertThat(MethodRefs.checkSteps("a.md", thirteen.toString())).containsExactly("a.md: 13 steps; at most 12");
        assertThat(MethodRefs.checkSteps("a.md", "no steps at all")).containsExactly("a.md: no numbered steps");
    }

    @Test
    void linksMustReachFilesAndHeadingsInsideTheRepository() throws IOException {
        Files.createDirectories(root.resolve("docs"));
        Files.writeString(root.resolve("docs/other.md"), "# Other\n\n## Between two hosts: what a byte costs\n");
        Files.writeString(root.resolve("docs/plot.png"), "png");
        Path file = root.resolve("docs/page.md");
        Markdown p = Markdown.parse("docs/page.md", """
                # Page

                See [other](other.md#between-two-hosts-what-a-byte-costs), ![plot](plot.png), [top](#page),
                [the web](https://example.org/x), [gone](missing.md), [bad anchor](other.md#nowhere),
                [out](../../outside.md) and `[not a link](in-code.md)`.
                """);
        assertThat(new DocLinks(root).check(p, file)).containsExactly(
                "docs/page.md:3: link missing.md: no such file docs/missing.md",
                "docs/page.md:3: link other.md#nowhere: no heading with anchor #nowhere in docs/other.md",
                "docs/page.md:3: link ../../outside.md: leaves the repository");
    }

    @Test
    void brokenMarkdownIsReadAsGitHubRendersIt() {
        Markdown p = page("a lone `` double backtick, then `xdlink bench`\n\n```\nxdlink nosuch\n");
        assertThat(p.code()).extracting(Markdown.Code::text).containsExactly("xdlink bench", "xdlink nosuch");
        assertThat(p.code().get(1).block()).isTrue();
        Markdown wrapped = page("a span that `runs over\na line break` ends on line 1");
        assertThat(wrapped.code()).containsExactly(new Markdown.Code(1, "runs over a line break", false));
        assertThat(page("").code()).isEmpty();
        assertThat(page("``double `inner` span``").code()).extracting(Markdown.Code::text)
                .containsExactly("double `inner` span");
    }

    @Test
    void theRootIsFoundAboveTheWorkingDirectoryOrTheFailureSaysWhy() throws IOException {
        Files.createDirectories(root.resolve("cli/src"));
        Files.writeString(root.resolve("README.md"), "# x\n");
        Files.writeString(root.resolve("pom.xml"), "<modules><module>cli</module></modules>");
        Files.writeString(root.resolve("cli/pom.xml"), "<project/>");
        Files.writeString(root.resolve("cli/README.md"), "# not the root\n");
        assertThat(RepositoryRoot.find(root.resolve("cli/src"))).isEqualTo(root);
        Path elsewhere = fs.getPath("/elsewhere");
        Files.createDirectories(elsewhere);
        assertThatThrownBy(() -> RepositoryRoot.find(elsewhere))
                .isInstanceOf(AssertionError.class).hasMessageContaining("no repository root above /elsewhere");
    }

    @Test
    void slugsAreGitHubs() {
        assertThat(List.of("Benchmarks (JMH)", "Planning a cluster: xdlink cluster", "One isend, from the C side"))
                .extracting(DocLinks::slug)
                .containsExactly("benchmarks-jmh", "planning-a-cluster-xdlink-cluster", "one-isend-from-the-c-side");
    }
}
