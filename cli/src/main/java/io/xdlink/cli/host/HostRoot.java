package io.xdlink.cli.host;

import io.xdlink.cli.UsageException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * The {@code --root DIR} every host-reading command takes: the directory to read {@code /sys}, {@code /proc},
 * {@code /etc} and the libraries under. Resolved through a function so tests can hand in an in-memory file system.
 */
public final class HostRoot {
    private HostRoot() {
    }

    /**
     * The root as a directory that exists, absolute (so paths read under it can be shown as the host names them,
     * whatever the working directory), or a usage error naming it.
     */
    public static Path resolve(Function<String, Path> paths, String root) {
        Path p;
        try {
            p = paths.apply(root);
        } catch (RuntimeException e) {
            throw new UsageException("--root " + root + ": not a path (" + e.getMessage() + ")");
        }
        if (!Files.isDirectory(p)) {
            throw new UsageException("--root " + root + ": no such directory");
        }
        return p.toAbsolutePath().normalize();
    }
}
