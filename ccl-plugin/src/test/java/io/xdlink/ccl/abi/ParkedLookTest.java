package io.xdlink.ccl.abi;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ccl_bridge.h's parked read in C, the look a host's {@code test()} makes outside Java (src/test/c/parked_look.c,
 * built with gcc against the header the shim is built from): it reads only an armed block of a comm that nothing
 * reached since Java's last look and that only the host's polling drives, before the engine's deadline; it leaves
 * what it brought, or the stream's end, for Java; and a look that finds nothing leaves the block armed and the
 * host's {@code errno} as it was.
 */
class ParkedLookTest {
    private static final Path SOURCE = Path.of("src/test/c/parked_look.c");
    private static final Path INCLUDE = Path.of("src/main/c");

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
        assertThat(p.exitValue()).as("%s: %s", String.join(" ", command), out).isZero();
        return out;
    }

    @Test
    void theLookReadsOnlyWhenJavaLeftItTheReadAndLeavesWhatItBroughtToJava() throws Exception {
        Path binary = Path.of("target", "parked-look", "parked_look").toAbsolutePath();
        Files.createDirectories(binary.getParent());
        run(List.of("gcc", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-pthread", "-I" + INCLUDE, "-o",
                binary.toString(), SOURCE.toString()));
        String out = run(List.of(binary.toString()));
        assertThat(out.lines()).as(out).hasSize(33).allMatch(l -> l.startsWith("ok "));
    }
}
