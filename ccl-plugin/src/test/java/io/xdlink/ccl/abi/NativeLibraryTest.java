package io.xdlink.ccl.abi;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The built library's dynamic interface is exactly the seven tables, and it can never be unloaded. */
class NativeLibraryTest {
    private static final Path SO = Path.of(System.getProperty("xdlink.native.so",
            "target/native/libnccl-net-xdlink.so"));

    private static List<String> run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("%s: %s", String.join(" ", command), out).isZero();
        return out.lines().filter(l -> !l.isBlank()).toList();
    }

    @Test
    void exportsExactlyTheSevenTablesAsData() throws Exception {
        assertThat(Files.isRegularFile(SO)).as("%s built", SO).isTrue();
        List<String> symbols = run("nm", "-D", "--defined-only", SO.toString());
        assertThat(symbols).extracting(l -> {
            String[] f = l.trim().split("\\s+");
            return f[f.length - 2] + " " + f[f.length - 1];
        }).containsExactlyInAnyOrder(Arrays.stream(new int[] {6, 7, 8, 9, 10, 11, 12})
                .mapToObj(v -> "D ncclNetPlugin_v" + v).toArray(String[]::new));
    }

    @Test
    void isLinkedNodeleteAndNeedsNoJvmToLoad() throws Exception {
        List<String> dynamic = run("readelf", "-d", SO.toString());
        assertThat(dynamic).anyMatch(l -> l.contains("FLAGS_1") && l.contains("NODELETE"));
        assertThat(dynamic).filteredOn(l -> l.contains("NEEDED")).noneMatch(l -> l.contains("libjvm"));
    }
}
