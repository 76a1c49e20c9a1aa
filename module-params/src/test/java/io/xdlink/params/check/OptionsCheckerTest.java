package io.xdlink.params.check;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.xdlink.params.ParamRegistry;
import io.xdlink.params.ParamSpec;
import io.xdlink.params.ParamType;
import io.xdlink.params.dma.DmaParams;
import io.xdlink.params.modprobe.ModprobeParser;
import io.xdlink.params.modprobe.ModprobeSearchPath;
import io.xdlink.params.modprobe.Severity;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OptionsCheckerTest {
    private static final ParamSpec<Long> OLD = ParamSpec.builder("stripe_min", new ParamType.Size(0, 1L << 30))
            .deprecated("min_stripe").defaultValue(65536L).description("stripe").build();

    private final ParamRegistry registry = ParamRegistry.of(List.of(new DmaParams(), new io.xdlink.params.ParamProvider() {
        @Override
        public String module() {
            return "rails";
        }

        @Override
        public List<ParamSpec<?>> specs() {
            return List.of(OLD);
        }
    }));
    private final OptionsChecker checker = new OptionsChecker(registry);

    private List<Finding> check(String text) {
        return checker.check(List.of(ModprobeParser.parse("t.conf", text)));
    }

    @Test
    void theFieldFailureIsAnErrorWithTheSuggestion() {
        List<Finding> f = check("options odl_tb5 ring_size=1024\n");
        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.ERROR);
            assertThat(x.kind()).isEqualTo(Finding.Kind.MISNAMED_PARAMETER);
            assertThat(x.file()).isEqualTo("t.conf");
            assertThat(x.line()).isEqualTo(1);
            assertThat(x.module()).isEqualTo("odl_tb5");
            assertThat(x.parameter()).isEqualTo("ring_size");
            assertThat(x.message()).isEqualTo("odl_tb5 has no parameter 'ring_size'; did you mean 'odl_ring_size'?");
            assertThat(x.detail()).contains("keeps the 4096-frame default").contains("Write odl_ring_size=1024");
            assertThat(x.format()).startsWith("t.conf:1: error: odl_tb5 has no parameter 'ring_size'");
        });
    }

    @Test
    void theRemovedParameterIsAnError() {
        assertThat(check("options thunderbolt_ibverbs profile=linux_perf native_wr_striping=1\n"))
                .singleElement().satisfies(x -> {
                    assertThat(x.kind()).isEqualTo(Finding.Kind.REMOVED_PARAMETER);
                    assertThat(x.message()).isEqualTo("thunderbolt_ibverbs has no parameter 'native_wr_striping' "
                            + "any more");
                    assertThat(x.detail()).contains("removed from the driver");
                });
    }

    @Test
    void correctLinesForEveryKnownDriverAreClean() {
        assertThat(check("""
                options odl_tb5 odl_ring_size=1024 loopback=1 protocol=0 e2e=1 odl_busy_poll_us=50 max_devices=1
                options odl-tb5 odl-ring-size=1024
                options thunderbolt_ibverbs profile=linux_perf bind_services=1 allocate_rings=1 start_rings=1 \\
                    negotiate_native=1 enable_tunnels=1 register_verbs=1 roce_netdev=ardma0 native_e2e=-1
                options thunderbolt_net e2e=0
                options thunderbolt xdomain=1 dma_credits=14 host_reset=0 clx=0 dyndbg=+p async_probe
                """)).filteredOn(x -> x.kind() != Finding.Kind.REPEATED_PARAMETER).isEmpty();
    }

    @Test
    void unknownNamesGetTheClosestDeclaredNames() {
        assertThat(check("options thunderbolt_ibverbs bind_service=1\noptions thunderbolt dma_credit=2\n"))
                .extracting(Finding::message)
                .containsExactly("thunderbolt_ibverbs has no parameter 'bind_service'; did you mean 'bind_services'?",
                        "thunderbolt has no parameter 'dma_credit'; did you mean 'dma_credits'?");
    }

    @Test
    void anUnrelatedUnknownNameListsWhatTheModuleDeclares() {
        assertThat(check("options thunderbolt_net zzzzzz=1\n")).singleElement().satisfies(x -> {
            assertThat(x.message()).isEqualTo("thunderbolt_net has no parameter 'zzzzzz'");
            assertThat(x.detail()).contains("thunderbolt_net declares e2e");
        });
    }

    @Test
    void caseMattersToTheKernel() {
        assertThat(check("options odl_tb5 ODL_RING_SIZE=1024\n")).singleElement()
                .extracting(Finding::message).asString().contains("did you mean 'odl_ring_size'?");
    }

    @Test
    void xdlinkLinesAreCheckedForNamesAndValues() {
        List<Finding> f = check("options xdlink ring_size=99999 ring_sise=1 stripe_min=4K ring_size_min=4K "
                + "min_stripe=1M ring_size\n");
        assertThat(f).extracting(Finding::kind).containsExactly(Finding.Kind.BAD_VALUE, Finding.Kind.UNKNOWN_PARAMETER,
                Finding.Kind.BAD_VALUE, Finding.Kind.DEPRECATED_PARAMETER, Finding.Kind.REPEATED_PARAMETER,
                Finding.Kind.BAD_VALUE);
        assertThat(f.get(0).message()).isEqualTo("xdlink: bad value for 'ring_size': '99999' is out of range; "
                + "allowed: 16..32768");
        assertThat(f.get(1).message()).isEqualTo("xdlink has no parameter 'ring_sise'; did you mean 'ring_size'?");
        assertThat(f.get(2).message()).contains("'4K' has a size suffix");
        assertThat(f.get(3).message()).isEqualTo("xdlink: 'min_stripe' is deprecated; use 'stripe_min'");
        assertThat(f.get(4).message()).contains("'min_stripe' is set again").contains("replaces '4K'");
        assertThat(f.get(5).message()).contains("'ring_size' needs a value");
    }

    @Test
    void repeatedNamesOnOneLineAndAcrossFilesSayWhichWins() {
        List<Finding> f = checker.check(List.of(
                ModprobeParser.parse("/etc/modprobe.d/a.conf", "options odl_tb5 odl_ring_size=512 odl-ring-size=1024\n"),
                ModprobeParser.parse("/etc/modprobe.d/b.conf", "\noptions odl_tb5 odl_ring_size=2048\n")));
        assertThat(f).extracting(Finding::format).containsExactly(
                "/etc/modprobe.d/a.conf:1: warning: odl_tb5: 'odl-ring-size' is set again; the kernel applies "
                        + "options in order, so '1024' here replaces '512' from /etc/modprobe.d/a.conf:1",
                "/etc/modprobe.d/b.conf:2: warning: odl_tb5: 'odl_ring_size' is set again; the kernel applies "
                        + "options in order, so '2048' here replaces '1024' from /etc/modprobe.d/a.conf:1");
    }

    @Test
    void aTrailingCommentReachesTheKernelAsParameters() {
        assertThat(check("options odl_tb5 odl_ring_size=1024 # small ring\n"))
                .extracting(Finding::kind)
                .containsExactly(Finding.Kind.COMMENT_AS_PARAMETER, Finding.Kind.UNKNOWN_PARAMETER,
                        Finding.Kind.UNKNOWN_PARAMETER);
    }

    @Test
    void aMisspeltModuleIsAnErrorAndOthersAreNotChecked() {
        List<Finding> f = check("options odl_tb6 odl_ring_size=1024\noptions thunderbolt-ibverb profile=auto\n"
                + "options snd_hda_intel power_save=0\n");
        assertThat(f).extracting(Finding::kind).containsExactly(Finding.Kind.UNKNOWN_MODULE,
                Finding.Kind.UNKNOWN_MODULE, Finding.Kind.UNCHECKED_MODULE);
        assertThat(f.get(0).message()).isEqualTo("options for module 'odl_tb6'; did you mean 'odl_tb5'?");
        assertThat(f.get(1).message()).contains("did you mean 'thunderbolt_ibverbs'?");
        assertThat(f.get(2).severity()).isEqualTo(Severity.NOTE);
    }

    @Test
    void parserProblemsBecomeSyntaxFindings() {
        assertThat(check("option odl_tb5 ring_size=1\n")).singleElement().satisfies(x -> {
            assertThat(x.kind()).isEqualTo(Finding.Kind.SYNTAX);
            assertThat(x.severity()).isEqualTo(Severity.ERROR);
            assertThat(x.message()).contains("did you mean 'options'?");
        });
    }

    @Test
    void hostileLinesNeverThrow() {
        assertThat(check("options odl_tb5 " + "x".repeat(1 << 20) + "=1\n")).singleElement()
                .extracting(Finding::kind).isEqualTo(Finding.Kind.SYNTAX);
        assertThat(check("options odl_tb5 " + "a".repeat(50_000) + "=1\n")).singleElement()
                .satisfies(x -> assertThat(x.message().length()).isLessThan(300));
        assertThat(check("options " + "m".repeat(10_000) + " a=1\n")).singleElement()
                .extracting(Finding::kind).isEqualTo(Finding.Kind.UNCHECKED_MODULE);
        assertThat(check("options odl_tb5 =1 p=\"open\n")).extracting(Finding::kind)
                .containsExactly(Finding.Kind.UNKNOWN_PARAMETER, Finding.Kind.SYNTAX);
    }

    @Test
    void xdlinkLinesInModprobeDHaveNoEffect() throws IOException {
        try (FileSystem fs = Jimfs.newFileSystem(Configuration.unix())) {
            Path conf = fs.getPath("/etc/modprobe.d/xdlink.conf");
            Files.createDirectories(conf.getParent());
            Files.writeString(conf, "options xdlink ring_size=1024\noptions odl_tb5 ring_size=1024\n");
            List<Finding> f = checker.check(ModprobeSearchPath.scan(fs.getPath("/")));
            assertThat(f).extracting(Finding::kind).containsExactly(Finding.Kind.MISNAMED_PARAMETER,
                    Finding.Kind.NOT_READ_BY_XDLINK);
            assertThat(f.get(1).format()).startsWith("/etc/modprobe.d/xdlink.conf:1: warning: xdlink does not read "
                    + "modprobe.d");
        }
    }

    @Test
    void foreignDriversKnowTheirRingParameter() {
        assertThat(ForeignDrivers.find("odl-tb5").flatMap(ForeignDriver::ringParameter))
                .hasValueSatisfying(p -> {
                    assertThat(p.name()).isEqualTo("odl_ring_size");
                    assertThat(p.defaultValue()).isEqualTo("4096");
                });
        assertThat(ForeignDrivers.find("thunderbolt_net").flatMap(ForeignDriver::ringParameter)).isEmpty();
        assertThat(ForeignDrivers.find("e1000e")).isEmpty();
    }
}
