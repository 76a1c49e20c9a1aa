package io.xdlink.params.modprobe;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class ModprobeParserTest {

    private static ModprobeFile parse(String text) {
        return ModprobeParser.parse("t.conf", text);
    }

    @Test
    void readsEveryCommandWithItsLine() {
        ModprobeFile f = parse("""
                # comment
                options odl_tb5 odl_ring_size=1024 loopback=1

                install foo /bin/true
                remove foo /bin/false
                alias pci:v00008086* thunderbolt
                blacklist nouveau
                softdep thunderbolt_net pre: thunderbolt
                """);
        assertThat(f.problems()).isEmpty();
        assertThat(f.commands()).extracting(ModprobeCommand::keyword)
                .containsExactly("options", "install", "remove", "alias", "blacklist", "softdep");
        assertThat(f.commands()).extracting(ModprobeCommand::line).containsExactly(2, 4, 5, 6, 7, 8);
        ModprobeCommand.Options o = f.options().getFirst();
        assertThat(o.module()).isEqualTo("odl_tb5");
        assertThat(o.options()).extracting(ModprobeOption::text).containsExactly("odl_ring_size=1024", "loopback=1");
        assertThat(f.commands().get(1)).isEqualTo(new ModprobeCommand.Install("t.conf", 4, "foo", "/bin/true"));
        assertThat(f.commands().get(3)).isEqualTo(new ModprobeCommand.Alias("t.conf", 6, "pci:v00008086*",
                "thunderbolt"));
        assertThat(f.commands().get(5)).isEqualTo(new ModprobeCommand.Softdep("t.conf", 8, "thunderbolt_net",
                "pre: thunderbolt"));
    }

    @Test
    void emptyFileHasNothing() {
        ModprobeFile f = parse("");
        assertThat(f.commands()).isEmpty();
        assertThat(f.problems()).isEmpty();
    }

    @Test
    void moduleNamesCompareWithDashAndUnderscoreAlike() {
        ModprobeFile f = parse("options odl-tb5 odl-ring-size=512\n");
        assertThat(f.options("odl_tb5")).hasSize(1);
        assertThat(f.options().getFirst().normalizedModule()).isEqualTo("odl_tb5");
        assertThat(f.options().getFirst().options().getFirst().normalizedName()).isEqualTo("odl_ring_size");
    }

    @Test
    void quotedValuesAsTheKernelReadsThem() {
        ModprobeOption o = parse("options m p=\"a b\" q=2\n").options().getFirst().options().getFirst();
        assertThat(o.name()).isEqualTo("p");
        assertThat(o.value()).isEqualTo("a b");
    }

    @Test
    void continuationJoinsLinesAndEachOptionKeepsItsOwnLine() {
        ModprobeFile f = parse("options thunderbolt_ibverbs profile=linux_perf \\\n  bind_services=1 \\\n"
                + "  allocate_rings=1\noptions x y=1\n");
        assertThat(f.problems()).isEmpty();
        ModprobeCommand.Options o = f.options().getFirst();
        assertThat(o.line()).isEqualTo(1);
        assertThat(o.options()).extracting(ModprobeOption::line).containsExactly(1, 2, 3);
        assertThat(f.options().get(1).line()).isEqualTo(4);
    }

    @Test
    void continuationWithoutSpaceGluesWordsAsModprobeDoesAndSaysSo() {
        ModprobeFile f = parse("options m a=1\\\nb=2\n");
        assertThat(f.options().getFirst().options()).extracting(ModprobeOption::text).containsExactly("a=1b=2");
        assertThat(f.problems()).singleElement().satisfies(p -> {
            assertThat(p.severity()).isEqualTo(Severity.WARNING);
            assertThat(p.line()).isEqualTo(2);
            assertThat(p.message()).contains("'a=1b=2'").contains("put a space");
        });
    }

    @Test
    void backslashBeforeAnotherCharacterIsDropped() {
        ModprobeFile f = parse("options m p=a\\\\b q=\\x\n");
        assertThat(f.options().getFirst().options()).extracting(ModprobeOption::value).containsExactly("a\\b", "x");
    }

    @Test
    void unterminatedContinuationAtEndOfFileIsReadAsItStands() {
        ModprobeFile f = parse("options m a=1 \\\n");
        assertThat(f.options().getFirst().options()).extracting(ModprobeOption::text).containsExactly("a=1");
        assertThat(f.problems()).singleElement().satisfies(p -> {
            assertThat(p.severity()).isEqualTo(Severity.WARNING);
            assertThat(p.line()).isEqualTo(1);
            assertThat(p.message()).contains("continues nothing");
        });
    }

    @Test
    void backslashAsTheLastByteIsDropped() {
        ModprobeFile f = parse("options m a=1\\");
        assertThat(f.options().getFirst().options()).extracting(ModprobeOption::text).containsExactly("a=1");
        assertThat(f.problems()).singleElement().extracting(ModprobeProblem::message).asString()
                .contains("ends with '\\'");
    }

    @Test
    void commentEndingInBackslashSwallowsTheNextLine() {
        ModprobeFile f = parse("# set the ring \\\noptions odl_tb5 odl_ring_size=1024\n");
        assertThat(f.commands()).isEmpty();
        assertThat(f.problems()).singleElement().satisfies(p -> {
            assertThat(p.line()).isEqualTo(1);
            assertThat(p.message()).contains("reads line 2 as part of the comment");
        });
    }

    @Test
    void hashInTheMiddleIsNotAComment() {
        ModprobeFile f = parse("options m a=1 # the ring\n");
        assertThat(f.options().getFirst().options()).extracting(ModprobeOption::name)
                .containsExactly("a", "#", "the", "ring");
    }

    @Test
    void indentedHashLineIsAComment() {
        assertThat(parse("   # nothing here\n").commands()).isEmpty();
    }

    @Test
    void badLinesAreReportedWithTheirLineNumbers() {
        ModprobeFile f = parse("option m a=1\nOPTIONS m a=1\nfrobnicate x\noptions\noptions m\nalias x\n"
                + "blacklist\ninclude /etc/foo\n");
        assertThat(f.commands()).isEmpty();
        assertThat(f.problems()).extracting(ModprobeProblem::line).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(f.problems()).allSatisfy(p -> assertThat(p.severity()).isEqualTo(Severity.ERROR));
        assertThat(f.problems().get(0).message()).contains("did you mean 'options'?");
        assertThat(f.problems().get(1).message()).contains("did you mean 'options'?");
        assertThat(f.problems().get(2).message()).contains("'frobnicate' is not a modprobe command");
        assertThat(f.problems().get(4).message()).contains("'options' needs a module name and parameters");
        assertThat(f.problems().get(7).message()).contains("no longer reads 'include'");
    }

    @Test
    void optionsWithOneTrailingSeparatorHasNothingToPass() {
        // kmod hands on what follows the one separator after the module name; here that is nothing.
        assertThat(parse("options m \n").problems()).singleElement().extracting(ModprobeProblem::severity)
                .isEqualTo(Severity.ERROR);
    }

    @Test
    void binaryFileIsRefusedWithOneClearError() {
        byte[] bytes = {'o', 'p', 't', '\n', 0x7f, 'E', 'L', 'F', 0, 1, 2, (byte) 0xff, '\n'};
        ModprobeFile f = ModprobeParser.parse("bin.conf", bytes);
        assertThat(f.commands()).isEmpty();
        assertThat(f.problems()).singleElement().satisfies(p -> {
            assertThat(p.severity()).isEqualTo(Severity.ERROR);
            assertThat(p.line()).isEqualTo(2);
            assertThat(p.message()).contains("binary data");
        });
    }

    @Test
    void controlCharacterSkipsTheLine() {
        ModprobeFile f = parse("options m a=\u0001\noptions m b=2\n");
        assertThat(f.options()).hasSize(1);
        assertThat(f.problems()).singleElement().extracting(ModprobeProblem::message).asString().contains("0x01");
    }

    @Test
    void invalidUtf8IsReadNotThrown() {
        byte[] bytes = "options m p=\u00ff\n".getBytes(StandardCharsets.ISO_8859_1);
        ModprobeFile f = ModprobeParser.parse("latin1.conf", bytes);
        assertThat(f.options().getFirst().options().getFirst().value()).isEqualTo("\ufffd");
    }

    @Test
    void aMegabyteLineIsSkippedWithAClearError() {
        String line = "options odl_tb5 " + "x".repeat(1 << 20);
        ModprobeFile f = parse("options m a=1\n" + line + "\noptions m b=2\n");
        assertThat(f.options()).hasSize(2);
        assertThat(f.problems()).singleElement().satisfies(p -> {
            assertThat(p.line()).isEqualTo(2);
            assertThat(p.message()).contains((line.length()) + " characters").contains("skipped");
        });
    }

    @Test
    void crlfFileWarnsOnceAndOptionsStillSplit() {
        ModprobeFile f = parse("options m a=1\r\nblacklist foo\r\n");
        assertThat(f.options().getFirst().options()).extracting(ModprobeOption::text).containsExactly("a=1");
        // As in kmod, the CR stays part of the last word: this blacklist names "foo\r", not foo.
        assertThat(((ModprobeCommand.Blacklist) f.commands().get(1)).module()).isEqualTo("foo\r");
        assertThat(f.problems()).singleElement().extracting(ModprobeProblem::message).asString().contains("CR LF");
    }

    @Test
    void backslashBeforeCrlfDoesNotContinue() {
        ModprobeFile f = parse("options m a=1 \\\r\n b=2\r\n");
        assertThat(f.options()).hasSize(1);
        assertThat(f.problems()).extracting(ModprobeProblem::message)
                .anySatisfy(m -> assertThat(m).contains("does not continue"))
                .anySatisfy(m -> assertThat(m).contains("'b=2\\x0d' is not a modprobe command"));
    }

    @Test
    void problemsAreCappedAndTheRestCounted() {
        String text = "bogus\n".repeat(ModprobeParser.MAX_PROBLEMS + 25);
        ModprobeFile f = parse(text);
        assertThat(f.problems()).hasSize(ModprobeParser.MAX_PROBLEMS + 1);
        assertThat(f.problems().getLast().message()).startsWith("25 more problems");
    }

    @Test
    void duplicateKeysAreAllKeptInOrder() {
        ModprobeFile f = parse("options odl_tb5 odl_ring_size=1024 odl_ring_size=2048\noptions odl_tb5 "
                + "odl_ring_size=512\n");
        assertThat(f.options("odl_tb5")).flatExtracting(ModprobeCommand.Options::options)
                .extracting(ModprobeOption::value).containsExactly("1024", "2048", "512");
    }

    @Test
    void manyContinuationsStayCheap() {
        // A continuation after every character: the line map must not make each lookup linear.
        String text = "options m " + "a=1 \\\n".repeat(10_000);
        ModprobeFile f = parse(text);
        assertThat(f.options().getFirst().options()).hasSize(10_000);
        assertThat(f.options().getFirst().options().getLast().line()).isEqualTo(10_000);
    }

    @Test
    void randomInputNeverThrows() {
        long seed = Long.getLong("xdlink.seed", System.nanoTime());
        Random random = new Random(seed);
        String alphabet = "options m a=1 \"\\\n#\r\t=x\0";
        for (int round = 0; round < 300; round++) {
            int len = random.nextInt(400);
            StringBuilder sb = new StringBuilder(len);
            for (int i = 0; i < len; i++) {
                sb.append(random.nextInt(8) == 0 ? (char) random.nextInt(0x100)
                        : alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String text = sb.toString();
            try {
                ModprobeFile f = parse(text);
                assertThat(f.problems().size()).isLessThanOrEqualTo(ModprobeParser.MAX_PROBLEMS + 1);
                for (ModprobeCommand c : f.commands()) {
                    assertThat(c.line()).isBetween(1, text.length() + 1);
                }
            } catch (RuntimeException | AssertionError e) {
                throw new AssertionError("seed " + seed + " (rerun with -Dxdlink.seed=" + seed + "), round " + round
                        + ", input " + List.of(text), e);
            }
        }
    }
}
