package io.xdlink.cli.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The repository root as tests find it: the nearest directory above the working one with README.md and a reactor pom.
 */
final class RepositoryRoot {
    private RepositoryRoot() {
    }

    static Path find() {
        return find(Path.of("").toAbsolutePath());
    }

    /** The nearest directory at or above {@code start} holding README.md beside a pom.xml with {@code <module>}s. */
    static Path find(Path start) {
        for (Path dir = start.normalize(); dir != null; dir = dir.getParent()) {
            Path pom = dir.resolve("pom.xml");
            if (Files.isRegularFile(dir.resolve("README.md")) && Files.isRegularFile(pom) && isReactor(pom)) {
                return dir;
            }
        }
        throw new AssertionError("no repository root above " + start
                + ": looked for README.md beside a pom.xml with <module> entries");
    }

    private static boolean isReactor(Path pom) {
        try {
            return Files.readString(pom).contains("<module>");
        } catch (IOException e) {
            return false;
        }
    }
}
