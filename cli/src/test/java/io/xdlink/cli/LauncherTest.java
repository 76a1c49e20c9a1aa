package io.xdlink.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The {@code xdlink} launcher script's first build, run on a copy of the script beside a stand-in {@code mvnw}
 * that prints what Maven prints: the user sees a line per module and the downloads counted, not a minute of
 * silence, and a failed build shows the end of the log.
 */
class LauncherTest {
    private static final String MAVEN_LOG = """
            [INFO] Scanning for projects...
            Downloading from central: https://repo.maven.apache.org/maven2/a.pom
            Downloaded from central: https://repo.maven.apache.org/maven2/a.pom (1 kB at 2 kB/s)
            Downloaded from central: https://repo.maven.apache.org/maven2/b.jar (10 kB at 20 kB/s)
            [INFO] Building xdlink 0.1.0-SNAPSHOT                                     [1/2]
            [INFO] --- compiler:3.14.0:compile (default-compile) @ xdlink-cli ---
            [INFO] Building xdlink command line 0.1.0-SNAPSHOT                        [2/2]
            [INFO] BUILD SUCCESS
            """;

    private record Run(int exit, String err) {
    }

    private static Run launch(Path tmp, String mvnwBody) throws Exception {
        Path repo = tmp.resolve("repo");
        Files.createDirectories(repo.resolve("cli/src/main"));
        Files.copy(RepositoryFile.of("xdlink"), repo.resolve("xdlink"));
        Files.writeString(repo.resolve("pom.xml"), "<project/>\n");
        Path mvnw = Files.writeString(repo.resolve("mvnw"), "#!/usr/bin/env bash\n" + mvnwBody);
        for (Path p : List.of(mvnw, repo.resolve("xdlink"))) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Path log = tmp.resolve("maven.log");
        Files.writeString(log, MAVEN_LOG);
        ProcessBuilder pb = new ProcessBuilder("bash", repo.resolve("xdlink").toString(), "--version")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("XDLINK_JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("MAVEN_LOG", log.toString());
        Process p = pb.start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), err);
    }

    @Test
    void theFirstBuildShowsEachModuleAndTheDownloads(@TempDir Path tmp) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")) || Files.isExecutable(Path.of("/usr/bin/bash")));
        Run r = launch(tmp, "cat \"$MAVEN_LOG\"\nexit 0\n");
        assertThat(r.err()).contains("xdlink: building the command line with Maven, once")
                .contains("xdlink: downloading dependencies: 1 files so far")
                .contains("xdlink: [1/2] xdlink (")
                .contains("xdlink: [2/2] xdlink command line (")
                .contains("xdlink: downloaded 2 files")
                .containsPattern("xdlink: built in \\d+ s");
        assertThat(r.err()).doesNotContain("[INFO]");
        assertThat(Files.readString(tmp.resolve("repo/cli/target/build.log"))).isEqualTo(MAVEN_LOG);
    }

    @Test
    void aFailedBuildShowsTheEndOfTheLogAndExitsOne(@TempDir Path tmp) throws Exception {
        Run r = launch(tmp, "cat \"$MAVEN_LOG\"\necho '[ERROR] COMPILATION ERROR : Main.java:[3,1] oops'\nexit 1\n");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("[ERROR] COMPILATION ERROR : Main.java:[3,1] oops")
                .contains("xdlink: the build failed; the last lines of ").doesNotContain("built in");
    }
}
