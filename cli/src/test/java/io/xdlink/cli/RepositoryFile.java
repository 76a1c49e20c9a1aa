package io.xdlink.cli;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A file of the repository that a test runs (the launcher, a build script), found from the working directory up, as
 * Maven runs a module's tests in the module's folder; a test run where it cannot be found is skipped, saying so.
 */
final class RepositoryFile {
    private RepositoryFile() {
    }

    /** The nearest {@code name} (a path relative to the repository root) at or above the working directory. */
    static Path of(String name) {
        Path start = Path.of("").toAbsolutePath();
        Path dir = start;
        while (dir != null && !Files.isRegularFile(dir.resolve(name))) {
            dir = dir.getParent();
        }
        assumeTrue(dir != null, "no " + name + " at or above " + start);
        return dir.resolve(name);
    }
}
