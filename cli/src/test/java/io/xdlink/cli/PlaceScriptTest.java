package io.xdlink.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the build puts its jars and the plugin's library where programs run them from ({@code build-support/place.sh}),
 * laying out a plugin directory as ccl-plugin's build does: the library under both names, the module's jar and the
 * staged dependency jars, each changed file renamed into place so that a process holding the old one (a collective
 * library with the plugin loaded, a JVM reading its jars) keeps reading the old bytes.
 */
class PlaceScriptTest {
    @TempDir
    Path tmp;
    private Path so;
    private Path jar;
    private Path staged;
    private Path dir;

    @BeforeEach
    void build() throws IOException {
        so = Files.writeString(tmp.resolve("libnccl-net-xdlink.so"), "library one");
        jar = Files.writeString(tmp.resolve("xdlink-ccl-plugin-0.1.0.jar"), "module one");
        staged = Files.createDirectories(tmp.resolve("plugin-jars"));
        Files.writeString(staged.resolve("xdlink-rails-0.1.0.jar"), "rails one");
        Files.writeString(staged.resolve("picocli-4.7.7.jar"), "picocli");
        dir = tmp.resolve("xdlink-plugin");
    }

    private record Ran(int exit, String output) {
    }

    /** place.sh as ccl-plugin's build calls it. */
    private Ran run() throws Exception {
        Process p = new ProcessBuilder("sh", RepositoryFile.of("build-support/place.sh").toString(), "--prune", "*.jar", dir.toString(),
                so + "=libnccl-net-xdlink.so", so + "=librccl-net-xdlink.so", jar.toString(), staged.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("place.sh finished").isTrue();
        return new Ran(p.exitValue(), out);
    }

    private void layOut() throws Exception {
        Ran r = run();
        assertThat(r.exit()).as(r.output()).isZero();
    }

    private Object inode(String name) throws IOException {
        return Files.readAttributes(dir.resolve(name), BasicFileAttributes.class).fileKey();
    }

    private Stream<String> names() throws IOException {
        return Files.list(dir).map(p -> p.getFileName().toString()).sorted();
    }

    @Test
    void laysOutTheLibraryUnderBothNamesBesideEveryJar() throws Exception {
        layOut();
        assertThat(run().output()).as("says nothing when all is well").isEmpty();
        assertThat(names()).containsExactly("libnccl-net-xdlink.so", "librccl-net-xdlink.so", "picocli-4.7.7.jar",
                "xdlink-ccl-plugin-0.1.0.jar", "xdlink-rails-0.1.0.jar");
        assertThat(Files.readString(dir.resolve("librccl-net-xdlink.so"))).isEqualTo("library one");
        assertThat(Files.readString(dir.resolve("xdlink-rails-0.1.0.jar"))).isEqualTo("rails one");
    }

    @Test
    void aChangedLibraryIsRenamedIntoPlaceSoAProcessHoldingTheOldOneKeepsItsBytes() throws Exception {
        layOut();
        Object picocli = inode("picocli-4.7.7.jar");
        try (FileChannel held = FileChannel.open(dir.resolve("libnccl-net-xdlink.so"));
             FileChannel heldJar = FileChannel.open(dir.resolve("xdlink-rails-0.1.0.jar"))) {
            Object library = inode("libnccl-net-xdlink.so");
            Files.writeString(so, "library two, longer");
            Files.writeString(staged.resolve("xdlink-rails-0.1.0.jar"), "rails two");
            layOut();
            assertThat(read(held)).as("the open library, as a loaded plugin maps it").isEqualTo("library one");
            assertThat(read(heldJar)).as("a jar the plugin's JVM has open").isEqualTo("rails one");
            assertThat(inode("libnccl-net-xdlink.so")).isNotEqualTo(library);
        }
        assertThat(Files.readString(dir.resolve("libnccl-net-xdlink.so"))).isEqualTo("library two, longer");
        assertThat(Files.readString(dir.resolve("librccl-net-xdlink.so"))).isEqualTo("library two, longer");
        assertThat(Files.readString(dir.resolve("xdlink-rails-0.1.0.jar"))).isEqualTo("rails two");
        assertThat(inode("picocli-4.7.7.jar")).as("an unchanged jar is left in place").isEqualTo(picocli);
        assertThat(names()).as("no temporary file is left behind").noneMatch(n -> n.startsWith("."));
    }

    @Test
    void anUnchangedFileKeepsItsInodeAndCountsAsBuiltNow() throws Exception {
        layOut();
        Path library = dir.resolve("libnccl-net-xdlink.so");
        Files.setLastModifiedTime(library, FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
        Object before = inode("libnccl-net-xdlink.so");
        layOut();
        assertThat(inode("libnccl-net-xdlink.so")).isEqualTo(before);
        assertThat(Files.getLastModifiedTime(library).toInstant())
                .as("newer than the sources, as the launcher's staleness check needs")
                .isAfter(Instant.parse("2026-06-01T00:00:00Z"));
    }

    @Test
    void aJarNoLongerStagedIsRemovedSoTwoVersionsNeverShareTheClassPath() throws Exception {
        layOut();
        Files.delete(staged.resolve("picocli-4.7.7.jar"));
        Files.writeString(staged.resolve("picocli-4.7.8.jar"), "picocli newer");
        Files.writeString(dir.resolve("notes.txt"), "not a jar");
        layOut();
        assertThat(names()).containsExactly("libnccl-net-xdlink.so", "librccl-net-xdlink.so", "notes.txt",
                "picocli-4.7.8.jar", "xdlink-ccl-plugin-0.1.0.jar", "xdlink-rails-0.1.0.jar");
    }

    @Test
    void aCheckoutUnderAFolderWithAnEqualsSignInItsNameLaysOutTheSame() throws Exception {
        Path checkout = Files.createDirectories(tmp.resolve("builds=2026"));
        so = Files.move(so, checkout.resolve(so.getFileName()));
        jar = Files.move(jar, checkout.resolve(jar.getFileName()));
        staged = Files.move(staged, checkout.resolve(staged.getFileName()));
        dir = checkout.resolve("xdlink-plugin");
        layOut();
        assertThat(names()).containsExactly("libnccl-net-xdlink.so", "librccl-net-xdlink.so", "picocli-4.7.7.jar",
                "xdlink-ccl-plugin-0.1.0.jar", "xdlink-rails-0.1.0.jar");
    }

    @Test
    void aMissingLibraryFailsTheLayoutAndLeavesTheDirectoryAsItWas() throws Exception {
        layOut();
        Object library = inode("libnccl-net-xdlink.so");
        Files.delete(so);
        Ran r = run();
        assertThat(r.exit()).as(r.output()).isNotZero();
        assertThat(r.output()).contains("place.sh: no file " + so + " to place in " + dir);
        assertThat(inode("libnccl-net-xdlink.so")).isEqualTo(library);
        assertThat(Files.readString(dir.resolve("libnccl-net-xdlink.so"))).isEqualTo("library one");
        assertThat(names()).noneMatch(n -> n.startsWith("."));
    }

    private static String read(FileChannel ch) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(64);
        ch.read(b, 0);
        return new String(b.array(), 0, b.position(), StandardCharsets.UTF_8);
    }
}
