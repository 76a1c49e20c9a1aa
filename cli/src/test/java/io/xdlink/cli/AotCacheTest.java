package io.xdlink.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The JVM the launcher starts: the parallel collector unless {@code XDLINK_JAVA_OPTS} picks one, and the JDK's
 * ahead-of-time cache beside the command-line jar: the launcher passes it only when the JDK that made it
 * runs xdlink and no jar is newer than it, and a cache the JVM refuses costs the user nothing on the screen; the
 * build's training script ({@code aot/train.sh}) skips when asked and leaves no cache when training fails. The
 * launcher runs against a stand-in JDK whose {@code java} prints its arguments, so each decision is read off the
 * command line it would run.
 */
class AotCacheTest {
    private static final String VERSION = "25.0.3+9-LTS";
    private static final Instant BUILT = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path tmp;
    private Path repo;
    private Path target;
    private Path jdk;

    private static void executable(Path p) throws IOException {
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private static void at(Path p, long seconds) throws IOException {
        Files.setLastModifiedTime(p, FileTime.from(BUILT.plusSeconds(seconds)));
    }

    /** A JDK home whose release names {@code version} and whose java prints one argument a line (or runs body). */
    private static Path fakeJdk(Path home, String version, String body) throws IOException {
        Files.createDirectories(home.resolve("bin"));
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"25.0.3\"\nJAVA_RUNTIME_VERSION=\"" + version
                + "\"\n");
        Path java = Files.writeString(home.resolve("bin/java"), "#!/bin/sh\n" + body);
        executable(java);
        return home;
    }

    @BeforeEach
    void layOut() throws IOException {
        repo = tmp.resolve("repo");
        target = repo.resolve("cli/target");
        Files.createDirectories(target.resolve("lib"));
        Files.copy(RepositoryFile.of("xdlink"), repo.resolve("xdlink"));
        executable(repo.resolve("xdlink"));
        jdk = fakeJdk(tmp.resolve("jdk"), VERSION, "for a in \"$@\"; do printf '%s\\n' \"$a\"; done\n");
        at(Files.writeString(target.resolve("xdlink-cli.jar"), "jar"), 0);
        at(Files.writeString(target.resolve("lib/picocli.jar"), "jar"), 0);
        at(target.resolve("lib"), 0);
    }

    private void cache(String stamp, long seconds) throws IOException {
        at(Files.writeString(target.resolve("xdlink.aot"), "cache"), seconds);
        Files.writeString(target.resolve("xdlink.aot.jdk"), stamp);
    }

    private String stampOf(Path home) throws IOException {
        return VERSION + "\n" + home.toRealPath() + "\n";
    }

    private record Run(int exit, String out, String err) {
    }

    private Run launch(Path javaHome, Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", repo.resolve("xdlink").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().remove("XDLINK_JAVA_OPTS");
        pb.environment().put("XDLINK_JAVA_HOME", javaHome.toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        var err = new ByteArrayOutputStream();
        Thread drain = Thread.ofVirtual().start(() -> {
            try {
                p.getErrorStream().transferTo(err);
            } catch (IOException ignored) {
                // the process ended; what was read is kept
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        drain.join();
        return new Run(p.exitValue(), out, err.toString(StandardCharsets.UTF_8));
    }

    private List<String> javaArgs() throws Exception {
        Run r = launch(jdk, Map.of(), "--version");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        return r.out().lines().toList();
    }

    @Test
    void aCacheFromThisJdkNewerThanEveryJarIsPassedWithItsLoggingOff() throws Exception {
        cache(stampOf(jdk), 10);
        assertThat(javaArgs()).containsExactly("--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC",
                "-XX:AOTCache=" + target.resolve("xdlink.aot"), "-Xlog:aot*=off", "-Xlog:cds*=off", "-jar",
                target.resolve("xdlink-cli.jar").toString(), "--version");
    }

    @Test
    void withoutACacheJavaRunsAsBefore() throws Exception {
        assertThat(javaArgs()).containsExactly("--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC", "-jar",
                target.resolve("xdlink-cli.jar").toString(), "--version");
    }

    @Test
    void xdlinkJavaOptsThatPickACollectorReplaceTheParallelOne() throws Exception {
        Run r = launch(jdk, Map.of("XDLINK_JAVA_OPTS", "-Xmx1g -XX:+UseZGC"), "--version");
        assertThat(r.out().lines().toList()).containsExactly("--enable-native-access=ALL-UNNAMED", "-Xmx1g",
                "-XX:+UseZGC", "-jar", target.resolve("xdlink-cli.jar").toString(), "--version");
        r = launch(jdk, Map.of("XDLINK_JAVA_OPTS", "-Xmx1g -XX:-UseCompressedOops"), "--version");
        assertThat(r.out().lines().toList()).as("options that pick no collector")
                .startsWith("--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC", "-Xmx1g");
    }

    @Test
    void aCacheWithoutItsJdkNoteIsNotUsed() throws Exception {
        cache("", 10);
        Files.delete(target.resolve("xdlink.aot.jdk"));
        assertThat(javaArgs()).noneMatch(a -> a.startsWith("-XX:AOTCache"));
    }

    @Test
    void aCacheFromAnotherJdkReleaseOrHomeIsNotUsed() throws Exception {
        cache("25.0.2+10-LTS\n" + jdk.toRealPath() + "\n", 10);
        assertThat(javaArgs()).as("another release").noneMatch(a -> a.startsWith("-XX:AOTCache"));
        cache(VERSION + "\n/usr/lib/jvm/another-25\n", 10);
        assertThat(javaArgs()).as("another home").noneMatch(a -> a.startsWith("-XX:AOTCache"));
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"25\"\n");
        cache("\n" + jdk.toRealPath() + "\n", 10);
        assertThat(javaArgs()).as("a JDK that names no runtime version").noneMatch(a -> a.startsWith("-XX:AOTCache"));
    }

    @Test
    void aCacheOlderThanTheJarOrALibraryJarIsNotUsed() throws Exception {
        cache(stampOf(jdk), 10);
        at(target.resolve("xdlink-cli.jar"), 20);
        assertThat(javaArgs()).as("jar rebuilt").noneMatch(a -> a.startsWith("-XX:AOTCache"));
        at(target.resolve("xdlink-cli.jar"), 0);
        at(target.resolve("lib/picocli.jar"), 20);
        assertThat(javaArgs()).as("a dependency replaced").noneMatch(a -> a.startsWith("-XX:AOTCache"));
        at(target.resolve("lib/picocli.jar"), 0);
        assertThat(javaArgs()).as("all older again").anyMatch(a -> a.startsWith("-XX:AOTCache"));
    }

    /** A jar whose Main prints "ran" and its arguments: something the real JDK can start. */
    private Path realJar() throws IOException {
        Path src = Files.writeString(Files.createDirectories(tmp.resolve("src")).resolve("Hi.java"),
                "public class Hi { public static void main(String[] a) { System.out.println(\"ran \" + a.length); } }",
                StandardCharsets.UTF_8);
        Path classes = Files.createDirectories(tmp.resolve("classes"));
        var javac = ToolProvider.getSystemJavaCompiler();
        assumeTrue(javac != null, "no compiler in this JDK");
        assertThat(javac.run(null, null, null, "-d", classes.toString(), src.toString())).isZero();
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "Hi");
        Path jar = target.resolve("xdlink-cli.jar");
        try (var out = new JarOutputStream(Files.newOutputStream(jar), m)) {
            out.putNextEntry(new JarEntry("Hi.class"));
            out.write(Files.readAllBytes(classes.resolve("Hi.class")));
            out.closeEntry();
        }
        at(jar, 0);
        return jar;
    }

    @Test
    void theRealJdkSkipsADamagedOrForeignCacheInSilence() throws Exception {
        Path home = Path.of(System.getProperty("java.home"));
        String release = Files.readString(home.resolve("release"));
        String version = release.lines().filter(l -> l.startsWith("JAVA_RUNTIME_VERSION=\"")).findFirst()
                .map(l -> l.substring(22, l.indexOf('"', 22))).orElse("");
        assumeTrue(Runtime.version().feature() >= 25 && !version.isEmpty(), "needs a JDK 25 with a release file");
        realJar();
        String stamp = version + "\n" + home.toRealPath() + "\n";
        byte[] junk = new byte[64 << 10];
        new java.util.Random(16).nextBytes(junk);
        for (byte[] content : List.of(junk, "not a cache".getBytes(StandardCharsets.UTF_8), new byte[0])) {
            at(Files.write(target.resolve("xdlink.aot"), content), 10);
            Files.writeString(target.resolve("xdlink.aot.jdk"), stamp);
            Run r = launch(home, Map.of(), "a", "b");
            assertThat(r.err()).as("%d bytes of cache", content.length).isEmpty();
            assertThat(r.out()).isEqualTo("ran 2\n");
            assertThat(r.exit()).isZero();
        }
    }

    @Test
    void theRealJdkRunsTheParallelCollectorOrTheOnePicked() throws Exception {
        Path home = Path.of(System.getProperty("java.home"));
        assumeTrue(Runtime.version().feature() >= 25, "needs a JDK 25");
        realJar();
        Run r = launch(home, Map.of("XDLINK_JAVA_OPTS", "-Xlog:gc:stderr"), "a");
        assertThat(r.err()).contains("[gc] Using Parallel");
        assertThat(r.out()).isEqualTo("ran 1\n");
        r = launch(home, Map.of("XDLINK_JAVA_OPTS", "-XX:+UseSerialGC -Xlog:gc:stderr"), "a");
        assertThat(r.err()).as("one collector, the user's").contains("[gc] Using Serial");
        assertThat(r.out()).isEqualTo("ran 1\n");
        assertThat(r.exit()).isZero();
    }

    // ---- the build's training script ----

    private Run train(Path home, String skip) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("sh", RepositoryFile.of("aot/train.sh").toString(), home.toString(),
                target.resolve("xdlink.aot").toString(), skip, target.resolve("xdlink-cli.jar").toString(),
                "io.xdlink.cli.AotTraining");
        Process p = pb.redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), out, "");
    }

    private List<String> cacheFiles() throws IOException {
        try (var files = Files.list(target)) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("xdlink.aot"))
                    .filter(n -> !n.equals("xdlink.aot.log")).sorted().toList();
        }
    }

    /** A java that writes the cache it is asked for, as -XX:AOTCacheOutput does, and records its arguments. */
    private Path trainingJdk(String exit) throws IOException {
        return fakeJdk(tmp.resolve("training-jdk"), VERSION, """
                for a in "$@"; do
                  case "$a" in -XX:AOTCacheOutput=*) printf 'cache' > "${a#-XX:AOTCacheOutput=}" ;; esac
                  printf '%s\\n' "$a" >> "$0.args"
                done
                exit\s""" + exit + "\n");
    }

    @Test
    void skippingTrainingRemovesAnOldCacheAndSaysSo() throws Exception {
        cache(stampOf(jdk), 10);
        Run r = train(trainingJdk("0"), "true");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("xdlink: xdlink.aot: training skipped (xdlink.aot.skip=true)");
        assertThat(cacheFiles()).isEmpty();
        assertThat(tmp.resolve("training-jdk/bin/java.args")).as("java never ran").doesNotExist();
    }

    @Test
    void aSuccessfulRunWritesTheCacheAndNamesItsJdk() throws Exception {
        Path home = trainingJdk("0");
        Run r = train(home, "false");
        assertThat(r.exit()).as(r.out()).isZero();
        assertThat(cacheFiles()).containsExactly("xdlink.aot", "xdlink.aot.jdk");
        assertThat(Files.readString(target.resolve("xdlink.aot.jdk"))).isEqualTo(VERSION + "\n" + home.toRealPath()
                + "\n");
        assertThat(Files.readAllLines(home.resolve("bin/java.args"))).containsExactly(
                "--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC",
                "-XX:AOTCacheOutput=" + target.resolve("xdlink.aot.tmp"),
                // Classes loaded and linked, but no method profiles from a run over the simulator.
                "-XX:+UnlockDiagnosticVMOptions", "-XX:+IgnoreUnrecognizedVMOptions", "-XX:-AOTRecordTraining",
                "-cp", target.resolve("xdlink-cli.jar").toString(), "io.xdlink.cli.AotTraining");
    }

    @Test
    void aFailedRunWarnsExitsZeroAndLeavesNoCache() throws Exception {
        cache(stampOf(jdk), 10);
        Run r = train(trainingJdk("3"), "false");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("[WARNING] xdlink: no AOT cache xdlink.aot: the training run failed");
        assertThat(cacheFiles()).isEmpty();
    }

    @Test
    void aJdkOlderThan25IsNotAskedToTrain() throws Exception {
        Path old = fakeJdk(tmp.resolve("jdk17"), "17.0.12+7", "exit 0\n");
        Run r = train(old, "false");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("[WARNING] xdlink: no AOT cache xdlink.aot: the JDK running Maven is 17.0.12+7");
        assertThat(cacheFiles()).isEmpty();
    }
}
