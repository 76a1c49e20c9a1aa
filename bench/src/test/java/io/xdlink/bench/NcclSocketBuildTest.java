package io.xdlink.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bench/nccl-socket/build.sh}, which builds NCCL's own socket transport from an NCCL source tree for the
 * side-by-side netbench: a tree it cannot build from is refused before anything is compiled, with exit status 2 and
 * a line naming what was wrong, and a hostile version file runs nothing. The build itself needs NCCL's source, which
 * this repository does not carry.
 */
class NcclSocketBuildTest {
    private static final Path SCRIPT = Path.of("nccl-socket", "build.sh").toAbsolutePath();

    private record Run(int status, String err) {
    }

    private static Run run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("build.sh ends").isTrue();
        return new Run(p.exitValue(), err);
    }

    /** The files build.sh looks for, with a v12 net table and the given version file. */
    private static Path tree(Path root, String versionMk) throws IOException {
        for (String f : List.of("src/transport/net_socket.cc", "src/misc/socket.cc", "src/os/linux.cc",
                "src/nccl.h.in")) {
            Files.createDirectories(root.resolve(f).getParent());
            Files.writeString(root.resolve(f), "");
        }
        Path net = root.resolve("src/include/plugin/nccl_net.h");
        Files.createDirectories(net.getParent());
        Files.writeString(net, "typedef ncclNet_v12_t ncclNet_t;\n");
        Path version = root.resolve("makefiles/version.mk");
        Files.createDirectories(version.getParent());
        Files.writeString(version, versionMk);
        return root;
    }

    private static final String GOOD_VERSION = "NCCL_MAJOR   := 2\nNCCL_MINOR   := 30\nNCCL_PATCH   := 7\n";

    @Test
    void noArgumentOrNoDirectoryIsRefused(@TempDir Path dir) throws Exception {
        Run none = run();
        assertThat(none.status()).isEqualTo(2);
        assertThat(none.err()).contains("usage: ").contains("NCCL_SOURCE_DIR");
        Run missing = run(dir.resolve("absent").toString());
        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.err()).contains("no directory " + dir.resolve("absent"));
    }

    @Test
    void aTreeWithoutTheTransportsSourcesIsRefusedByTheFileItLacks(@TempDir Path dir) throws Exception {
        Path root = tree(dir, GOOD_VERSION);
        Files.delete(root.resolve("src/misc/socket.cc"));
        Run r = run(root.toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("is not an NCCL source tree: no src/misc/socket.cc");
    }

    @Test
    void anotherNetTableVersionIsRefused(@TempDir Path dir) throws Exception {
        Path root = tree(dir, GOOD_VERSION);
        Files.writeString(root.resolve("src/include/plugin/nccl_net.h"), "typedef ncclNet_v11_t ncclNet_t;\n");
        Run r = run(root.toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("internal net table is not v12");
    }

    @Test
    void aMissingMalformedOrHostileVersionIsRefusedAndRunsNothing(@TempDir Path dir) throws Exception {
        Path witness = dir.resolve("ran");
        String[][] cases = {
            {"", "NCCL_MAJOR"},
            {"NCCL_MAJOR := 2\nNCCL_MINOR := 30\n", "NCCL_PATCH"},
            {"NCCL_MAJOR := 2\nNCCL_MINOR := 3x\nNCCL_PATCH := 7\n", "NCCL_MINOR"},
            {"NCCL_MAJOR := -2\nNCCL_MINOR := 30\nNCCL_PATCH := 7\n", "NCCL_MAJOR"},
            {"NCCL_MAJOR := 2.3\nNCCL_MINOR := 30\nNCCL_PATCH := 7\n", "NCCL_MAJOR"},
            {"NCCL_MAJOR := 123456\nNCCL_MINOR := 30\nNCCL_PATCH := 7\n", "NCCL_MAJOR"},
            {"NCCL_MAJOR := 2 7\nNCCL_MINOR := 30\nNCCL_PATCH := 7\n", "NCCL_MAJOR"},
            {"NCCL_MAJOR := a[$(touch " + witness + ")]\nNCCL_MINOR := 30\nNCCL_PATCH := 7\n", "NCCL_MAJOR"},
            {"NCCL_MAJOR := 2\nNCCL_MINOR := $(touch " + witness + ")\nNCCL_PATCH := 7\n", "NCCL_MINOR"},
            {"NCCL_MAJOR := 2\nNCCL_MINOR := 30\nNCCL_PATCH := a[$(touch${IFS}" + witness + ")]\n", "NCCL_PATCH"},
        };
        for (String[] c : cases) {
            Path root = tree(Files.createTempDirectory(dir, "tree"), c[0]);
            Run r = run(root.toString(), dir.resolve("out").toString());
            assertThat(r.status()).as(c[0]).isEqualTo(2);
            assertThat(r.err()).as(c[0]).contains("makefiles/version.mk gives no " + c[1] + " (a number)");
        }
        assertThat(witness).as("a command inside the version file ran").doesNotExist();
        assertThat(dir.resolve("out")).as("nothing built").doesNotExist();
    }
}
