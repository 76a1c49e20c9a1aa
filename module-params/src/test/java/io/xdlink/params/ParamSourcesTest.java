package io.xdlink.params;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParamSourcesTest {
    private final FileSystem fs = Jimfs.newFileSystem(Configuration.unix());

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    private Path write(String path, String text) throws IOException {
        Path p = fs.getPath(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    private ParamSources sources(Map<String, String> env) {
        return ParamSources.of(TestSpecs.registry()).fileSystem(fs).environment(env);
    }

    @Test
    void defaultsWhenNothingIsSetAndTheDefaultFileIsMissing() {
        Params p = sources(Map.of()).load();
        assertThat(p.get(TestSpecs.RING)).isEqualTo(4096L);
        assertThat(p.origin(TestSpecs.RING)).isEqualTo(Origin.DEFAULT);
        assertThat(p.warnings()).isEmpty();
        assertThat(sources(Map.of()).configFile().required()).isFalse();
    }

    @Test
    void precedenceIsDefaultThenFileThenEnvironmentThenExplicit() throws IOException {
        write(ParamSources.DEFAULT_CONFIG, "options xdlink ring_size=2048 mode=fast stripe_min=1M loopback=1\n");
        Params p = sources(Map.of(ParamSources.PARAMS_VARIABLE, "ring_size=1024 mode=auto"))
                .explicit(Map.of("ring_size", "512"), Origin.explicit("--param"))
                .load();
        assertThat(p.get(TestSpecs.RING)).isEqualTo(512L);
        assertThat(p.origin(TestSpecs.RING).toString()).isEqualTo("--param");
        assertThat(p.get(TestSpecs.MODE)).isEqualTo("auto");
        assertThat(p.origin(TestSpecs.MODE).toString()).isEqualTo("$XDLINK_PARAMS");
        assertThat(p.get(TestSpecs.STRIPE)).isEqualTo(1L << 20);
        assertThat(p.origin(TestSpecs.STRIPE).toString()).isEqualTo("/etc/xdlink/xdlink.conf:1");
        assertThat(p.get(TestSpecs.LOOPBACK)).isTrue();
        assertThat(p.get(TestSpecs.OFFSET)).isZero();
        assertThat(p.warnings()).isEmpty();
    }

    @Test
    void configFileSyntaxCommentsContinuationsQuotesAndDashes() throws IOException {
        write(ParamSources.DEFAULT_CONFIG, """
                # xdlink settings
                options xdlink ring-size=2048 \\
                    "mode=fast"

                options xdlink stripe-min="128K"
                """);
        Params p = sources(Map.of()).load();
        assertThat(p.get(TestSpecs.RING)).isEqualTo(2048L);
        assertThat(p.origin(TestSpecs.RING).toString()).isEqualTo("/etc/xdlink/xdlink.conf:2");
        assertThat(p.get(TestSpecs.MODE)).isEqualTo("fast");
        assertThat(p.origin(TestSpecs.MODE).toString()).isEqualTo("/etc/xdlink/xdlink.conf:3");
        assertThat(p.get(TestSpecs.STRIPE)).isEqualTo(128L << 10);
    }

    @Test
    void xdlinkConfigNamesAnotherFileWhichMustExist() throws IOException {
        write("/home/u/x.conf", "options xdlink ring_size=64\n");
        Params p = sources(Map.of(ParamSources.CONFIG_VARIABLE, "/home/u/x.conf")).load();
        assertThat(p.get(TestSpecs.RING)).isEqualTo(64L);
        assertThatThrownBy(() -> sources(Map.of(ParamSources.CONFIG_VARIABLE, "/home/u/missing.conf")).load())
                .isInstanceOf(ParamException.class)
                .hasMessage("/home/u/missing.conf: configuration file not found (named by $XDLINK_CONFIG)");
    }

    @Test
    void emptyXdlinkConfigReadsNoFile() throws IOException {
        write(ParamSources.DEFAULT_CONFIG, "options xdlink ring_size=64\n");
        Params p = sources(Map.of(ParamSources.CONFIG_VARIABLE, "")).load();
        assertThat(p.get(TestSpecs.RING)).isEqualTo(4096L);
    }

    @Test
    void fileGivenThroughTheApiWinsOverTheVariableAndMustExist() throws IOException {
        Path api = write("/a.conf", "options xdlink ring_size=32\n");
        write("/b.conf", "options xdlink ring_size=64\n");
        Params p = sources(Map.of(ParamSources.CONFIG_VARIABLE, "/b.conf")).configFile(api, "--config").load();
        assertThat(p.get(TestSpecs.RING)).isEqualTo(32L);
        assertThatThrownBy(() -> sources(Map.of()).configFile(fs.getPath("/none.conf"), "--config").load())
                .hasMessage("/none.conf: configuration file not found (named by --config)");
    }

    @Test
    void unknownNameInTheFileNamesFileLineAndClosestNames() throws IOException {
        write(ParamSources.DEFAULT_CONFIG, "\n\noptions xdlink ring_sise=1024\n");
        assertThatThrownBy(() -> sources(Map.of()).load())
                .isInstanceOf(ParamException.class)
                .hasMessage("/etc/xdlink/xdlink.conf:3: unknown parameter 'ring_sise'; did you mean 'ring_size'?");
    }

    @Test
    void unknownNameInTheVariableNamesTheVariable() {
        assertThatThrownBy(() -> sources(Map.of(ParamSources.PARAMS_VARIABLE, "loopbak=1")).load())
                .hasMessage("$XDLINK_PARAMS: unknown parameter 'loopbak'; did you mean 'loopback'?");
    }

    @Test
    void badValueNamesTheAllowedRange() {
        assertThatThrownBy(() -> sources(Map.of(ParamSources.PARAMS_VARIABLE, "ring_size=8")).load())
                .hasMessage("$XDLINK_PARAMS: bad value for 'ring_size': '8' is out of range; allowed: 16..32768");
        assertThatThrownBy(() -> sources(Map.of(ParamSources.PARAMS_VARIABLE, "mode=slow")).load())
                .hasMessageEndingWith("'slow' is not one of auto|fast");
    }

    @Test
    void overflowingNumbersAreRefused() {
        assertThatThrownBy(() -> sources(Map.of(ParamSources.PARAMS_VARIABLE,
                "ring_size=99999999999999999999999999")).load())
                .hasMessageContaining("overflows; allowed: 16..32768");
        assertThatThrownBy(() -> sources(Map.of(ParamSources.PARAMS_VARIABLE, "stripe_min=99999999999G")).load())
                .hasMessageContaining("overflows");
    }

    @Test
    void sizeSuffixOnANonSizeParameterIsRefusedAndSaysWhy() {
        assertThatThrownBy(() -> sources(Map.of(ParamSources.PARAMS_VARIABLE, "ring_size=4K")).load())
                .hasMessageContaining("'4K' has a size suffix, but this parameter is a plain number")
                .hasMessageContaining("allowed: 16..32768");
    }

    @Test
    void deprecatedNameIsAcceptedWithAWarningNamingTheReplacement() {
        Params p = sources(Map.of(ParamSources.PARAMS_VARIABLE, "ringsize=128")).load();
        assertThat(p.get(TestSpecs.RING)).isEqualTo(128L);
        assertThat(p.warnings()).containsExactly(
                "$XDLINK_PARAMS: parameter 'ringsize' is deprecated; use 'ring_size'");
    }

    @Test
    void duplicateKeysOnOneLineAndAcrossLinesLaterWinsAndSaysSo() throws IOException {
        write(ParamSources.DEFAULT_CONFIG, "options xdlink ring_size=64 ring_frames=128\noptions xdlink "
                + "ring_size=256\n");
        Params p = sources(Map.of()).load();
        assertThat(p.get(TestSpecs.RING)).isEqualTo(256L);
        assertThat(p.origin(TestSpecs.RING).toString()).isEqualTo("/etc/xdlink/xdlink.conf:2");
        assertThat(p.warnings()).containsExactly(
                "/etc/xdlink/xdlink.conf:1: 'ring_size' is set again; 128 here replaces 64 from "
                        + "/etc/xdlink/xdlink.conf:1 (the later setting wins, as the kernel applies options in order)",
                "/etc/xdlink/xdlink.conf:2: 'ring_size' is set again; 256 here replaces 128 from "
                        + "/etc/xdlink/xdlink.conf:1 (the later setting wins, as the kernel applies options in order)");
    }

    @Test
    void duplicateInTheVariableWarnsToo() {
        Params p = sources(Map.of(ParamSources.PARAMS_VARIABLE, "mode=fast mode=auto")).load();
        assertThat(p.get(TestSpecs.MODE)).isEqualTo("auto");
        assertThat(p.warnings()).singleElement().asString().contains("'mode' is set again");
    }

    @Test
    void bareNameSwitchesABoolOnAndIsRefusedForOthers() {
        assertThat(sources(Map.of(ParamSources.PARAMS_VARIABLE, "loopback")).load().get(TestSpecs.LOOPBACK))
                .isTrue();
        assertThatThrownBy(() -> sources(Map.of(ParamSources.PARAMS_VARIABLE, "ring_size")).load())
                .hasMessage("$XDLINK_PARAMS: 'ring_size' needs a value: ring_size=4096 (allowed: 16..32768)");
    }

    @Test
    void otherModulesAndCommandsInTheConfigFileAreErrors() throws IOException {
        write(ParamSources.DEFAULT_CONFIG, "options odl_tb5 odl_ring_size=1024\n");
        assertThatThrownBy(() -> sources(Map.of()).load())
                .hasMessageStartingWith("/etc/xdlink/xdlink.conf:1: options for module 'odl_tb5' do not belong");
        write(ParamSources.DEFAULT_CONFIG, "\nblacklist xdlink\n");
        assertThatThrownBy(() -> sources(Map.of()).load())
                .hasMessageStartingWith("/etc/xdlink/xdlink.conf:2: 'blacklist' has no meaning");
    }

    @Test
    void linesModprobeWouldSkipAreErrors() throws IOException {
        write(ParamSources.DEFAULT_CONFIG, "option xdlink ring_size=64\n");
        assertThatThrownBy(() -> sources(Map.of()).load())
                .hasMessage("/etc/xdlink/xdlink.conf:1: error: modprobe ignores this line: 'option' is not a "
                        + "modprobe command; did you mean 'options'?");
    }

    @Test
    void trailingCommentIsAnErrorNotSilentlyIgnored() throws IOException {
        write(ParamSources.DEFAULT_CONFIG, "options xdlink ring_size=64 # small\n");
        assertThatThrownBy(() -> sources(Map.of()).load())
                .hasMessageContaining("'#' is read as a parameter name");
    }

    @Test
    void unterminatedContinuationAtEndOfFileIsAWarning() throws IOException {
        write(ParamSources.DEFAULT_CONFIG, "options xdlink ring_size=64 \\\n");
        Params p = sources(Map.of()).load();
        assertThat(p.get(TestSpecs.RING)).isEqualTo(64L);
        assertThat(p.warnings()).singleElement().asString().contains("continues nothing");
    }

    @Test
    void unclosedQuoteIsAnError() {
        assertThatThrownBy(() -> sources(Map.of(ParamSources.PARAMS_VARIABLE, "mode=\"fast")).load())
                .hasMessageContaining("never closed");
    }

    @Test
    void emptyAndBinaryConfigFiles() throws IOException {
        write(ParamSources.DEFAULT_CONFIG, "");
        assertThat(sources(Map.of()).load().get(TestSpecs.RING)).isEqualTo(4096L);
        Files.write(fs.getPath(ParamSources.DEFAULT_CONFIG), new byte[] {0x7f, 'E', 'L', 'F', 0, 0, 1});
        assertThatThrownBy(() -> sources(Map.of()).load()).hasMessageContaining("binary data");
    }

    @Test
    void aMegabyteLineIsAClearErrorAndAHugeVariableToo() throws IOException {
        write(ParamSources.DEFAULT_CONFIG, "options xdlink ring_size=" + "9".repeat(1 << 20) + "\n");
        assertThatThrownBy(() -> sources(Map.of()).load())
                .hasMessageContaining("/etc/xdlink/xdlink.conf:1: error: a line of 1048601 characters");
        Files.delete(fs.getPath(ParamSources.DEFAULT_CONFIG));
        assertThatThrownBy(() -> sources(Map.of(ParamSources.PARAMS_VARIABLE, "x".repeat(1 << 20))).load())
                .hasMessageContaining("$XDLINK_PARAMS is 1048576 characters long");
    }

    @Test
    void hugeValueInTheVariableIsClippedInTheMessage() {
        String value = "9".repeat(60_000);
        assertThatThrownBy(() -> sources(Map.of(ParamSources.PARAMS_VARIABLE, "ring_size=" + value)).load())
                .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(300))
                .hasMessageContaining("overflows");
    }

    @Test
    void configFileThatIsADirectoryIsAnError() throws IOException {
        Files.createDirectories(fs.getPath(ParamSources.DEFAULT_CONFIG));
        assertThatThrownBy(() -> sources(Map.of()).load())
                .hasMessageStartingWith("/etc/xdlink/xdlink.conf: cannot read the configuration file");
    }

    @Test
    void explicitValuesApplyInOrderAndUnknownOnesNameTheirOrigin() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("ring_size", "64");
        values.put("ring_frames", "32");
        Params p = sources(Map.of()).explicit(values, Origin.explicit("plugin")).load();
        assertThat(p.get(TestSpecs.RING)).isEqualTo(32L);
        assertThatThrownBy(() -> sources(Map.of()).explicit(Map.of("zzzzzzzz", "1"), Origin.explicit("plugin"))
                .load())
                .hasMessage("plugin: unknown parameter 'zzzzzzzz'; no parameter has a name like it: 'xdlink params' "
                        + "lists them all");
    }

    @Test
    void aConfigFileThatIsAFifoADeviceOrHugeIsRefusedWithoutBlocking(@org.junit.jupiter.api.io.TempDir Path tmp)
            throws Exception {
        Path fifo = io.xdlink.params.files.BoundedFileTest.mkfifo(tmp.resolve("xdlink.conf"));
        Path big = tmp.resolve("big.conf");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(1L << 30);
        }
        for (String named : java.util.List.of(fifo.toString(), "/dev/zero", tmp.toString())) {
            ParamSources real = ParamSources.of(TestSpecs.registry()).environment(Map.of("XDLINK_CONFIG", named));
            assertThatThrownBy(real::load).as(named).isInstanceOf(ParamException.class)
                    .hasMessageStartingWith(named + ": cannot read the configuration file: ");
        }
        assertThatThrownBy(ParamSources.of(TestSpecs.registry()).environment(Map.of("XDLINK_CONFIG", fifo.toString()))
                ::load).hasMessage(fifo + ": cannot read the configuration file: not a regular file (a FIFO, socket or"
                + " device), so it is not read");
        assertThatThrownBy(ParamSources.of(TestSpecs.registry()).environment(Map.of("XDLINK_CONFIG", big.toString()))
                ::load).hasMessageContaining("larger than 4 MiB");
    }
}
