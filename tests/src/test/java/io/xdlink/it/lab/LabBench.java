package io.xdlink.it.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code xdlink bench} as a user runs it in the lab: the server in host a's namespace, then the client in host b's,
 * each a process of its own on the command line's main class, each with its host's fake sysfs tree; their output
 * goes to logs in {@code dir}.
 */
final class LabBench {
    private final NetnsLab lab;
    private final Path dir;

    LabBench(NetnsLab lab, Path dir) {
        this.lab = lab;
        this.dir = dir;
    }

    /** Both ends' output, the client's first. */
    record Outcome(String clientOut, String serverOut) {
    }

    /**
     * Runs {@code xdlink bench <args>} on both hosts, the client dialling host a over cable 0; fails unless both
     * finish in time and exit 0. {@code clientOnly} are added to the client's arguments alone.
     */
    Outcome run(String name, List<String> args, List<String> clientOnly) throws IOException, InterruptedException {
        List<String> server = new ArrayList<>(List.of("bench"));
        server.addAll(args);
        server.addAll(List.of("-P", "host_root=" + dir.resolve("sys-a")));
        List<String> client = new ArrayList<>(List.of("bench"));
        client.addAll(args);
        client.addAll(List.of(NetnsLab.address(0, true), "-P", "host_root=" + dir.resolve("sys-b")));
        client.addAll(clientOnly);
        Path serverLog = dir.resolve(name + "-server.log");
        Path clientLog = dir.resolve(name + "-client.log");
        Process s = start(true, server, serverLog);
        try {
            waitFor(serverLog, "Waiting for client", s);
            Process c = start(false, client, clientLog);
            boolean clientDone = c.waitFor(240, TimeUnit.SECONDS);
            boolean serverDone = s.waitFor(60, TimeUnit.SECONDS);
            String cout = Files.readString(clientLog);
            String sout = Files.readString(serverLog);
            assertThat(clientDone && serverDone).as("finished in time; client:\n" + cout + "\nserver:\n" + sout)
                    .isTrue();
            assertThat(c.exitValue()).as("client:\n" + cout + "\nserver:\n" + sout).isZero();
            assertThat(s.exitValue()).as("server:\n" + sout).isZero();
            // The client's table goes to the test's output, so a run's figures can be read back from the reports.
            System.out.println(name + ":\n" + cout);
            return new Outcome(cout, sout);
        } finally {
            s.destroyForcibly();
        }
    }

    private Process start(boolean hostA, List<String> args, Path log) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                "io.xdlink.cli.Main"));
        cmd.addAll(args);
        return new ProcessBuilder(lab.inNamespace(hostA, cmd)).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
    }

    private static void waitFor(Path log, String text, Process p) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log).contains(text)) {
                return;
            }
            if (!p.isAlive()) {
                throw new AssertionError("the server stopped: " + Files.readString(log));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the server never said '" + text + "': " + Files.readString(log));
    }
}
