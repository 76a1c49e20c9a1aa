package io.xdlink.it;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The plugin's in-process JVM and the AOT cache beside its jars, through the native harness's ping-pong: the shim
 * offers a cache only when its note names the JDK it starts and no jar is newer, says at INFO which cache it offered
 * or why none, and a cache the JVM refuses (damaged, or trained in another directory) costs nothing in the host's
 * output. The same line names the collector: the parallel one, unless {@code XDLINK_JAVA_OPTIONS} picks another. Each
 * run uses a copy of the laid-out plugin directory, so the build's own cache is left alone.
 */
class PluginAotCacheTest {
    private static final Instant JARS = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path dir;

    @BeforeEach
    void copyThePluginDirectory() throws IOException {
        assumeTrue(Files.isRegularFile(NativeHarness.SO), "no laid-out plugin at " + NativeHarness.SO);
        try (Stream<Path> files = Files.list(NativeHarness.PLUGIN_DIR)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".so") || f.toString().endsWith(".jar")).toList()) {
                Path copy = Files.copy(f, dir.resolve(f.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
                Files.setLastModifiedTime(copy, FileTime.from(JARS));
            }
        }
    }

    private String stamp() throws IOException {
        Path home = Path.of(NativeHarness.JAVA_HOME);
        String version = Files.readString(home.resolve("release")).lines()
                .filter(l -> l.startsWith("JAVA_RUNTIME_VERSION=\"")).findFirst()
                .map(l -> l.substring(22, l.indexOf('"', 22))).orElseThrow();
        return version + "\n" + home.toRealPath() + "\n";
    }

    private Path cache(byte[] content, String stamp, long secondsAfterJars) throws IOException {
        Path cache = Files.write(dir.resolve("xdlink-plugin.aot"), content);
        Files.setLastModifiedTime(cache, FileTime.from(JARS.plusSeconds(secondsAfterJars)));
        Files.writeString(dir.resolve("xdlink-plugin.aot.jdk"), stamp);
        return cache;
    }

    private NativeHarness.Run pingPong() throws Exception {
        return pingPong("");
    }

    private NativeHarness.Run pingPong(String javaOptions) throws Exception {
        NativeHarness.Run run = NativeHarness.run(Map.of("NCCL_NET_PLUGIN", dir.resolve("libnccl-net-xdlink.so")
                .toString(), "JAVA_HOME", NativeHarness.JAVA_HOME, "XDLINK_PARAMS", "loopback=1",
                "XDLINK_JAVA_OPTIONS", javaOptions), 300, "pingpong", "--iterations", "50");
        assertThat(run.output()).as(run.output()).endsWith("passed, 0 failed\n").doesNotContain("[aot")
                .doesNotContain("[cds").doesNotContain("AOT cache").doesNotContain("NCCL WARN");
        assertThat(run.exit()).isZero();
        return run;
    }

    private static byte[] junk() {
        byte[] b = new byte[64 << 10];
        new Random(16).nextBytes(b);
        return b;
    }

    @Test
    void aCacheFromThisJdkIsOfferedAndADamagedOneCostsNothing() throws Exception {
        Path cache = cache(junk(), stamp(), 10);
        assertThat(pingPong().output())
                .contains("(offered the ahead-of-time cache " + cache + "; the parallel collector)");
    }

    @Test
    void theBuildsCacheInAnotherDirectoryIsOfferedAndRunsInSilence() throws Exception {
        Path built = NativeHarness.PLUGIN_DIR.resolve("xdlink-plugin.aot");
        assumeTrue(Files.isRegularFile(built), "the build made no plugin cache (-Dxdlink.aot.skip=true?)");
        Path cache = cache(Files.readAllBytes(built), Files.readString(built.resolveSibling("xdlink-plugin.aot.jdk")),
                10);
        assertThat(pingPong().output())
                .contains("(offered the ahead-of-time cache " + cache + "; the parallel collector)");
    }

    @Test
    void aCacheFromAnotherJdkIsNotOffered() throws Exception {
        Path cache = cache(junk(), "25.0.1+8\n/opt/another-jdk\n", 10);
        assertThat(pingPong().output()).contains("(no ahead-of-time cache: " + cache + " was not made by the JDK at ");
    }

    @Test
    void aCacheOlderThanAJarIsNotOffered() throws Exception {
        Path cache = cache(junk(), stamp(), -10);
        assertThat(pingPong().output()).contains("(no ahead-of-time cache: " + cache + " is older than " + dir);
    }

    @Test
    void withoutACacheTheShimSaysSo() throws Exception {
        assertThat(pingPong().output()).contains("(no ahead-of-time cache: no " + dir.resolve("xdlink-plugin.aot")
                + "; the parallel collector)");
    }

    @Test
    void theJvmRunsTheParallelCollectorUnlessTheOptionsPickOne() throws Exception {
        assertThat(pingPong("-Xlog:gc:stdout").output()).contains("[gc] Using Parallel")
                .contains("; the parallel collector)");
        assertThat(pingPong("-XX:+UseSerialGC -Xlog:gc:stdout").output()).contains("[gc] Using Serial")
                .doesNotContain("Using Parallel").contains("; the collector XDLINK_JAVA_OPTIONS picks)");
    }
}
