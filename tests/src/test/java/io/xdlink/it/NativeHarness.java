package io.xdlink.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Builds the C plugin harness (tests/src/test/c) with gcc once per JVM and runs it as a separate process, the way
 * a collective library would load the plugin: only the environment tells it where things are.
 */
final class NativeHarness {
    static final Path PLUGIN_DIR = Path.of(System.getProperty("xdlink.plugin.dir", "../ccl-plugin/target/xdlink-plugin"))
            .toAbsolutePath().normalize();
    static final Path SO = PLUGIN_DIR.resolve("libnccl-net-xdlink.so");
    static final String JAVA_HOME = System.getProperty("xdlink.java.home", System.getProperty("java.home"));
    private static final Path SRC = Path.of(System.getProperty("xdlink.harness.src", "src/test/c"));
    private static final Path INCLUDE = Path.of(System.getProperty("xdlink.abi.include", "../ccl-plugin/src/main/c"));
    private static Path binary;

    private NativeHarness() {
    }

    /** The result of one run: exit status and everything printed. */
    record Run(int exit, String output) {
        long count(String prefix) {
            return output.lines().filter(l -> l.startsWith(prefix)).count();
        }
    }

    static synchronized Path binary() throws IOException, InterruptedException {
        if (binary == null) {
            Path out = Path.of("target", "native-harness", "plugin_harness").toAbsolutePath();
            Files.createDirectories(out.getParent());
            Run cc = exec(List.of("gcc", "-std=c11", "-O2", "-g", "-Wall", "-Wextra", "-Werror", "-I" + INCLUDE,
                    "-o", out.toString(), SRC.resolve("plugin_harness.c").toString(), "-ldl", "-lpthread"), Map.of(),
                    120);
            assertThat(cc.exit()).as("gcc: %s", cc.output()).isZero();
            binary = out;
        }
        return binary;
    }

    /** Runs the harness with exactly this environment (plus PATH), failing the test after {@code timeoutSeconds}. */
    static Run run(Map<String, String> env, long timeoutSeconds, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(binary().toString());
        command.addAll(List.of(args));
        return exec(command, env, timeoutSeconds);
    }

    static Process start(Map<String, String> env, Path output, String... args) throws IOException, InterruptedException {
        return start(List.of(), env, output, args);
    }

    /**
     * Starts the harness behind {@code prefix} (such as {@code ip netns exec NS}, which passes the environment on),
     * with exactly this environment plus PATH, its output in {@code output}.
     */
    static Process start(List<String> prefix, Map<String, String> env, Path output, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(prefix);
        command.add(binary().toString());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        pb.environment().clear();
        pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        pb.environment().putAll(env);
        return pb.start();
    }

    private static Run exec(List<String> command, Map<String, String> env, long timeoutSeconds)
            throws IOException, InterruptedException {
        Path log = Files.createTempFile("harness", ".log");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().clear();
            pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError("timed out after " + timeoutSeconds + " s: " + String.join(" ", command)
                        + "\n" + Files.readString(log, StandardCharsets.UTF_8));
            }
            return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
