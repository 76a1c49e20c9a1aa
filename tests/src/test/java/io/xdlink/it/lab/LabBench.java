package io.xdlink.it.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Starts {@code xdlink} commands as their own JVMs inside a lab host's namespace, with output to a log, and waits
 * on what they print: the lab tests' way of running the command as a user would, on two hosts. {@link #run} runs
 * one {@code xdlink bench} as a user does: the server in host a's namespace, then the client in host b's, each with
 * its host's fake sysfs tree under {@code dir}.
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
        Process s = start(lab, true, server, serverLog);
        Process c = null;
        try {
            waitFor(serverLog, "Waiting for client", s, 120);
            c = start(lab, false, client, clientLog);
            boolean clientDone = c.waitFor(240, TimeUnit.SECONDS);
            boolean serverDone = s.waitFor(60, TimeUnit.SECONDS);
            String cout = read(clientLog);
            String sout = read(serverLog);
            assertThat(clientDone && serverDone).as("finished in time; client:\n" + cout + "\nserver:\n" + sout)
                    .isTrue();
            assertThat(c.exitValue()).as("client:\n" + cout + "\nserver:\n" + sout).isZero();
            assertThat(s.exitValue()).as("server:\n" + sout).isZero();
            // The client's table goes to the test's output, so a run's figures can be read back from the reports.
            System.out.println(name + ":\n" + cout);
            return new Outcome(cout, sout);
        } finally {
            stop(c, s);
        }
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

    /**
     * Kills every one of {@code processes} still running, then waits until each is gone (10 s at most each), so the
     * next run never meets a dying one holding its ports, its rails or its log.
     */
    static void stop(Process... processes) {
        for (Process p : processes) {
            if (p != null) {
                p.destroyForcibly();
            }
        }
        try {
            for (Process p : processes) {
                if (p != null) {
                    p.waitFor(10, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String read(Path log) throws IOException {
        return Files.exists(log) ? Files.readString(log) : "(no output)";
    }

    /** Sends {@code signal} (STOP, CONT, KILL) to a process. */
    static void signal(Process p, String signal) {
        NetnsLab.exec("kill", "-" + signal, Long.toString(p.pid()));
    }
}
