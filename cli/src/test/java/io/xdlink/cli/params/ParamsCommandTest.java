package io.xdlink.cli.params;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.xdlink.cli.host.CliRun;
import io.xdlink.params.ParamRegistry;
import io.xdlink.params.ParamTable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ParamsCommandTest {
    private final FileSystem fs = Jimfs.newFileSystem(Configuration.unix());

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    private CliRun params(Map<String, String> env, String... args) {
        return CliRun.of(new ParamsCommand(env, fs), args);
    }

    private void write(String path, String text) throws IOException {
        Path p = fs.getPath(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    @Test
    void printsEveryParameterWithItsFacts() {
        CliRun r = params(Map.of());
        assertThat(r.exit()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).contains("Configuration file: /etc/xdlink/xdlink.conf (default; not present)")
                .contains("$XDLINK_PARAMS: not set")
                .contains("NAME").contains("ALIASES").contains("DESCRIPTION").doesNotContain("VALUE");
        assertThat(r.out().lines().filter(l -> l.startsWith("ring_size ")).findFirst().orElseThrow())
                .contains("params").contains("unsigned").contains("4096").contains("16..32768").contains("frames");
        for (var spec : ParamRegistry.load().specs()) {
            assertThat(r.out()).contains(spec.name()).contains(spec.description());
        }
    }

    @Test
    void showsEffectiveValuesAndOriginsWhenSourcesSetThem() throws IOException {
        write("/etc/xdlink/xdlink.conf", "# ours\noptions xdlink ring_size_min=512\n");
        CliRun r = params(Map.of("XDLINK_PARAMS", "ring_size=2048 ring_size=1024"));
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("Configuration file: /etc/xdlink/xdlink.conf (default)")
                .contains("$XDLINK_PARAMS: 'ring_size=2048 ring_size=1024'");
        assertThat(r.out().lines().findFirst()).isPresent();
        assertThat(r.out().lines().filter(l -> l.startsWith("NAME")).findFirst().orElseThrow())
                .contains("VALUE").contains("FROM");
        assertThat(r.out().lines().filter(l -> l.startsWith("ring_size ")).findFirst().orElseThrow())
                .contains(" 1024 ").contains("$XDLINK_PARAMS");
        assertThat(r.out().lines().filter(l -> l.startsWith("ring_size_min ")).findFirst().orElseThrow())
                .contains(" 512 ").contains("/etc/xdlink/xdlink.conf:2");
        assertThat(r.err()).isEqualTo("xdlink: warning: $XDLINK_PARAMS: 'ring_size' is set again; 1024 here "
                + "replaces 2048 from $XDLINK_PARAMS (the later setting wins, as the kernel applies options in "
                + "order)\n");
    }

    @Test
    void aBadConfigurationIsOneLineAndExitOne() throws IOException {
        write("/etc/xdlink/xdlink.conf", "\noptions xdlink ring_sise=1024\n");
        CliRun r = params(Map.of());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("xdlink: /etc/xdlink/xdlink.conf:2: unknown parameter 'ring_sise'; did you "
                + "mean 'ring_size'?\n");
    }

    @Test
    void aMissingNamedConfigurationIsAnError() {
        CliRun r = params(Map.of("XDLINK_CONFIG", "/srv/x.conf"));
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("xdlink: /srv/x.conf: configuration file not found (named by "
                + "$XDLINK_CONFIG)\n");
    }

    @Test
    void markdownIsTheGeneratedTable() {
        CliRun r = params(Map.of(), "--markdown");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo(ParamTable.markdown(ParamRegistry.load()));
    }

    @Test
    void markdownUpdateRewritesOnlyTheTable() throws IOException {
        write("/repo/README.md", "# x\n\n" + ParamTable.BEGIN + "\nstale\n" + ParamTable.END + "\ntail\n");
        CliRun r = params(Map.of(), "--markdown", "--update", "/repo/README.md");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo("/repo/README.md: parameter table updated\n");
        String text = Files.readString(fs.getPath("/repo/README.md"));
        assertThat(text).startsWith("# x\n\n" + ParamTable.BEGIN + "\n| name |").endsWith(ParamTable.END + "\ntail\n");
        assertThat(ParamTable.section(text)).isEqualTo(ParamTable.markdown(ParamRegistry.load()));
        assertThat(params(Map.of(), "--markdown", "--update", "/repo/README.md").out()).contains("up to date");
        assertThat(params(Map.of(), "--update", "/repo/README.md").exit()).isEqualTo(2);
        write("/repo/OTHER.md", "no markers\n");
        CliRun bad = params(Map.of(), "--markdown", "--update", "/repo/OTHER.md");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("has no <!-- params:begin -->");
    }

    @Test
    void checkReportsTheFieldFailureAndExitsNonZero() {
        CliRun r = params(Map.of(), "check", "options odl_tb5 ring_size=1024");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).startsWith("argument:1: error: odl_tb5 has no parameter 'ring_size'; did you mean "
                + "'odl_ring_size'?\n")
                .contains("Write odl_ring_size=1024 instead.")
                .endsWith("1 error, 0 warnings in 1 options line in 1 file; 1 name the kernel would silently "
                        + "ignore.\n");
    }

    @Test
    void checkOfACorrectLineIsClean() {
        CliRun r = params(Map.of(), "check", "options odl_tb5 odl_ring_size=1024 loopback=1");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo("ok: 1 options line in 1 file, nothing the kernel or xdlink would ignore.\n");
    }

    @Test
    void checkJoinsUnquotedWordsIntoOneLine() {
        CliRun r = params(Map.of(), "check", "options", "thunderbolt_ibverbs", "native_wr_striping=1");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("thunderbolt_ibverbs has no parameter 'native_wr_striping' any more");
    }

    @Test
    void checkValidatesXdlinkValues() {
        CliRun r = params(Map.of(), "check", "options xdlink ring_size=4K");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("argument:1: error: xdlink: bad value for 'ring_size': '4K' has a size suffix");
    }

    @Test
    void checkAFileWithLineNumbers() throws IOException {
        write("/etc/modprobe.d/usb4.conf", """
                # USB4 cluster
                options thunderbolt_ibverbs profile=linux_perf \\
                    bind_services=1 native_wr_striping=1
                options odl_tb5 odl_ring_size=1024 odl_ring_size=2048
                options e1000e InterruptThrottleRate=3000
                """);
        CliRun r = params(Map.of(), "check", "--file", "/etc/modprobe.d/usb4.conf");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("/etc/modprobe.d/usb4.conf:3: error: thunderbolt_ibverbs has no parameter "
                        + "'native_wr_striping' any more")
                .contains("/etc/modprobe.d/usb4.conf:4: warning: odl_tb5: 'odl_ring_size' is set again")
                .contains("note: not checked, xdlink does not know their parameters: e1000e")
                .endsWith("1 error, 1 warning in 3 options lines in 1 file; 1 name the kernel would silently "
                        + "ignore.\n");
    }

    @Test
    void checkAHostTreeIncludingXdlinksOwnConfiguration() throws IOException {
        write("/host/etc/modprobe.d/odl.conf", "options odl_tb5 ring_size=1024\n");
        write("/host/usr/lib/modprobe.d/odl.conf", "options odl_tb5 odl_ring_size=4096\n");
        write("/host/etc/xdlink/xdlink.conf", "options xdlink ring_size=99999\n");
        CliRun r = params(Map.of(), "check", "--root", "/host");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("Read, in modprobe's order: /host/etc/modprobe.d/odl.conf")
                .contains("Not read: /host/usr/lib/modprobe.d/odl.conf (/host/etc/modprobe.d/odl.conf has the "
                        + "same name and wins)")
                .contains("xdlink's configuration: /host/etc/xdlink/xdlink.conf\n")
                .contains("/host/etc/modprobe.d/odl.conf:1: error: odl_tb5 has no parameter 'ring_size'")
                .contains("error: /host/etc/xdlink/xdlink.conf:1: bad value for 'ring_size': '99999' is out of "
                        + "range; allowed: 16..32768")
                .endsWith("2 errors, 0 warnings in 1 options line in 1 file; 1 name the kernel would silently "
                        + "ignore.\n");
    }

    @Test
    void checkFailsOnABadParamsVariableAndReadsTheFileTheConfigVariableNames() throws IOException {
        Files.createDirectories(fs.getPath("/empty"));
        CliRun r = params(Map.of("XDLINK_PARAMS", "ring_size=1024 bogus=1"), "check", "--root", "/empty");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("$XDLINK_PARAMS: 'ring_size=1024 bogus=1'\n")
                .contains("error: $XDLINK_PARAMS: unknown parameter 'bogus'; no parameter has a name like it")
                .endsWith("1 error, 0 warnings in 0 options lines in 0 files.\n");

        write("/host/srv/xd.conf", "options xdlink ring_sise=1\n");
        CliRun named = params(Map.of("XDLINK_CONFIG", "/srv/xd.conf"), "check", "--root", "/host");
        assertThat(named.exit()).isEqualTo(1);
        assertThat(named.out()).contains("xdlink's configuration: /host/srv/xd.conf\n")
                .contains("error: /host/srv/xd.conf:1: unknown parameter 'ring_sise'; did you mean 'ring_size'?");
        CliRun missing = params(Map.of("XDLINK_CONFIG", "/srv/none.conf"), "check", "--root", "/host");
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.out()).contains("error: /host/srv/none.conf: configuration file not found (named by "
                + "$XDLINK_CONFIG)");
    }

    @Test
    void aFifoIsRefusedWhereverAFileIsNamed(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path fifo = io.xdlink.cli.bench.BenchFilesTestAccess.mkfifo(tmp.resolve("pipe.conf"));
        java.nio.file.FileSystem real = java.nio.file.FileSystems.getDefault();
        CliRun file = CliRun.of(new ParamsCommand(Map.of(), real), "check", "--file", fifo.toString());
        assertThat(file.exit()).isEqualTo(2);
        assertThat(file.err()).isEqualTo("xdlink: --file " + fifo + ": cannot read (not a regular file (a FIFO, "
                + "socket or device), so it is not read)\n");
        CliRun config = CliRun.of(new ParamsCommand(Map.of("XDLINK_CONFIG", fifo.toString()), real));
        assertThat(config.exit()).isEqualTo(1);
        assertThat(config.err()).isEqualTo("xdlink: " + fifo + ": cannot read the configuration file: not a regular "
                + "file (a FIFO, socket or device), so it is not read\n");
        // Under --root, the variable's path is read under the root, as for a host mounted there.
        CliRun check = CliRun.of(new ParamsCommand(Map.of("XDLINK_CONFIG", "/pipe.conf"), real), "check",
                "--root", tmp.toString());
        assertThat(check.exit()).isEqualTo(1);
        assertThat(check.out()).contains("error: " + fifo + ": cannot read the configuration file: not a regular");
        Path big = tmp.resolve("big.conf");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(1L << 30);
        }
        CliRun huge = CliRun.of(new ParamsCommand(Map.of(), real), "check", "--file", big.toString());
        assertThat(huge.exit()).isEqualTo(1);
        assertThat(huge.out()).contains(big + ": error: larger than 4 MiB");
    }

    @Test
    void checkAnEmptyHost() throws IOException {
        Files.createDirectories(fs.getPath("/empty"));
        CliRun r = params(Map.of(), "check", "--root", "/empty");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("No modprobe.d files under /empty")
                .endsWith("ok: 0 options lines in 0 files, nothing the kernel or xdlink would ignore.\n");
    }

    @Test
    void checkUsageErrorsAreOneLineAndExitTwo() {
        CliRun both = params(Map.of(), "check", "--file", "/x.conf", "options m a=1");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).isEqualTo("xdlink: give either --file PATH or an options line, not both\n");
        CliRun missing = params(Map.of(), "check", "--file", "/x.conf");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).isEqualTo("xdlink: --file /x.conf: no such file\n");
        CliRun noRoot = params(Map.of(), "check", "--root", "/nowhere");
        assertThat(noRoot.exit()).isEqualTo(2);
        assertThat(noRoot.err()).isEqualTo("xdlink: --root /nowhere: no such directory\n");
        CliRun rootAndLine = params(Map.of(), "check", "--root", "/", "options m a=1");
        assertThat(rootAndLine.exit()).isEqualTo(2);
    }

    @Test
    void checkOfHostileFilesNeverThrows() throws IOException {
        Path bin = fs.getPath("/bin.conf");
        Files.write(bin, new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0});
        CliRun r = params(Map.of(), "check", "--file", "/bin.conf");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("/bin.conf:1: error: binary data");
        write("/long.conf", "options odl_tb5 " + "x".repeat(1 << 20) + "\n");
        CliRun longLine = params(Map.of(), "check", "--file", "/long.conf");
        assertThat(longLine.exit()).isEqualTo(1);
        assertThat(longLine.out()).contains("/long.conf:1: error: a line of 1048592 characters");
        assertThat(longLine.out().length()).isLessThan(1000);
    }

    @Test
    void registeredInMain() {
        CliRun r = CliRun.main("params", "check", "options odl_tb5 ring_size=1024");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("did you mean 'odl_ring_size'?");
        assertThat(CliRun.main("params", "--markdown").out()).isEqualTo(ParamTable.markdown(ParamRegistry.load()));
    }

    @Test
    void documentedTableMatchesTheRegistry() throws IOException {
        Path page = findParameterPage();
        String documented = ParamTable.section(Files.readString(page));
        String generated = ParamTable.markdown(ParamRegistry.load());
        assertThat(documented)
                .as("docs/parameters.md's parameter table is out of date; regenerate it from the repository root with: "
                        + "./xdlink params --markdown --update docs/parameters.md")
                .isEqualTo(generated);
    }

    /** The repository's docs/parameters.md: the nearest one above the module's directory, next to mvnw. */
    private static Path findParameterPage() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            Path page = dir.resolve("docs").resolve("parameters.md");
            if (Files.isRegularFile(page) && Files.isRegularFile(dir.resolve("mvnw"))) {
                return page;
            }
            dir = dir.getParent();
        }
        throw new AssertionError("no docs/parameters.md next to mvnw above " + Path.of("").toAbsolutePath());
    }
}
