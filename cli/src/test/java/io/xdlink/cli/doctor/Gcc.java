package io.xdlink.cli.doctor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Builds real shared objects with the system C compiler for end-to-end tests. */
final class Gcc {
    private Gcc() {
    }

    static boolean available() {
        try {
            Process p = new ProcessBuilder("gcc", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static Path source(Path dir, String name, String code) throws IOException {
        Path c = dir.resolve(name + ".c");
        Files.writeString(c, code);
        return c;
    }

    /** gcc -shared -fPIC, with an optional version script and soname, into {@code out}. */
    static void sharedLibrary(Path dir, String name, String code, String versionScript, String soname, Path out)
            throws IOException, InterruptedException {
        Files.createDirectories(out.getParent());
        List<String> cmd = new ArrayList<>(List.of("gcc", "-shared", "-fPIC", "-o", out.toString(),
                source(dir, name, code).toString()));
        if (versionScript != null) {
            Path map = dir.resolve(name + ".map");
            Files.writeString(map, versionScript);
            cmd.add("-Wl,--version-script=" + map);
        }
        if (soname != null) {
            cmd.add("-Wl,-soname," + soname);
        }
        run(dir, cmd.toArray(String[]::new));
    }

    static void run(Path dir, String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: " + output);
        }
    }
}
