package io.xdlink.it.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts {@code xdlink} commands as their own JVMs inside a lab host's namespace, with output to a log, and waits
 * on what they print: the lab tests' way of running the command as a user would, on two hosts.
 */
final class LabBench {
    private LabBench() {
    }

    /** Starts {@code io.xdlink.cli.Main args} in host a's or b's namespace, output (both streams) to {@code log}. */
    static Process start(NetnsLab lab, boolean hostA, List<String> args, Path log) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                "io.xdlink.cli.Main"));
        cmd.addAll(args);
        return new ProcessBuilder(lab.inNamespace(hostA, cmd)).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
    }

    /** Waits until {@code log} holds {@code text}; fails when the process ends first or the time runs out. */
    static void waitFor(Path log, String text, Process p, long seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log).contains(text)) {
                return;
            }
            if (!p.isAlive()) {
                throw new AssertionError("the process stopped before saying '" + text + "': " + read(log));
            }
            Thread.sleep(20);
        }
        throw new AssertionError("never said '" + text + "' within " + seconds + " s: " + read(log));
    }

    static String read(Path log) throws IOException {
        return Files.exists(log) ? Files.readString(log) : "(no output)";
    }

    /**
     * The process id of the JVM {@code ip netns exec} started for {@code p}: {@code ip} execs the command, so it
     * is the same process.
     */
    static long pid(Process p) {
        return p.pid();
    }

    /** Sends {@code signal} (STOP, CONT, KILL) to a process. */
    static void signal(Process p, String signal) {
        NetnsLab.exec("kill", "-" + signal, Long.toString(p.pid()));
    }
}
